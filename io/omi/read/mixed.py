"""A file that holds OMI physics and KHR physics: both are read, node by node.

Tools write both for different engines (the add-on's own "both" target puts both on every node), and a
level can be assembled from parts made by different tools (OMI on one node, KHR on the floor). Reading
only one dialect would drop the other's bodies, so each node keeps the physics of the dialect it has.
Where one node carries both, OMI wins: it is the add-on's home dialect and holds what KHR cannot say
(triggers' compound form, gravity); the KHR copy is compared, and a copy that means something else is
named, since an engine that reads KHR would build something different from what Blender imports.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from ..json_types import array_index
from ..model import ZERO3, Collider, Issue, Motion, NodePhysics, PhysicsDocument, Trigger

ReadOne = Callable[[Mapping[str, Any], str], PhysicsDocument]


def _node_of(pointer: str) -> int | None:
    """The node index a pointer into /nodes/N/... names, else None."""
    parts = pointer.split("/")
    return array_index(parts[2]) if len(parts) > 2 and parts[1] == "nodes" else None


STILL = Motion(type="static")


def _meaning(physics: NodePhysics) -> tuple[object, ...]:
    motion = physics.motion
    if motion is not None and motion.center_of_mass is None:  # KHR's "the engine computes it": OMI cannot say
        motion = replace(motion, center_of_mass=ZERO3)  # so, its nearest is its absent key (the origin)
    return motion, physics.collider, physics.trigger, physics.joint, physics.gravity


def _compared(physics: NodePhysics) -> tuple[object, ...]:
    """What two copies of one node must agree on: OMI's bare static motion is KHR's collider without motion
    (a static body in both), so it compares as no motion; a height left to the default is that height."""
    motion = _meaning(physics)[0]
    return (None if motion == STILL else motion), _height_filled(physics.collider), \
        _height_filled(physics.trigger), physics.joint, physics.gravity


def _height_filled(part: Collider | Trigger | None) -> Collider | Trigger | None:
    shape = part.shape if part is not None else None
    if part is None or shape is None or shape.height is not None:
        return part
    return replace(part, shape=replace(shape, height=shape.effective_height))


def _with_physics(doc: PhysicsDocument) -> set[int]:
    """The nodes a read found physics on (a reader may leave an empty entry for a node it looked at)."""
    return {index for index, physics in doc.nodes.items() if any(part is not None for part in _meaning(physics))}


def _name(gltf: Mapping[str, Any], index: int) -> str:
    nodes = gltf.get("nodes")
    node = nodes[index] if isinstance(nodes, list) and index < len(nodes) else None
    name = node.get("name") if isinstance(node, Mapping) else None
    return f"node {index} '{name}'" if isinstance(name, str) and name else f"node {index}"


def read_both(gltf: Mapping[str, Any], read_one: ReadOne, home: str, other: str) -> PhysicsDocument:
    """The physics of a document holding two dialects: `home`'s nodes, plus `other`'s nodes that `home`
    says nothing about; a warning per node whose two copies differ, one info line for those that agree."""
    doc = read_one(gltf, home)
    second = read_one(gltf, other)
    shared = _with_physics(doc) & _with_physics(second)
    added = sorted(_with_physics(second) - _with_physics(doc))
    both = overlaps(gltf, doc, second, home, other)  # before the other's nodes join
    for index in added:
        doc.nodes[index] = second.nodes[index]
    seen = set(doc.issues)  # the node tree's findings are made by both reads
    doc.issues.extend(issue for issue in second.issues if _node_of(issue.pointer) not in shared and issue not in seen)
    doc.revisions |= second.revisions
    for extension, unknown in second.unknown.items():
        doc.unknown.setdefault(extension, unknown)
    if added:
        doc.issues.append(Issue("/extensions", f"the file holds both {home} and {other} physics: both are read "
                                               f"({len(added)} node(s) have {other} physics only)", "info"))
    doc.issues.extend(both)
    return doc


def overlaps(gltf: Mapping[str, Any], first: PhysicsDocument, second: PhysicsDocument, home: str,
             other: str) -> list[Issue]:
    """What `read_both` says of the nodes both reads found physics on (`validate` reads each dialect whole
    and adds these): a warning per node whose two copies differ, one info line for those that agree."""
    shared = sorted(_with_physics(first) & _with_physics(second))
    differ = [index for index in shared if _compared(first.nodes[index]) != _compared(second.nodes[index])]
    found = []
    if len(shared) > len(differ):
        found.append(Issue("/nodes", f"{len(shared) - len(differ)} node(s) carry both {home} and {other} physics "
                                     f"that say the same: the {home} physics is read", "info"))
    found += [Issue(f"/nodes/{index}/extensions",
                    f"{_name(gltf, index)} carries both {home} and {other} physics that differ: the {home} physics "
                    f"is read and the {other} copy is ignored (an engine that reads {other} builds this node "
                    f"differently)") for index in differ]
    return found
