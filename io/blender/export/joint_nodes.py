"""Joint attachment frames for export: which node carries a joint and which node it is connected to.

A joint joins two bodies. In the file, the joint node sits inside one body and its connected node inside
the other; the limits bound the connected node's frame relative to the joint node's, so the offset
between the two frames in the exported pose is part of the limits' meaning.

- A joint from the OMI settings: the joint frame is the joint object. Its own node is the joint node when
  it carries nothing else and is not scaled; otherwise a child node at the frame is added. The connected
  frame is the connected object's own (location and rotation): the settings' limits are measured between
  the joint object and the connected object, as the file's were and as the rigid body build measures
  them (it shifts linear limits by the starting offset and angular limits by the starting turn). So the
  connected object's node is the connected node, unless it is scaled: then a child node at its frame
  without the scale is added. A joint object
  outside every body finds its body through a Blender rigid body constraint on it (`object1`), as
  `adopt_constraint` leaves it; its limits came from Blender, measured from the starting pose, so its
  connected frame is the joint frame, as for the constraint itself.
- A Blender rigid body constraint: the frame is the constraint object (location and rotation), and
  Blender measures its limits from the starting pose, so both ends are at that frame: a node at the
  frame is added below each of `object1` and `object2` (the connected body's own node is used when it
  already sits at the frame).

A joint set on an object stays on that object's node (or a child of it), whichever body it is in: the
spec's examples put joints under static bodies, and an imported file keeps its structure. A joint made from
a Blender constraint, whose nodes are new anyway, goes under the dynamic body where only one side is
dynamic (ERRATA); turning a joint around negates its single-axis ranges and its drive targets, since the
motion is then seen from the other side.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass

import bpy
from mathutils import Matrix

from ...omi import model
from ..adopt import from_constraints
from ..builder import constraint_settings
from . import node_frames


@dataclass(frozen=True)
class JointSide:
    """One end of a joint: the object whose node holds the frame, the frame (world space, rigid), and
    whether the object's own node is that frame."""

    anchor: bpy.types.Object
    frame: Matrix
    reuse: bool


@dataclass(frozen=True)
class JointPlan:
    source: bpy.types.Object  # the object the joint was set on: named in messages and in new nodes
    settings: model.JointSettings
    enable_collision: bool
    joint_side: JointSide
    connected_side: JointSide
    # The joint may go to the other side: true where the joint's node is not the node of the object it was
    # set on anyway (a Blender constraint, a joint adopted from one); a joint set on an object stays with it.
    movable: bool = True


def _reversed_limit(limit: model.JointLimit) -> model.JointLimit:
    return dataclasses.replace(limit, min=None if limit.max is None else -limit.max + 0.0,
                               max=None if limit.min is None else -limit.min + 0.0)


def reversed_settings(settings: model.JointSettings) -> model.JointSettings:
    """The same joint seen from the connected side: single-axis ranges and drive targets negate.

    A limit on two or three axes bounds a distance or an angle from the other frame, which is the same
    from both sides.
    """
    limits = [_reversed_limit(limit) if len(limit.linear_axes) + len(limit.angular_axes) == 1 else limit
              for limit in settings.limits]
    drives = [dataclasses.replace(
        drive,
        position_target=None if drive.position_target is None else -drive.position_target + 0.0,
        velocity_target=None if drive.velocity_target is None else -drive.velocity_target + 0.0,
    ) for drive in settings.drives]
    return dataclasses.replace(settings, limits=tuple(limits), drives=tuple(drives))


World = Callable[[bpy.types.Object], Matrix]  # an object's world matrix


def _current(obj: bpy.types.Object) -> Matrix:
    return obj.matrix_world


def owns_node(obj: bpy.types.Object, busy: bool) -> bool:
    """Whether the object's node can be its joint's node: the spec puts a joint on a node of its own, with no
    mesh, camera, light, body or shape (`busy`: the node carries a body part)."""
    return obj.type == 'EMPTY' and not busy


def plan_from_settings(obj: bpy.types.Object, joint: model.Joint, *, owns_node: bool,
                       body_of: Callable[[bpy.types.Object], bpy.types.Object | None],
                       world: World = _current) -> JointPlan:
    """The plan of a joint set in the OMI settings of `obj`, connected to the object `joint.connected_node`.

    `owns_node`: the object's node carries nothing but the joint (`owns_node()`). `world`: the objects'
    world matrices (the import asks before Blender has evaluated them).
    """
    connected: bpy.types.Object = joint.connected_node
    own = world(obj)
    frame = node_frames.rigid(own)
    anchor = obj
    constraint = obj.rigid_body_constraint
    if body_of(obj) is None and constraint is not None and constraint.object1 is not None:
        connected_body = body_of(connected)
        other = constraint.object2 if constraint.object1 in (connected_body, connected) else constraint.object1
        anchor = other if other is not None else obj
    reuse_own = anchor is obj and owns_node and node_frames.is_rigid(own)
    # The settings' limits are measured between the joint object and the connected object's own frame (as
    # the rigid body build measures them). Adopted from a Blender constraint (`adopt_constraint`): Blender
    # measured the limits from the starting pose at the pivot, so the connected frame is the pivot too.
    at_connected = frame if anchor is not obj else node_frames.rigid(world(connected))
    return JointPlan(
        source=obj, settings=joint.settings, enable_collision=joint.enable_collision,
        joint_side=JointSide(anchor, frame, reuse_own),
        connected_side=JointSide(connected, at_connected, node_frames.coincide(world(connected), at_connected)),
        movable=anchor is not obj,
    )


