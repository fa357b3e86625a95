"""The sidebar's compact summary of the active object: one line per part, sizes with their units."""

from __future__ import annotations

from typing import Literal

import bpy

from ..io.omi.conventions import capsule_full_height
from ..properties import object_physics
from ..properties.shape import ROUND_SHAPES, SHAPE_TYPE_ITEMS, OMIShapeSettings
from .hidden_shapes import draw_hidden_shapes

_SHAPE_LABELS = {item[0]: item[1] for item in SHAPE_TYPE_ITEMS}


def shape_summary(shape: OMIShapeSettings) -> str:
    """One line describing a shape, e.g. 'Box 1 x 2 x 0.5 m'."""
    label = _SHAPE_LABELS[shape.shape_type]
    if shape.shape_type == 'BOX':
        return f"{label} {' x '.join(f'{v:.3g}' for v in shape.size)} m"
    if shape.shape_type == 'SPHERE':
        return f"{label} r {shape.radius:.3g} m"
    if shape.shape_type in ROUND_SHAPES:
        radius = (f"r {shape.radius_top:.3g}" if shape.radius_top == shape.radius_bottom
                  else f"r {shape.radius_top:.3g} top, {shape.radius_bottom:.3g} bottom")
        full = (capsule_full_height(shape.height, max(shape.radius_top, shape.radius_bottom))
                if shape.shape_type == 'CAPSULE' else shape.height)
        return f"{label} {radius}, {full:.3g} m tall"
    source = shape.mesh_object.name if shape.mesh_source == 'OBJECT' and shape.mesh_object else "own mesh"
    return f"{label} ({source})"


# The icons of the summary's lines (each a Blender icon in 4.2 and the newest).
SummaryIcon = Literal['CONSTRAINT', 'FILTER', 'GHOST_ENABLED', 'INFO', 'MATERIAL', 'MESH_CUBE', 'PHYSICS']


def summary_lines(obj: bpy.types.Object) -> list[tuple[SummaryIcon, str]]:
    """(icon, text) lines that say what OMI makes of the object, for the sidebar's compact summary."""
    settings = object_physics(obj)
    lines: list[tuple[SummaryIcon, str]] = []
    if settings.use_motion:
        motion = settings.motion
        text = motion.motion_type.title() + " body"
        if motion.motion_type == 'DYNAMIC':
            text += f", {motion.mass:.3g} kg"
        lines.append(('PHYSICS', text))
    if settings.use_collider:
        collider = settings.collider
        text = "Compound collider" if collider.is_compound else "Collider: " + shape_summary(collider.shape)
        lines.append(('MESH_CUBE', text))
        if collider.physics_material:
            lines.append(('MATERIAL', "Material: " + collider.physics_material))
        if collider.collision_filter:
            lines.append(('FILTER', "Filter: " + collider.collision_filter))
    if settings.use_trigger:
        trigger = settings.trigger
        text = (f"Compound trigger ({len(trigger.nodes)} parts)" if trigger.is_compound
                else "Trigger: " + shape_summary(trigger.shape))
        lines.append(('GHOST_ENABLED', text))
    if settings.use_joint:
        joint = settings.joint
        target = joint.connected_object.name if joint.connected_object else "nothing"
        lines.append(('CONSTRAINT', f"{joint.preset.title()} joint to {target}"))
    if not lines:
        lines.append(('INFO', "No OMI physics"))
    return lines


def draw_summary(layout: bpy.types.UILayout, obj: bpy.types.Object) -> None:
    column = layout.column(align=True)
    column.label(text=obj.name, icon='OBJECT_DATA')
    for icon, text in summary_lines(obj):
        column.label(text=text, icon=icon)
    draw_hidden_shapes(layout.column(align=True), obj)
