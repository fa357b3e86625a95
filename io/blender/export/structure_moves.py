"""What an export of the imported scene will restructure, said at import.

Import then export keeps a file's nodes, names and extension placement; where the export must add a node
(a primitive shape on an unevenly scaled node, a joint on a node that also carries a mesh or body, a scaled
joint frame), the import report names the node, the node the export will add and why. The prediction asks
the export's own rules (`node_frames.place_shape`, `joint_nodes.plan_from_settings`) about the objects
the import made, so the two directions cannot disagree.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import bpy

from ...omi import model
from ..builder.plan import Frames
from . import joint_nodes, node_frames


def _busy(node: model.NodePhysics) -> bool:
    return node.motion is not None or node.collider is not None or node.trigger is not None


def _shape_moves(index: int, obj: bpy.types.Object, node: model.NodePhysics, frames: Frames) -> list[model.Issue]:
    found = []
    for role, part in (("collider", node.collider), ("trigger", node.trigger)):
        shape = None if part is None else part.shape
        if shape is None:
            continue
        placement = node_frames.place_shape(shape, frames.world(obj), None)  # the import sets no shape offset
        if placement is not None and placement.chain:
            name = node_frames.shape_node_name(obj.name, role)
            found.append(model.Issue(f"/nodes/{index}", f"object {obj.name!r}: an export will write its {role} on "
                                                        f"a new node {name!r}: {placement.why_new_node(shape)}",
                                     "info"))
    return found


def _joint_moves(index: int, obj: bpy.types.Object, node: model.NodePhysics,
                 objects: Mapping[int, bpy.types.Object], frames: Frames) -> list[model.Issue]:
    if node.joint is None:
        return []
    connected = objects.get(node.joint.connected_node) if isinstance(node.joint.connected_node, int) else None
    if connected is None:
        return []
    joint = dataclasses.replace(node.joint, connected_node=connected)
    plan = joint_nodes.plan_from_settings(obj, joint, owns_node=joint_nodes.owns_node(obj, _busy(node)),
                                            body_of=lambda _obj: None, world=frames.world)
    found = []
    for suffix, side in joint_nodes.new_nodes(plan):
        name, why = joint_nodes.new_node_name(plan, suffix), joint_nodes.why_new_node(plan, side, frames.world)
        found.append(model.Issue(f"/nodes/{index}", f"object {obj.name!r}: an export will write "
                                                    f"{joint_nodes.end_words(suffix)} on a new node {name!r} under "
                                                    f"{side.anchor.name!r}: {why}", "info"))
    return found


def predicted(doc: model.PhysicsDocument, objects: Mapping[int, bpy.types.Object]) -> list[model.Issue]:
    """A note (info) for each node of the imported file that an export will restructure, naming the node,
    the node the export adds and why."""
    frames = Frames()
    found: list[model.Issue] = []
    for index, node in doc.nodes.items():
        obj = objects.get(index)
        if obj is None:
            continue
        found.extend(_shape_moves(index, obj, node, frames))
        if node.joint is not None:
            found.extend(_joint_moves(index, obj, node, objects, frames))
    return found
