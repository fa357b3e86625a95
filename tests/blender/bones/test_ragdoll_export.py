"""Physics on skin joints (issue #23): import then export writes it back on the same joint nodes.

The character of ragdoll_files.py is imported (its bone physics becomes ragdoll parts) and exported in the
same dialect: the physics compares equal node by node path (io.omi.checks.canonical), it sits on the
skin's joint nodes, and neither the parts nor the bones' target empties become nodes of their own.
"""

from __future__ import annotations

import json
from pathlib import Path

import bpy
import export_support
import import_support
import pytest
import ragdoll_files
from mathutils import Vector

pytestmark = pytest.mark.usefixtures("omi_addon")

PHYSICS = {"OMI": "OMI_physics_body", "KHR": "KHR_physics_rigid_bodies"}


def _joint_nodes(gltf: dict) -> dict[str, dict]:
    nodes = gltf["nodes"]
    return {nodes[index]["name"]: nodes[index] for skin in gltf.get("skins", []) for index in skin["joints"]}


@pytest.mark.parametrize("dialect", ["OMI", "KHR"])
def test_import_then_export_keeps_the_physics_on_the_joint_nodes(tmp_path, canonical, dialect):
    original = ragdoll_files.document(dialect)
    path = ragdoll_files.write(tmp_path, dialect)
    import_support.import_gltf(path)
    bpy.context.scene.omi_physics.export_dialect = dialect
    exported = export_support.export(tmp_path, "first", check=dialect == "OMI")
    assert not [text for text in exported.messages if "outside it" in text]
    first = exported.gltf
    assert canonical.diff_physics(original, first) == []
    joints = _joint_nodes(first)
    assert set(joints) == {"Upper", "Lower"}
    for name in ("Upper", "Lower"):
        assert "motion" in joints[name]["extensions"][PHYSICS[dialect]], name
    assert sorted(node["name"] for node in first["nodes"]) == sorted(node["name"] for node in original["nodes"])

    import_support.import_gltf(exported.path)  # and once more: stable
    bpy.context.scene.omi_physics.export_dialect = dialect
    again = export_support.export(tmp_path, "second", check=dialect == "OMI").gltf
    assert canonical.diff_physics(first, again) == []


def test_import_without_rigid_bodies_keeps_the_rig_for_export(tmp_path, canonical):
    original = ragdoll_files.document("OMI")
    import_support.import_gltf(ragdoll_files.write(tmp_path, "OMI"), rigid_bodies=False)
    bpy.context.scene.omi_physics.export_dialect = 'OMI'
    exported = export_support.export(tmp_path, "settings_only").gltf
    assert canonical.diff_physics(original, exported) == []


def _hand_made_rig() -> None:
    """The common hand-made rig: bone A has Child Of to a rigid-body cube at its middle, bone B copies the
    transforms of a cube at its own frame; a Blender hinge constraint between the cubes at B's head."""
    bpy.ops.wm.read_homefile(use_empty=True)
    data = bpy.data.armatures.new("Rig")
    armature = bpy.data.objects.new("Rig", data)
    bpy.context.scene.collection.objects.link(armature)
    bpy.context.view_layer.objects.active = armature
    bpy.ops.object.mode_set(mode='EDIT')
    bone_a = data.edit_bones.new("A")
    bone_a.head, bone_a.tail = (0.0, 0.0, 1.0), (1.0, 0.0, 1.0)
    bone_b = data.edit_bones.new("B")
    bone_b.head, bone_b.tail = (1.0, 0.0, 1.0), (2.0, 0.0, 1.0)
    bone_b.parent = bone_a
    bpy.ops.object.mode_set(mode='OBJECT')
    bpy.context.view_layer.update()
    cube_a = export_support.mesh_object("CubeA", location=(0.5, 0.0, 1.0))
    cube_b = export_support.mesh_object("CubeB")
    cube_b.matrix_world = armature.matrix_world @ armature.pose.bones["B"].matrix
    for cube in (cube_a, cube_b):
        export_support.add_rigid_body(cube)
    bpy.context.view_layer.update()
    child_of = armature.pose.bones["A"].constraints.new('CHILD_OF')
    child_of.target = cube_a
    child_of.inverse_matrix = cube_a.matrix_world.inverted()
    armature.pose.bones["B"].constraints.new('COPY_TRANSFORMS').target = cube_b
    export_support.add_constraint("Hinge", 'HINGE', cube_a, cube_b, location=(1.0, 0.0, 1.0))
    bpy.context.view_layer.update()