def end_words(suffix: str) -> str:
    """An end of the joint in a message (`suffix`: "joint" or "connected")."""
    return "its joint" if suffix == "joint" else "its joint's connected frame"


def new_node_name(plan: JointPlan, suffix: str) -> str:
    """The name of the node added for one end of the joint (`suffix`: "joint" or "connected")."""
    return f"{plan.source.name}.{suffix}"


def why_new_node(plan: JointPlan, side: JointSide, world: World = _current) -> str:
    """Why an end of the joint gets a node of its own rather than its object's node (`side.reuse` false)."""
    own = world(side.anchor)
    if not node_frames.is_rigid(own):
        return f"{side.anchor.name!r} is scaled, and a joint frame takes no scale"
    if side is plan.joint_side and side.anchor is plan.source:
        return "a joint goes on a node of its own, without a mesh, camera, light, body or shape (spec)"
    if _turn(own, side.frame) > node_frames.TOLERANCE:
        return f"{side.anchor.name!r} is turned against the joint frame"
    return f"the origin of {side.anchor.name!r} is not the joint frame"


def _turn(a: Matrix, b: Matrix) -> float:
    """The angle (radians) between the orientations of two frames."""
    turn = a.to_quaternion().rotation_difference(b.to_quaternion())
    return 2.0 * math.atan2(math.hypot(turn.x, turn.y, turn.z), abs(turn.w))  # exact near 0, unlike acos(w)


def unexpressed_turn(plan: JointPlan) -> float | None:
    """The angle (degrees) between a settings joint's two frames at the start when Blender's build cannot
    make up for it (a turn about more than one joint axis, with angular limits or drives: the rule is
    `constraint_settings.rest_turn`); None otherwise."""
    settings = plan.settings
    if plan.movable or not (any(limit.angular_axes for limit in settings.limits)
                            or any(drive.type == "angular" for drive in settings.drives)):
        return None
    axis, angle = plan.joint_side.frame.to_quaternion().rotation_difference(
        plan.connected_side.frame.to_quaternion()).to_axis_angle()
    return None if constraint_settings.rest_turn((axis.x, axis.y, axis.z), angle) is not None else math.degrees(abs(
        math.remainder(angle, math.tau)))


def new_nodes(plan: JointPlan) -> list[tuple[str, JointSide]]:
    """The ends of the joint written on a node the scene does not have: (suffix, side)."""
    return [(suffix, side) for suffix, side in (("joint", plan.joint_side), ("connected", plan.connected_side))
            if not side.reuse]


def plan_from_constraint(obj: bpy.types.Object, joint: from_constraints.ConstraintJoint) -> JointPlan:
    """The plan of a Blender rigid body constraint on `obj` (usually an empty at the pivot)."""
    frame = node_frames.rigid(obj.matrix_world)
    return JointPlan(
        source=obj, settings=joint.settings, enable_collision=joint.enable_collision,
        joint_side=JointSide(joint.object1, frame, False),
        connected_side=JointSide(joint.object2, frame, node_frames.coincide(joint.object2.matrix_world, frame)),
    )


def oriented(plan: JointPlan, is_dynamic: Callable[[bpy.types.Object], bool]) -> JointPlan:
    """The plan with the joint on the dynamic side when only the connected side is dynamic and the joint may
    move (`JointPlan.movable`).

    The spec's text asks for a dynamic ancestor, but its own examples put joints under static bodies and
    engines join the two bodies either way (ERRATA): a joint set on an object keeps its node, so an imported
    file keeps its structure. The two frames swap with the sides, so the offset between them reverses with
    the ranges."""
    if not plan.movable or is_dynamic(plan.joint_side.anchor) or not is_dynamic(plan.connected_side.anchor):
        return plan
    # The connected object's own node may be a body's node, which cannot also carry the joint: a new node.
    joint, connected = plan.joint_side, plan.connected_side
    return dataclasses.replace(
        plan, settings=reversed_settings(plan.settings), joint_side=JointSide(connected.anchor, connected.frame, False),
        connected_side=JointSide(joint.anchor, joint.frame, joint.reuse),
    )
