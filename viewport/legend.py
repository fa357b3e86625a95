"""The overlay's colours as read-only colour properties, so panels can show them as swatches (a legend).

`WindowManager.omi_overlay_legend`: each property reads `geometry.ROLE_COLORS`, the one home of the
colours the overlay draws with; nothing is stored.
"""

from __future__ import annotations

import bpy
from bpy.props import FloatVectorProperty

from .geometry import ROLE_COLORS

# (role, label, what it marks): the legend's rows, in the order a scene is usually read
LEGEND = (
    ('STATIC', "Static", "Colliders that never move (no body, or a static body)"),
    ('DYNAMIC', "Dynamic", "Shapes of simulated bodies"),
    ('KINEMATIC', "Kinematic", "Shapes of bodies moved by animation"),
    ('TRIGGER', "Trigger", "Trigger volumes: detect, do not collide"),
    ('JOINT', "Joint", "A joint's line to the object it connects to"),
    ('LIMIT', "Limit", "A joint's allowed angle or travel"),
)


def _swatch(role: str, label: str, what: str) -> object:
    """A colour's read-only property (the deferred property bpy.props makes, for the group's annotations)."""
    return FloatVectorProperty(name=label, description=what, subtype='COLOR', size=3, min=0.0, max=1.0,
                               get=lambda _self: ROLE_COLORS[role][:3])


class OMIOverlayLegend(bpy.types.PropertyGroup):
    """Read-only: one colour per overlay role."""

    __annotations__ = {role.lower(): _swatch(role, label, what) for role, label, what in LEGEND}


def register() -> None:
    bpy.utils.register_class(OMIOverlayLegend)
    # Blender adds a setting to its own type as a class attribute (the stubs know no such attribute).
    bpy.types.WindowManager.omi_overlay_legend = bpy.props.PointerProperty(  # type: ignore[attr-defined]  # see above
        type=OMIOverlayLegend)


def unregister() -> None:
    if hasattr(bpy.types.WindowManager, "omi_overlay_legend"):
        del bpy.types.WindowManager.omi_overlay_legend
    bpy.utils.unregister_class(OMIOverlayLegend)