def test_hand_made_rig_writes_the_bodies_on_the_bone_nodes(tmp_path):
    _hand_made_rig()
    cube_a, cube_b = bpy.data.objects["CubeA"], bpy.data.objects["CubeB"]
    exported = export_support.export(tmp_path, "hand_made").gltf
    nodes = exported["nodes"]
    names = [node["name"] for node in nodes]
    assert "CubeA" not in names and "CubeB" not in names
    worlds = import_support.world_matrices(exported)
    index = {node["name"]: position for position, node in enumerate(nodes)}
    joints = {bone: nodes[index[bone]] for bone in ("A", "B")}
    for bone, cube in (("A", cube_a), ("B", cube_b)):
        body = joints[bone]["extensions"]["OMI_physics_body"]
        assert body["motion"]["type"] == "dynamic"
        collider_node = index[bone] if "collider" in body else next(
            child for child in joints[bone].get("children", []) if "collider" in
            nodes[child].get("extensions", {}).get("OMI_physics_body", {}))
        # the shape sits where the cube is, whatever frame the bone's node has
        assert (worlds[collider_node].translation - cube.matrix_world.translation).length < 1e-4, bone
    joint_nodes = [position for position, node in enumerate(nodes) if "OMI_physics_joint" in node.get("extensions", {})]
    assert len(joint_nodes) == 1
    joint_node = joint_nodes[0]
    connected = nodes[joint_node]["extensions"]["OMI_physics_joint"]["connectedNode"]
    for end in (joint_node, connected):
        assert (worlds[end].translation - bpy.data.objects["Hinge"].matrix_world.translation).length < 1e-4
    parents = {child: parent for parent, node in enumerate(nodes) for child in node.get("children", [])}

    def body_of(node: int) -> int:
        while "motion" not in nodes[node].get("extensions", {}).get("OMI_physics_body", {}):
            node = parents[node]
        return node

    assert {body_of(joint_node), body_of(connected)} == {index["A"], index["B"]}


def test_a_shape_on_a_skin_joint_under_a_body_bone_stays_on_its_joint_node(tmp_path, canonical):
    """A collider alone on a skin joint (Tip) belongs to the body of the bone above it (Lower): a compound
    collider of Lower's part in Blender, and back on Tip's own node in the export."""
    document = ragdoll_files.omi_document()
    nodes = document["nodes"]
    nodes.append({"name": "Tip", "translation": [0.0, 1.0, 0.0],
                  "extensions": {"OMI_physics_body": {"collider": {"shape": 2}}}})
    nodes[ragdoll_files.LOWER]["children"] = [len(nodes) - 1]
    document["skins"][0]["joints"].append(len(nodes) - 1)
    del document["skins"][0]["inverseBindMatrices"]  # identity for all three: the skin is not what is tested
    path = import_support.write_gltf(tmp_path, "tip", document)
    import_support.import_gltf(path)
    tip = bpy.data.objects["Tip"]
    assert tip.parent == bpy.data.objects["Lower"]  # a shape of the Lower body
    exported = export_support.export(tmp_path, "tip_back").gltf
    assert canonical.diff_physics(document, exported) == []
    assert sorted(node["name"] for node in exported["nodes"]) == sorted(node["name"] for node in nodes)


