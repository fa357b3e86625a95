"""Physics on a skin's joint nodes, named for `validate` (no bpy here).

glTF lets a body, shape or joint sit on a node that is also a joint of a skin (the Khronos sample
Robot_skinned does), and an engine meant to read the file moves the bone with the body. A reader that
makes skin joints into the bones of a skeleton has no rigid body on a bone to put it on: Blender's
importer does that (this add-on turns such physics into ragdoll parts, io/blender/bones), and other
readers may drop it. So each such node is named once, with the physics it carries.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..json_types import pointer
from ..model import Issue, NodePhysics

KIND = "physics_on_skin_joint"


def _carried(physics: NodePhysics) -> list[str]:
    parts = [("body", physics.motion), ("collider", physics.collider), ("trigger", physics.trigger),
             ("joint", physics.joint)]
    return [name for name, part in parts if part is not None]


def skin_joints(document: Mapping[str, Any]) -> dict[int, int]:
    """Node index -> the first skin that lists it among its joints."""
    found: dict[int, int] = {}
    skins = document.get("skins")
    for skin_index, skin in enumerate(skins if isinstance(skins, list) else []):
        joints = skin.get("joints") if isinstance(skin, dict) else None
        for joint in joints if isinstance(joints, list) else []:
            if isinstance(joint, int) and not isinstance(joint, bool):
                found.setdefault(joint, skin_index)
    return found


def check(document: Mapping[str, Any], physics: Iterable[Mapping[int, NodePhysics]]) -> list[Issue]:
    """A warning per skin joint node carrying physics (`physics`: each dialect's nodes as read)."""
    joints = skin_joints(document)
    if not joints:
        return []
    carried: dict[int, list[str]] = {}
    for nodes in physics:
        for index, node in nodes.items():
            if index in joints:
                carried.setdefault(index, [])
                carried[index] += [part for part in _carried(node) if part not in carried[index]]
    return [Issue(pointer("nodes", index), f"{' and '.join(parts)} on a joint of skin {joints[index]}: a reader that "
                  "makes skin joints into bones may not support physics there (Blender's importer makes a bone of "
                  "it; this add-on imports it as a ragdoll part that the bone follows)", "warning", KIND)
            for index, parts in sorted(carried.items()) if parts]
