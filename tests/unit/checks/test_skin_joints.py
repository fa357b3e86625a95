"""io/omi/checks/skin_joints: `validate` names physics on a skin's joint nodes, in both dialects, once per node.
Pure: runs without bpy."""

from __future__ import annotations

from typing import Any

from omi_core.checks import skin_joints
from omi_core.read import reader
from omi_core.targets.godot import engine_form
from omi_core.write import dialect_convert

BODY = {"OMI_physics_body": {"motion": {"type": "dynamic"}, "collider": {"shape": 0}}}
SHAPES = {"OMI_physics_shape": {"shapes": [{"type": "sphere", "sphere": {"radius": 0.2}}]}}


def document(extensions: dict[int, Any] | None = None) -> dict[str, Any]:
    """A skin of two joints (nodes 1 and 2) under a root, a mesh node 3, an ordinary body node 4."""
    nodes: list[dict[str, Any]] = [
        {"name": "Root", "children": [1, 3]}, {"name": "Upper", "children": [2]}, {"name": "Lower"},
        {"name": "Skinned", "skin": 0}, {"name": "Crate", "extensions": BODY}]
    for index, content in (extensions or {}).items():
        nodes[index]["extensions"] = content
    return {"asset": {"version": "2.0"}, "extensionsUsed": ["OMI_physics_body", "OMI_physics_shape"],
            "extensions": SHAPES, "nodes": nodes, "skins": [{"joints": [1, 2]}], "scenes": [{"nodes": [0, 4]}]}


def said(gltf: dict[str, Any], dialect: str | None = None) -> list[tuple[str, str]]:
    nodes = reader.read_document(gltf, dialect).nodes
    return [(found.pointer, found.message) for found in skin_joints.check(gltf, [nodes])]


def test_physics_on_skin_joints_is_named_per_node() -> None:
    found = said(document({1: BODY, 2: {"OMI_physics_body": {"collider": {"shape": 0}}}}))
    assert [pointer for pointer, _ in found] == ["/nodes/1", "/nodes/2"]
    assert found[0][1].startswith("body and collider on a joint of skin 0: a reader that makes skin joints into bones")
    assert found[1][1].startswith("collider on a joint of skin 0")


def test_physics_off_the_skeleton_says_nothing() -> None:
    assert said(document()) == []  # the crate is no skin joint
    assert said({**document({1: BODY}), "skins": []}) == []


def test_khr_physics_on_a_skin_joint_is_named_too() -> None:
    converted = dialect_convert.convert(document({2: BODY}), "KHR").document
    assert [pointer for pointer, _ in said(converted, "KHR")] == ["/nodes/2"]


def test_the_godot_target_says_a_bone_will_not_follow_its_body() -> None:
    """Measured with Godot 4.6.3 on an exported character: each skin joint's body became a RigidBody3D under a
    BoneAttachment3D; after 48 physics frames the bodies had fallen 3.2 m while the attachments and the skin
    stayed where they were."""
    gltf = document({1: BODY, 2: {"OMI_physics_body": {"motion": {"type": "kinematic"}}}})
    said_godot = [found.message for found in engine_form.godot_form(gltf).issues]
    following = [message for message in said_godot if "bones following their bodies" in message]
    assert len(following) == 1 and "'Upper'" in following[0] and "'Lower'" not in following[0]  # kinematic: no
    assert not [found for found in engine_form.godot_form(document()).issues
                if "bones following" in found.message]
