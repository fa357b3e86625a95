"""The gravity volume of a trigger object: one draw function for the Physics tab and the sidebar.

Shown for triggers (a gravity volume lives on one), with the switch in the panel header, the fields of the
chosen type, priority/replace/stop, the findings of validation (io/omi/dialects/gravity.py's rules) and,
once, why Blender's simulation ignores the volume.
"""

from __future__ import annotations

import textwrap

import bpy

from ..properties import object_physics
from ..properties.gravity import OMIGravitySettings
from ..properties.gravity_checks import compound_members, gravity_findings
from . import draw

WRAP = 36  # characters of a finding per line: the Properties editor's default width shows about that many
TYPE_FIELDS: dict[str, tuple[str, ...]] = {  # the settings each type uses, below its strength
    'DIRECTIONAL': ("direction",),
    'POINT': ("unit_distance",),
    'DISC': ("radius", "unit_distance"),
    'TORUS': ("radius", "unit_distance"),
    'LINE': ("unit_distance",),
    'SHAPED': ("unit_distance",),
}


def draw_gravity(layout: bpy.types.UILayout, context: bpy.types.Context, obj: bpy.types.Object) -> None:
    """The settings of the object's gravity volume (the switch is drawn by the caller's header)."""
    settings = object_physics(obj)
    gravity = settings.gravity
    layout.active = settings.use_gravity
    layout.use_property_split = True
    layout.prop(gravity, "gravity_type")
    column = layout.column(align=True)
    column.prop(gravity, "strength")
    for name in TYPE_FIELDS[gravity.gravity_type]:
        column.prop(gravity, name)
    if gravity.gravity_type == 'LINE':
        _draw_points(layout, gravity)
    if gravity.gravity_type == 'SHAPED':
        box = layout.box()
        box.label(text="Pulls towards this shape (in the object's axes)")
        box.prop(gravity.shape, "shape_type")
        for name in draw.shape_fields(gravity.shape):
            box.prop(gravity.shape, name)
    combine = layout.column(heading="Overlaps")
    combine.prop(gravity, "priority")
    combine.prop(gravity, "replace")
    combine.prop(gravity, "stop")
    if settings.use_gravity:
        scene = context.scene
        assert scene is not None, "a panel is drawn in a scene"
        for _code, message, severity in gravity_findings(obj, compound_members(scene.objects)):
            lines = layout.column(align=True)
            lines.scale_y = 0.8
            for position, text in enumerate(textwrap.wrap(message, WRAP)):  # panels are narrow: wrapped
                lines.label(text=text, icon=('ERROR' if severity == "error" else 'INFO') if not position else 'BLANK1')
    note = layout.column(align=True)
    note.scale_y = 0.8
    note.label(text="Not simulated by Blender:", icon='INFO')  # narrow editors: short lines (Validate says why)
    note.label(text="exported for game engines")


def _draw_points(layout: bpy.types.UILayout, gravity: OMIGravitySettings) -> None:
    box = layout.box()
    row = box.row()
    row.label(text=f"Line: {len(gravity.points)} point{'' if len(gravity.points) == 1 else 's'}")
    row.operator("omi.gravity_point_add", icon='ADD', text="")
    row.operator("omi.gravity_point_remove", icon='REMOVE', text="")
    for point in gravity.points:
        box.row().prop(point, "co", text="")


def _has_trigger(context: bpy.types.Context) -> bool:
    obj = context.object
    return obj is not None and object_physics(obj).use_trigger


class PHYSICS_PT_omi_gravity(bpy.types.Panel):
    """Properties > Physics > OMI Physics > Gravity Volume."""

    bl_space_type = 'PROPERTIES'
    bl_region_type = 'WINDOW'
    bl_context = "physics"
    bl_parent_id = "PHYSICS_PT_omi"
    bl_label = "Gravity Volume"

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return _has_trigger(context)

    def draw_header(self, context: bpy.types.Context) -> None:
        layout, obj = self.layout, context.object
        assert layout is not None and obj is not None, "Blender draws a panel in its layout; poll: an active trigger"
        layout.prop(object_physics(obj), "use_gravity", text="")

    def draw(self, context: bpy.types.Context) -> None:
        layout, obj = self.layout, context.object
        assert layout is not None and obj is not None, "Blender draws a panel in its layout; poll: an active trigger"
        draw_gravity(layout, context, obj)


class VIEW3D_PT_omi_gravity(bpy.types.Panel):
    """Sidebar > Physics > Gravity Volume, for the active trigger; and a button to make volumes."""

    bl_space_type = 'VIEW_3D'
    bl_region_type = 'UI'
    bl_category = "Physics"
    bl_label = "Gravity Volume"

    def draw_header(self, context: bpy.types.Context) -> None:
        layout, obj = self.layout, context.object
        if _has_trigger(context):
            assert layout is not None and obj is not None, "Blender draws a panel in its layout; an active trigger"
            layout.prop(object_physics(obj), "use_gravity", text="")

    def draw(self, context: bpy.types.Context) -> None:
        layout, obj = self.layout, context.object
        assert layout is not None, "Blender draws a panel in its layout"
        layout.operator("omi.gravity_volume_from_selection", icon='FORCE_FORCE')
        if _has_trigger(context):
            assert obj is not None, "an active trigger"
            draw_gravity(layout.column(), context, obj)


CLASSES: tuple[type, ...] = (PHYSICS_PT_omi_gravity, VIEW3D_PT_omi_gravity)