def test_a_joint_connected_to_a_bare_skin_joint_holds_there(tmp_path, canonical):
    """A skin joint without physics (Tip, at the end of the arm) as a joint's connected node: the arm's end is
    pinned to a post, in Blender and again in the export."""
    document = ragdoll_files.omi_document()
    nodes = document["nodes"]
    tip, post, pin = len(nodes), len(nodes) + 1, len(nodes) + 2
    nodes += [{"name": "Tip", "translation": [0.0, 1.0, 0.0]},
              {"name": "Post", "translation": [2.0, 3.0, 0.0], "children": [pin],
               "extensions": {"OMI_physics_body": {"motion": {"type": "static"}, "collider": {"shape": 0}}}},
              {"name": "TipPin", "extensions": {"OMI_physics_joint": {"connectedNode": tip, "joint": 0}}}]
    nodes[ragdoll_files.LOWER]["children"] = [tip]
    document["skins"][0]["joints"].append(tip)
    del document["skins"][0]["inverseBindMatrices"]
    document["scenes"][0]["nodes"].append(post)
    imported = import_support.import_gltf(import_support.write_gltf(tmp_path, "pinned", document))
    assert not [text for text in imported.warnings if "not found" in text or "connected to nothing" in text]
    made = import_support.constraints_of(bpy.data.objects["TipPin"])
    assert len(made) == 1
    assert {made[0].rigid_body_constraint.object1.name, made[0].rigid_body_constraint.object2.name} == {"Post", "Lower"}
    scene = bpy.context.scene
    scene.frame_start, scene.frame_end = 1, 48
    for frame in range(1, 49):
        scene.frame_set(frame)
    assert (bpy.data.objects["Tip"].matrix_world.translation - Vector((2.0, 0.0, 3.0))).length < 0.02  # held
    exported = export_support.export(tmp_path, "pinned_back").gltf
    assert canonical.diff_physics(document, exported) == []


def _robot_like(tmp_path) -> Path:
    """Robot_skinned's layout: the bodies sit on the nodes between the armature and the skin joints (bones
    that are no joints), each with a convex hull, one of an orphan node's mesh (KHR `geometry.node`), one of
    the body node's own mesh."""
    document = ragdoll_files.omi_document()
    buffers = {key: document[key] for key in ("buffers", "bufferViews", "accessors", "meshes", "skins")}
    buffers["meshes"].append({"name": "Hull", "primitives": [{"attributes": {"POSITION": 0}, "indices": 3}]})
    buffers["skins"] = [{"joints": [3, 5], "inverseBindMatrices": 4}]
    body = "KHR_physics_rigid_bodies"

    def hull(node: int) -> dict:
        return {body: {"motion": {"mass": 1.0}, "collider": {"geometry": {"convexHull": True, "node": node}}}}

    nodes = [{"name": "Armature", "children": [1, 2]},
             {"name": "BodyRB", "translation": [0.0, 3.0, 0.0], "children": [3], "extensions": hull(6)},
             {"name": "Head", "translation": [3.0, 3.0, 0.0], "mesh": 1, "children": [5], "extensions": hull(7)},
             {"name": "Bone"}, {"name": "Arm", "mesh": 0, "skin": 0}, {"name": "BoneB"},
             {"name": "BodyHullData", "mesh": 1}, {"name": "HeadHullData", "mesh": 1}]
    document = {"asset": {"version": "2.0"}, "extensionsUsed": [body], "nodes": nodes,
                "scenes": [{"nodes": [0, 4]}], "scene": 0, **buffers}
    path = Path(tmp_path) / "robot_like.gltf"
    path.write_text(json.dumps(document))
    return path


def test_bodies_on_bones_between_armature_and_joints_keep_their_hulls(tmp_path):
    """Both hull colliders come back (they were written without a collider: the importer moves a bone's mesh to
    an object of its own, and the ragdoll part's stand-in mesh has no triangles)."""
    imported = import_support.import_gltf(_robot_like(tmp_path))
    assert not imported.failures
    bpy.context.scene.omi_physics.export_dialect = "KHR"
    try:
        exported = export_support.export(tmp_path, "robot_out", check=False)
    finally:
        bpy.context.scene.omi_physics.export_dialect = "OMI"
    bodies = {node["name"]: node["extensions"][PHYSICS["KHR"]] for node in exported.gltf["nodes"]
              if "motion" in node.get("extensions", {}).get(PHYSICS["KHR"], {})}
    assert set(bodies) == {"BodyRB", "Head"}
    for name, physics in bodies.items():
        geometry = physics.get("collider", {}).get("geometry", {})
        assert geometry.get("convexHull") is True and isinstance(geometry.get("mesh"), int), (name, physics)
    assert not [message for message in exported.messages if "no triangles" in message], exported.messages
