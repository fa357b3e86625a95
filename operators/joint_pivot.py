"""Move a joint's pivot: the joint object and its other frame together, by a world offset.

The spec keeps the joint and its connected node at one global position: moving only one of the two
frames (G on the joint empty) would make the joint pull the bodies together when the simulation starts.
This operator moves both, so the bodies stay where they are and the joint turns about the new point. The
viewport's joint gizmo (viewport/joint_gizmo) runs it; dragged, it follows the mouse in the view plane
(X/Y/Z keep one world axis, Ctrl steps by the grid's 0.1 m), and its redo panel takes typed offsets.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import bpy
from bpy.props import FloatVectorProperty
from bpy_extras import view3d_utils
from mathutils import Matrix, Vector

from ..properties import object_physics
from .common import OperatorResult, in_object_mode, link_like

SNAP_STEP = 0.1  # m: Ctrl while dragging moves in steps of Blender's default grid subdivision
_AXES = {'X': Vector((1.0, 0.0, 0.0)), 'Y': Vector((0.0, 1.0, 0.0)), 'Z': Vector((0.0, 0.0, 1.0))}


def is_frame(obj: bpy.types.Object) -> bool:
    """An object that only marks a frame (an empty with no physics part of its own): moving it moves no
    body, collider or trigger."""
    settings = object_physics(obj)
    return obj.type == 'EMPTY' and not (settings.use_motion or settings.use_collider or settings.use_trigger)


def pivot_joint(obj: bpy.types.Object | None) -> bpy.types.Object | None:
    """`obj` when it is a joint whose pivot can move: a frame of its own with another frame to move with it."""
    if obj is None or not object_physics(obj).use_joint or object_physics(obj).joint.connected_object is None:
        return None
    return obj if is_frame(obj) else None


def unscaled(matrix: Matrix) -> Matrix:
    """The frame of a world matrix: its location and rotation, scale left out (a frame has no size)."""
    location, rotation, _scale = matrix.decompose()
    return Matrix.LocRotScale(location, rotation, None)  # type: ignore[arg-type]  # the newest stubs' LocRotScale takes no Vector


def other_frame(context: bpy.types.Context, joint_obj: bpy.types.Object) -> tuple[bpy.types.Object, bool]:
    """The connected frame the pivot moves with, and whether it was made now: a connected object that is a
    body (or holds a shape) gets an anchor empty at its own frame, which the joint then connects to."""
    joint = object_physics(joint_obj).joint
    connected = joint.connected_object
    if is_frame(connected):
        return connected, False
    anchor = bpy.data.objects.new(f"{connected.name}.anchor", None)
    anchor.empty_display_type = 'PLAIN_AXES'
    anchor.empty_display_size = 0.15
    link_like(anchor, connected, context)
    anchor.parent = connected
    anchor.matrix_parent_inverse = Matrix.Identity(4)
    anchor.matrix_world = unscaled(connected.matrix_world)
    joint.connected_object = anchor
    return anchor, True


def constrained(offset: Vector, axis: str, snap: bool) -> Vector:
    """A drag's world offset kept to one world axis ('X', 'Y', 'Z'; '' for none), in grid steps if `snap`."""
    moved = _AXES[axis] * offset.dot(_AXES[axis]) if axis else offset.copy()
    if snap:
        moved = Vector([round(moved[index] / SNAP_STEP) * SNAP_STEP for index in range(3)])
    return moved


@dataclass
class PivotMove:
    """What one move holds: the joint, the frame moving with it (and whether it was made for this move, with
    the object it replaced as the joint's connection), and both frames' world matrices at the start."""

    joint_obj: bpy.types.Object
    frame: bpy.types.Object
    replaced: bpy.types.Object | None
    start: tuple[Matrix, Matrix]

    @classmethod
    def begin(cls, context: bpy.types.Context, joint_obj: bpy.types.Object) -> PivotMove:
        connected = object_physics(joint_obj).joint.connected_object
        frame, made = other_frame(context, joint_obj)
        return cls(joint_obj, frame, connected if made else None,
                   (joint_obj.matrix_world.copy(), frame.matrix_world.copy()))

    def apply(self, offset: Vector) -> None:
        move = Matrix.Translation(offset.to_tuple())
        self.joint_obj.matrix_world = move @ self.start[0]
        self.frame.matrix_world = move @ self.start[1]

    def cancel(self) -> None:
        """Both frames back; an anchor made for this move removed, the joint connected as before."""
        self.apply(Vector())
        if self.replaced is not None:
            object_physics(self.joint_obj).joint.connected_object = self.replaced
            bpy.data.objects.remove(self.frame)


