"""Point gizmos of the extension units: on the active, selected object, one of Blender's move gizmos at each
point a unit's binding declares (`Binding.points`: a seat's back, knee and foot); dragging one writes the
setting directly (the gizmo's `offset` is the setting, in the node's frame), so it is one undo step.

The gizmos' space is the object's world matrix times the file's axis change (glTF Y up to Blender Z up), the
frame the settings hold their points in.
"""

from __future__ import annotations

from typing import Any

import bpy
from mathutils import Matrix

from ..properties import units
from .unit_lines import UNIT_COLOR

POOL = 6  # gizmos made once per group; the unused ones hide
DOT_SIZE = 0.08  # of Blender's gizmo unit
FILE_TO_BLENDER = Matrix(((1.0, 0.0, 0.0, 0.0), (0.0, 0.0, -1.0, 0.0), (0.0, 1.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0)))


def points_of(context: bpy.types.Context) -> list[tuple[Any, str]]:
    """(settings, point setting) of the active, selected object's enabled units, in Object Mode."""
    obj = getattr(context, "active_object", None)
    if obj is None or getattr(context, "mode", 'OBJECT') != 'OBJECT' or not obj.select_get():
        return []
    found = []
    for binding in units.BINDINGS:
        if binding.points and units.has_values(obj):
            settings = units.settings_of(obj, binding)
            if settings.enabled:
                found += [(settings, name) for name in binding.points]
    return found


def gizmo_space(obj: bpy.types.Object) -> Matrix:
    """Where a point setting's value is placed: the object's frame with the file's axes."""
    return obj.matrix_world @ FILE_TO_BLENDER


class VIEW3D_GGT_omi_unit_points(bpy.types.GizmoGroup):
    bl_idname = "VIEW3D_GGT_omi_unit_points"
    bl_label = "OMI Unit Points"
    bl_space_type = 'VIEW_3D'
    bl_region_type = 'WINDOW'
    bl_options = {'3D', 'PERSISTENT'}

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return bool(points_of(context))

    def setup(self, _context: bpy.types.Context) -> None:
        self.dots = []
        for _ in range(POOL):
            dot = self.gizmos.new("GIZMO_GT_move_3d")
            dot.draw_options = {'FILL_SELECT'}  # type: ignore[attr-defined]  # a property of the move gizmo's type
            dot.color, dot.alpha = UNIT_COLOR[:3], 0.7
            dot.color_highlight, dot.alpha_highlight = (1.0, 1.0, 1.0), 1.0
            dot.scale_basis = DOT_SIZE
            self.dots.append(dot)

    def refresh(self, context: bpy.types.Context) -> None:
        """When the selection or the settings change: bind each dot to a point setting, hide the rest."""
        found = points_of(context)
        for position, dot in enumerate(self.dots):
            dot.hide = position >= len(found)
            if not dot.hide:
                settings, name = found[position]
                dot.target_set_prop("offset", settings, name)

    def draw_prepare(self, context: bpy.types.Context) -> None:
        obj = getattr(context, "active_object", None)
        if obj is not None:
            space = gizmo_space(obj)
            for dot in self.dots:
                dot.matrix_basis = space


def register() -> None:
    bpy.utils.register_class(VIEW3D_GGT_omi_unit_points)


def unregister() -> None:
    bpy.utils.unregister_class(VIEW3D_GGT_omi_unit_points)
