"""Physics on skin joints (issue #23): a Robot_skinned-like character imports as a ragdoll and simulates.

The files come from ragdoll_files.py (both dialects). Every body and joint is imported onto ragdoll parts,
no joint is held by a generated world anchor, and playing the timeline swings the arm from its hook with
the elbow inside its limit while the skinned mesh's evaluated vertices stay on their bones.
"""

from __future__ import annotations

import json
import math

import bpy
import export_support
import import_support
import omi_core.cli.validate_file
import omi_core.write.dialect_convert
import pytest
import ragdoll_files
from mathutils import Vector

FRAMES = 90
VERTEX_TOLERANCE = 1e-3  # m: rigid skinning on a bone that copies its part exactly
LIMIT_TOLERANCE = 0.05  # rad: Bullet's soft limit overshoots a little on the first swing


@pytest.fixture(params=["OMI", "KHR"])
def character(request, tmp_path, omi_addon):
    path = ragdoll_files.write(tmp_path, request.param)
    return path, import_support.import_gltf(path)


def _joint_bodies(joint_name: str) -> set[str]:
    joint = bpy.data.objects[joint_name]
    made = import_support.constraints_of(joint)
    assert len(made) == 1, f"{joint_name}: {[obj.name for obj in made]}"
    constraint = made[0].rigid_body_constraint
    return {constraint.object1.name, constraint.object2.name}


def test_every_body_and_joint_imported_on_ragdoll_parts(character, markers):
    _path, imported = character
    assert not imported.failures
    assert not [text for text in imported.warnings if "not imported" in text or "not found" in text]
    parts = {obj.name: obj for obj in bpy.data.objects if markers.BONE_PART in obj}
    assert set(parts) == {"Upper", "Lower"}
    for name in ("Upper", "Lower"):
        assert parts[name].rigid_body is not None and parts[name].rigid_body.type == 'ACTIVE'
        assert parts[name].omi_physics.use_motion and parts[name].omi_physics.motion.motion_type == 'DYNAMIC'
    assert parts["Upper"].omi_physics.motion.mass == pytest.approx(2.0)
    assert bpy.data.objects["UpperShape"].parent == parts["Upper"]  # the compound's collider under its body
    assert _joint_bodies("HookJoint") == {"Hook", "Upper"}
    assert _joint_bodies("ElbowJoint") == {"Upper", "Lower"}
    anchors = [obj.name for obj in bpy.data.objects if obj.get(markers.GENERATED) == markers.ANCHOR]
    assert anchors == []
    arm = bpy.data.objects["Character"]
    for bone in ("Upper", "Lower"):
        follow = arm.pose.bones[bone].constraints["OMI ragdoll"]
        assert follow.type == 'COPY_TRANSFORMS' and follow.target.parent == parts[bone]
    reported = [text for text in imported.notes if "ragdoll part" in text]
    assert len(reported) == 2, imported.notes


def _rest_locals(path) -> list[tuple[str, Vector]]:
    """Each vertex of the tube in its bone's node frame, from the file (bone by ring)."""
    document = json.loads(path.read_text())
    worlds = import_support.world_matrices(document)
    positions, joints, _indices = ragdoll_files._tube()
    names = ("Upper", "Lower")
    to_blender = import_support.TO_BLENDER
    return [(names[joint], worlds[ragdoll_files.BONE_NODES[names[joint]]].inverted() @ (to_blender @ Vector(p)))
            for p, joint in zip(positions, joints, strict=True)]


def test_simulated_character_swings_within_limits_and_skin_follows(character):
    path, _imported = character
    scene = bpy.context.scene
    scene.frame_start, scene.frame_end = 1, FRAMES
    upper, lower = bpy.data.objects["Upper"], bpy.data.objects["Lower"]
    start_lower = lower.matrix_world.translation.copy()
    pivot = upper.matrix_world.translation.copy()
    elbow = []
    for frame in range(1, FRAMES + 1):
        scene.frame_set(frame)
        angle = import_support.rotation_angle(upper.matrix_world, lower.matrix_world)
        elbow.append(min(angle, math.tau - angle))  # a quaternion difference may take the long way round
    assert (lower.matrix_world.translation - start_lower).length > 1.0  # it fell and swung
    assert (upper.matrix_world.translation - pivot).length < 0.02  # held on the hook's pin
    assert max(elbow) <= ragdoll_files.ELBOW_LIMIT + LIMIT_TOLERANCE
    assert max(elbow) > 0.05  # the elbow did bend
    depsgraph = bpy.context.evaluated_depsgraph_get()
    skinned = bpy.data.objects["Arm"].evaluated_get(depsgraph)
    mesh = skinned.to_mesh()
    try:
        errors = [((skinned.matrix_world @ vertex.co) - bpy.data.objects[bone].matrix_world @ local).length
                  for vertex, (bone, local) in zip(mesh.vertices, _rest_locals(path), strict=True)]
    finally:
        skinned.to_mesh_clear()
    assert max(errors) < VERTEX_TOLERANCE