def drag_offset(context: bpy.types.Context, pivot: Vector, start: tuple[int, int], now: tuple[int, int]) -> Vector:
    """The world offset between two mouse positions of a 3D view, in the view plane through the pivot."""
    region, view = context.region, context.region_data
    if region is None or view is None:
        return Vector()
    return (view3d_utils.region_2d_to_location_3d(region, view, now, pivot)
            - view3d_utils.region_2d_to_location_3d(region, view, start, pivot))


class OMI_OT_joint_move_pivot(bpy.types.Operator):
    """Move the active joint's pivot: the joint and the frame it connects to move together, the bodies stay.
    Drag; X, Y or Z keeps one axis, Ctrl moves in 0.1 m steps, right-click or Esc cancels"""

    bl_idname = "omi.joint_move_pivot"
    bl_label = "Move Joint Pivot"
    bl_options = {'REGISTER', 'UNDO', 'BLOCKING'}

    offset: FloatVectorProperty(name="Offset", description="How far the pivot moves, in world axes",
                                subtype='TRANSLATION', unit='LENGTH', size=3)
    if TYPE_CHECKING:  # set by invoke for the drag (plain attributes: Blender keeps them while modal)
        move: PivotMove
        mouse: tuple[int, int]
        axis: str

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        if not in_object_mode(context):
            cls.poll_message_set("Switch to Object Mode")
            return False
        if pivot_joint(context.active_object) is None:
            cls.poll_message_set("The active object is not a joint empty with a connected object")
            return False
        return True

    def _begin(self, context: bpy.types.Context) -> PivotMove:
        joint_obj = pivot_joint(context.active_object)
        assert joint_obj is not None, "poll checked it"
        self.move = PivotMove.begin(context, joint_obj)
        return self.move

    def execute(self, context: bpy.types.Context) -> OperatorResult:
        move = self._begin(context)
        move.apply(Vector(self.offset))
        if move.replaced is not None:
            self.report({'INFO'}, f"{move.frame.name}: a frame for {move.replaced.name}, moved with the pivot")
        return {'FINISHED'}

    def invoke(self, context: bpy.types.Context, event: bpy.types.Event) -> OperatorResult:
        if context.region_data is None or context.window_manager is None:  # not over a 3D view: as given
            return self.execute(context)
        self._begin(context)
        self.mouse = (event.mouse_region_x, event.mouse_region_y)
        self.axis = ''
        context.window_manager.modal_handler_add(self)
        return {'RUNNING_MODAL'}

    def _say(self, context: bpy.types.Context, text: str | None) -> None:
        if context.area is not None:
            context.area.header_text_set(text)

    def modal(self, context: bpy.types.Context, event: bpy.types.Event) -> OperatorResult:
        if event.type in {'ESC', 'RIGHTMOUSE'} and event.value == 'PRESS':
            self.move.cancel()
            self._say(context, None)
            return {'CANCELLED'}
        if (event.type == 'LEFTMOUSE' and event.value == 'RELEASE') or (
                event.type in {'RET', 'NUMPAD_ENTER'} and event.value == 'PRESS'):
            self._say(context, None)
            return {'FINISHED'}
        if event.type in _AXES and event.value == 'PRESS':
            self.axis = '' if self.axis == event.type else event.type
        if event.type in {'MOUSEMOVE', 'X', 'Y', 'Z', 'LEFT_CTRL', 'RIGHT_CTRL'}:
            dragged = drag_offset(context, self.move.start[0].to_translation(), self.mouse,
                                  (event.mouse_region_x, event.mouse_region_y))
            self.offset = constrained(dragged, self.axis, event.ctrl)
            self.move.apply(Vector(self.offset))
            along = f" along {self.axis}" if self.axis else ""
            self._say(context, f"Joint pivot: {', '.join(f'{value:+.3f}' for value in self.offset)} m{along}")
        return {'RUNNING_MODAL'}


CLASSES: tuple[type, ...] = (OMI_OT_joint_move_pivot,)
