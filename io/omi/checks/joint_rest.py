"""Joints whose bodies start outside their own limits, found from the file alone (no bpy here).

A limit keeps the connected node's frame within [min, max] of the joint node's frame. When the file
places the connected node outside that range, engines pull the bodies together on the first step (Blender's
Bullet does the same: its build shifts the limits by the starting offset), so the scene jumps as it starts.
Each such limit is a warning at the joint node, naming the connected node, the limit's axes, how far it
starts and how far beyond the range that is.

How a limit measures the two frames is the spec's (KHR_physics_rigid_bodies, "Joint Limit Metrics"; OMI
says the same in words), with t_a, q_a the joint node's world position and orientation and t_b, q_b the
connected node's, and the axes those of the joint frame:
one linear axis i: the offset along it; two: the distance from the remaining axis; three: the distance;
one angular axis i: the signed twist about it of q_a* q_b; two: the angle between the frames' remaining
axes; three: the whole angle of q_a* q_b.
"""

from __future__ import annotations

import math
from typing import Any

from .. import conventions, node_poses
from ..json_types import pointer
from ..model import Issue, JointLimit, PhysicsDocument, Vec3
from ..node_poses import Pose
from . import gltf_structure

LINEAR_TOLERANCE = 1e-4  # metres: closer than this is "at the limit" (numbers written to a file wobble)
ANGULAR_TOLERANCE = math.radians(0.01)
PULLED = "physics engines (Blender's too) pull the bodies there on the first step"


def check(document: Any, doc: PhysicsDocument) -> list[Issue]:
    """A warning for each limit whose joint starts outside it, in node order."""
    joints = {index: node.joint for index, node in sorted(doc.nodes.items()) if node.joint is not None
              and isinstance(node.joint.connected_node, int)}
    nodes = document.get("nodes") if isinstance(document, dict) else None
    if not joints or not isinstance(nodes, list):
        return []
    links, _dropped = gltf_structure.node_tree(nodes)
    parent = {child: owner for child, (owner, _position) in links.items()}
    wanted = [index for pair in ((joint_index, joint.connected_node) for joint_index, joint in joints.items())
              for index in pair if 0 <= index < len(nodes)]
    poses = node_poses.world_poses(nodes, parent, wanted)
    issues: list[Issue] = []
    for index, joint in joints.items():
        if index not in poses or joint.connected_node not in poses:
            continue
        name = _name(nodes, joint.connected_node)
        for limit in joint.settings.limits:
            for angular, axes in ((False, limit.linear_axes), (True, limit.angular_axes)):
                said = _outside(limit, angular, axes, poses[index], poses[joint.connected_node])
                if said:
                    issues.append(Issue(pointer("nodes", index), f"the connected node {name} starts {said}; {PULLED}"))
    return issues


def _name(nodes: list[Any], index: int) -> str:
    node = nodes[index]
    name = node.get("name") if isinstance(node, dict) else None
    return repr(name) if isinstance(name, str) and name else f"{index}"


def measure(angular: bool, axes: tuple[int, ...], joint: Pose, connected: Pose) -> float:
    """The spec's metric of a limit on these axes between the joint frame and the connected frame
    (metres, or radians)."""
    if angular:
        relative = node_poses.multiply(node_poses.conjugate(joint.rotation), connected.rotation)
        if len(axes) == 1:
            twist = relative[axes[0]]
            angle = 2.0 * math.atan2(twist, relative[3])
            return (angle + math.pi) % (2.0 * math.pi) - math.pi  # the shorter way round, signed
        if len(axes) == 2:
            free = _remaining(axes)
            axis = _unit(free)
            along = node_poses.rotate(relative, axis)
            return math.acos(max(-1.0, min(1.0, along[free])))
        return 2.0 * math.acos(max(-1.0, min(1.0, abs(relative[3]))))
    world = tuple(b - a for a, b in zip(joint.translation, connected.translation, strict=True))
    offset = node_poses.rotate(node_poses.conjugate(joint.rotation), (world[0], world[1], world[2]))
    if len(axes) == 1:
        return offset[axes[0]]
    return math.sqrt(sum(offset[axis] ** 2 for axis in axes))


def _outside(limit: JointLimit, angular: bool, axes: tuple[int, ...], joint: Pose, connected: Pose) -> str:
    """How the connected frame starts outside this limit, in words ("" when inside)."""
    if not axes or len(set(axes)) != len(axes) or not all(0 <= axis < 3 for axis in axes):
        return ""
    value = measure(angular, axes, joint, connected)
    tolerance = ANGULAR_TOLERANCE if angular else LINEAR_TOLERANCE
    if limit.max is not None and value > limit.max + tolerance:
        bound, excess, side = limit.max, value - limit.max, "max"
    elif limit.min is not None and value < limit.min - tolerance:
        bound, excess, side = limit.min, limit.min - value, "min"
    else:
        return ""
    show = _degrees if angular else _metres
    return f"{_where(angular, axes, show(value))}, {show(excess)} beyond the limit's {side} {show(bound)}"


def _where(angular: bool, axes: tuple[int, ...], value: str) -> str:
    names = [conventions.axis_name(axis) for axis in axes]
    if len(axes) == 1:
        return f"turned {value} about the joint's {names[0]} axis" if angular else \
            f"{value} along the joint's {names[0]} axis"
    if len(axes) == 2:
        free = conventions.axis_name(_remaining(axes))
        return f"with its {free} axis {value} away from the joint's" if angular else \
            f"{value} from the joint's {free} axis (the limit on {' and '.join(names)})"
    return f"turned {value} from the joint frame" if angular else f"{value} from the joint frame's origin"


def _remaining(axes: tuple[int, ...]) -> int:
    return ({0, 1, 2} - set(axes)).pop()


def _unit(axis: int) -> Vec3:
    return (1.0 if axis == 0 else 0.0, 1.0 if axis == 1 else 0.0, 1.0 if axis == 2 else 0.0)


def _metres(value: float) -> str:
    return f"{value:.4g} m"


def _degrees(value: float) -> str:
    return f"{math.degrees(value):.3g}°"