def test_kinematic_bone_part_rides_on_its_animated_bone(tmp_path, omi_addon, canonical, markers):
    document = ragdoll_files.omi_document()
    document["nodes"][ragdoll_files.UPPER]["extensions"]["OMI_physics_body"]["motion"] = {"type": "kinematic"}
    path = import_support.write_gltf(tmp_path, "kinematic_upper", document)
    imported = import_support.import_gltf(path)
    assert [text for text in imported.notes if "moves with the animated bone" in text]
    arm, upper = bpy.data.objects["Character"], bpy.data.objects["Upper"]
    assert (upper.parent, upper.parent_type, upper.parent_bone) == (arm, 'BONE', "Upper")
    assert upper.rigid_body.kinematic and "OMI ragdoll" not in arm.pose.bones["Upper"].constraints
    start = upper.matrix_world.copy()
    bpy.context.view_layer.update()
    assert (upper.matrix_world.translation - start.translation).length < 1e-5  # parenting kept it in place
    bone = arm.pose.bones["Upper"]
    bone.location = (0.0, 0.0, 0.5)  # along the bone's local Z: the part follows
    bpy.context.view_layer.update()
    assert (upper.matrix_world.translation - start.translation).length == pytest.approx(0.5, abs=1e-4)
    bone.location = (0.0, 0.0, 0.0)
    bpy.context.view_layer.update()
    exported = export_support.export(tmp_path, "kinematic_back").gltf
    assert canonical.diff_physics(document, exported) == []


@pytest.mark.parametrize("dialect", ["OMI", "KHR"])
def test_validate_names_the_physics_on_skin_joints(tmp_path, omi, dialect):
    path = ragdoll_files.write(tmp_path, dialect)
    result = omi_core.cli.validate_file.validate_one((str(path), None))
    named = {item["pointer"]: item for item in result["issues"] if "joint of skin" in item["message"]}
    assert set(named) == {f"/nodes/{index}" for index in ragdoll_files.BONE_NODES.values()}
    assert all(item["severity"] == "warning" for item in named.values())
    assert result["errors"] == 0


@pytest.mark.parametrize("dialect", ["OMI", "KHR"])
def test_a_joint_connected_to_a_plain_child_of_a_bone_holds_that_bone_s_body(tmp_path, omi_addon, markers, dialect):
    """Robot_skinned's joints connect to a frame node under the other body's bone node (jointSpaceB), not to the
    bone node itself: the frame moves with the ragdoll part, so the elbow holds Upper to Lower (it held Upper
    to a generated world anchor, without a word)."""
    document = ragdoll_files.omi_document()
    frame = len(document["nodes"])
    document["nodes"].append({"name": "ElbowFrame", "translation": [0.0, 0.0, 0.0]})
    document["nodes"][ragdoll_files.LOWER]["children"] = [frame]
    document["nodes"][ragdoll_files.ELBOW]["extensions"]["OMI_physics_joint"]["connectedNode"] = frame
    if dialect == "KHR":
        document = omi_core.write.dialect_convert.convert(document, "KHR").document
    path = tmp_path / "frame_child.gltf"
    path.write_text(json.dumps(document))
    import_support.import_gltf(path)
    assert _joint_bodies("ElbowJoint") == {"Upper", "Lower"}
    assert [obj.name for obj in bpy.data.objects if obj.get(markers.GENERATED) == markers.ANCHOR] == []
    assert bpy.data.objects["ElbowFrame"].parent == bpy.data.objects["Lower"]
