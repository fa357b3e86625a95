"""The overlay's colours as small icons for the legend, shown exactly as the overlay draws them.

A colour property's swatch is not that (measured in Blender 5.2.2): Blender draws a read-only property
faded, and a COLOR property as scene-linear, brighter than the same numbers given to a gpu shader, which
takes them as display colours. An icon's pixels are shown as given, like the shader's colours: one
small square per role, filled from `geometry.ROLE_COLORS` (the one home of the colours) at registration.
"""

from __future__ import annotations

import bpy
import bpy.utils.previews

from .geometry import ROLE_COLORS

# (role, label): the legend's rows, in the order a scene is usually read
LEGEND = (
    ('STATIC', "Static"),
    ('DYNAMIC', "Dynamic"),
    ('KINEMATIC', "Kinematic"),
    ('TRIGGER', "Trigger"),
    ('JOINT', "Joint"),
    ('LIMIT', "Limit"),
    ('RAGDOLL', "Ragdoll Bone"),
    ('GRAVITY', "Gravity"),
)
ICON_SIZE = 16  # pixels a side; Blender scales icons with the UI

_icons: bpy.utils.previews.ImagePreviewCollection | None = None


def square(role: str) -> bpy.types.ImagePreview | None:
    """A role's colour square (None before registration)."""
    return _icons.get(role) if _icons is not None else None


def icon(role: str) -> int:
    """The icon id of a role's colour square (0: no icon; always so in background mode)."""
    preview = square(role)
    return preview.icon_id if preview is not None else 0


def register() -> None:
    global _icons  # noqa: PLW0603 - the one icon collection of this add-on
    if _icons is None:
        _icons = bpy.utils.previews.new()
    for role, _label in LEGEND:
        square = _icons.get(role) or _icons.new(role)
        size, pixels = (ICON_SIZE, ICON_SIZE), list(ROLE_COLORS[role]) * (ICON_SIZE * ICON_SIZE)
        square.icon_size = size  # type: ignore[assignment,unused-ignore]  # stubs: the array object; takes a sequence
        square.icon_pixels_float = pixels  # type: ignore[assignment]  # stubs: one float or the array; takes a sequence


def unregister() -> None:
    global _icons  # noqa: PLW0603
    if _icons is not None:
        bpy.utils.previews.remove(_icons)
        _icons = None
