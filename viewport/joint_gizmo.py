"""The joint pivot gizmo: a ring at the active joint's pivot; dragging it moves the pivot.

Blender's own move gizmo (GIZMO_GT_move_3d, drawn facing the view) runs `omi.joint_move_pivot` when
pressed, so the move is an ordinary operator: one undo step, a redo panel with the offset, and the joint
and the frame it connects to move together (moving the joint empty alone would pre-stretch the joint).
It shows while the active, selected object is a joint empty with a connected object, in Object Mode,
whenever the viewport shows gizmos.
"""

from __future__ import annotations

import bpy
from mathutils import Matrix

from ..operators.joint_pivot import pivot_joint
from .geometry import ROLE_COLORS

OPERATOR = "omi.joint_move_pivot"
RING_SIZE = 0.2  # of Blender's gizmo unit (about 75 px at UI scale 1): a ring around the joint's arrows


def shown_for(context: bpy.types.Context) -> bpy.types.Object | None:
    """The joint object the gizmo is drawn on, or None: the active object when it is selected and its pivot
    can move (the operator's own rule, `pivot_joint`), in Object Mode."""
    obj = getattr(context, "active_object", None)
    if obj is None or getattr(context, "mode", 'OBJECT') != 'OBJECT' or not obj.select_get():
        return None
    return pivot_joint(obj)


def pivot_matrix(obj: bpy.types.Object) -> Matrix:
    """Where the ring is drawn: at the joint's world location (it faces the view by itself)."""
    return Matrix.Translation(obj.matrix_world.to_translation().to_tuple())


class VIEW3D_GGT_omi_joint_pivot(bpy.types.GizmoGroup):
    bl_idname = "VIEW3D_GGT_omi_joint_pivot"
    bl_label = "OMI Joint Pivot"
    bl_space_type = 'VIEW_3D'
    bl_region_type = 'WINDOW'
    bl_options = {'3D', 'PERSISTENT'}

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return shown_for(context) is not None

    def setup(self, _context: bpy.types.Context) -> None:
        ring = self.gizmos.new("GIZMO_GT_move_3d")
        # a ring facing the view, pressed anywhere inside (a property of the move gizmo's type, not of Gizmo)
        ring.draw_options = {'ALIGN_VIEW', 'FILL_SELECT'}  # type: ignore[attr-defined]  # see above
        ring.target_set_operator(OPERATOR)
        ring.color = ROLE_COLORS['JOINT'][:3]
        ring.alpha = 0.6
        ring.color_highlight = (1.0, 1.0, 1.0)
        ring.alpha_highlight = 1.0
        ring.scale_basis = RING_SIZE
        ring.line_width = 2.0
        self.ring = ring

    def draw_prepare(self, context: bpy.types.Context) -> None:
        """Every redraw: follow the joint (moved by the drag, by G, by an undo)."""
        obj = shown_for(context)
        if obj is not None:
            self.ring.matrix_basis = pivot_matrix(obj)


def register() -> None:
    bpy.utils.register_class(VIEW3D_GGT_omi_joint_pivot)


def unregister() -> None:
    bpy.utils.unregister_class(VIEW3D_GGT_omi_joint_pivot)
