"""The glTF import dialog's OMI options, GLB files, files that require the OMI extensions, rebuilding and
clearing the Blender rigid bodies, and a hook that fails."""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any

import bpy
import import_support as support
import pytest
import schema_check

pytestmark = pytest.mark.usefixtures("omi_addon")

JOINT_EXAMPLE = Path("OMI_physics_joint") / "examples" / "weld_joint.gltf"




def test_physics_off_imports_plain_gltf(spec_dir):
    imported = support.import_gltf(spec_dir / JOINT_EXAMPLE, physics=False)
    assert imported.result == {'FINISHED'} and imported.warnings == []
    assert not any(obj.omi_physics.has_physics or obj.rigid_body for obj in bpy.context.scene.objects)
    assert imported.obj("BodyA").type == 'EMPTY'  # nodes stay what the file makes them
    assert bpy.context.scene.rigidbody_world is None


def test_rigid_bodies_off_keeps_only_the_settings(spec_dir):
    imported = support.import_gltf(spec_dir / JOINT_EXAMPLE, rigid_bodies=False)
    body = imported.obj("BodyA")
    assert body.omi_physics.use_motion and body.type == 'EMPTY' and body.rigid_body is None
    assert imported.obj("WeldJoint").omi_physics.joint.connected_object == imported.obj("BodyBJointAttachment")
    assert not any(obj.rigid_body or obj.rigid_body_constraint for obj in bpy.context.scene.objects)


def test_file_that_requires_the_omi_extensions_imports(spec_dir, tmp_path):
    gltf = schema_check.load_gltf(spec_dir / "OMI_physics_body" / "examples" / "basic" / "dynamic_box.gltf")
    gltf["extensionsRequired"] = ["OMI_physics_body", "OMI_physics_shape"]
    imported = support.import_gltf(support.write_gltf(tmp_path, "required", gltf))
    assert imported.result == {'FINISHED'}
    assert imported.obj("DynamicBox").rigid_body.type == 'ACTIVE'


def _glb(gltf: dict, binary: bytes) -> bytes:
    text = json.dumps(gltf).encode()
    text += b" " * (-len(text) % 4)
    binary += b"\0" * (-len(binary) % 4)
    chunks = struct.pack("<I4s", len(text), b"JSON") + text + struct.pack("<I4s", len(binary), b"BIN\0") + binary
    return struct.pack("<4sII", b"glTF", 2, 12 + len(chunks)) + chunks


def test_glb_file_with_a_collision_mesh_no_node_shows(spec_dir, tmp_path, rigid_body, markers):
    folder = spec_dir / "OMI_physics_shape" / "examples" / "convex"
    gltf = schema_check.load_gltf(folder / "convex_hull_only.gltf")
    binary = (folder / gltf["buffers"][0]["uri"]).read_bytes()
    del gltf["buffers"][0]["uri"]
    path = tmp_path / "hull.glb"
    path.write_bytes(_glb(gltf, binary))
    imported = support.import_gltf(path)
    hull = imported.obj("ConvexHullShape")
    assert hull.rigid_body.collision_shape == 'CONVEX_HULL' and markers.is_shape_mesh(hull)
    assert tuple(hull.dimensions) == pytest.approx((2.0, 2.0, 2.0), abs=1e-4)


def test_building_again_replaces_and_clearing_removes(spec_dir, rigid_body, markers):
    support.import_gltf(spec_dir / JOINT_EXAMPLE)
    scene = bpy.context.scene
    physics_objects = [obj for obj in scene.objects if obj.omi_physics.has_physics]

    def made() -> list[str]:
        return sorted(obj.name for obj in scene.objects if markers.is_generated(obj))

    def bodies() -> list[str]:
        return sorted(obj.name for obj in scene.objects if obj.rigid_body is not None)

    first_made, first_bodies = made(), bodies()
    assert first_made == ["WeldJoint fixed"]
    issues: list[Any] = []
    rigid_body.build_rigid_bodies(scene, physics_objects, support.scene_settings(), issues)
    assert (made(), bodies()) == (first_made, first_bodies)
    assert len(scene.rigidbody_world.constraints.objects) == 1

    rigid_body.clear_rigid_bodies(physics_objects)
    assert made() == [] and bodies() == []
    rigid_body.build_rigid_bodies(scene, physics_objects, support.scene_settings(), issues)
    assert (made(), bodies()) == (first_made, first_bodies)
    assert issues == []


def test_second_import_into_the_same_scene_shares_the_world(spec_dir):
    support.import_gltf(spec_dir / JOINT_EXAMPLE)
    support.import_gltf(spec_dir / JOINT_EXAMPLE, empty=False)
    world = bpy.context.scene.rigidbody_world
    assert len(world.constraints.objects) == 2
    bodies = [obj for obj in bpy.context.scene.objects if obj.rigid_body is not None]
    assert all(obj in set(world.collection.objects) for obj in bodies)
    assert len(bodies) == 2 * 5  # two bodies, two compound capsules, one floor per import


def test_a_failing_hook_still_imports_the_rest(spec_dir, omi, monkeypatch):
    def broken(*_args, **_kwargs):
        raise RuntimeError("simulated bug")

    monkeypatch.setattr(omi("io.blender.builder.rigid_body"), "build_rigid_bodies", broken)
    imported = support.import_gltf(spec_dir / JOINT_EXAMPLE)
    assert imported.result == {'FINISHED'}
    assert any("failed while creating the physics" in text and "simulated bug" in text
               for _level, text in imported.messages)
    assert imported.obj("BodyA").omi_physics.use_motion  # the settings were written before the failure
    assert len(imported.obj("MeshA").data.polygons) > 0


def test_collision_collections_stay_consistent_across_imports(tmp_path):
    """Two imports of crates that only collide with the ground: no crate shares a collection with another."""
    filters = [{"name": "Ground", "collisionSystems": ["ground"]},
               {"name": "Crates", "collisionSystems": ["crate"], "collideWithSystems": ["ground"]}]
    nodes: list[dict[str, Any]] = [
        {"name": "Floor", "extensions": {support.BODY: {"collider": {"shape": 0, "collisionFilter": 0}}}}]
    for index in range(2):
        nodes.append({"name": f"Crate{index}", "translation": [0.0, 2.0 + 2 * index, 0.0],
                      "extensions": {support.BODY: {"motion": {"type": "dynamic"},
                                                    "collider": {"shape": 0, "collisionFilter": 1}}}})
    path = support.write_gltf(tmp_path, "crates", support.document(
        nodes, [{"type": "box", "box": {"size": [1.0, 1.0, 1.0]}}], filters=filters))
    support.import_gltf(path)
    support.import_gltf(path, empty=False)
    bodies = [obj for obj in bpy.context.scene.objects if obj.rigid_body is not None]
    crates = [obj for obj in bodies if obj.name.startswith("Crate")]
    floors = [obj for obj in bodies if obj.name.startswith("Floor")]
    assert len(crates) == 4 and len(floors) == 2

    def shares(a, b) -> bool:
        return any(x and y for x, y in zip(a.rigid_body.collision_collections, b.rigid_body.collision_collections,
                                           strict=True))

    for a in crates:
        assert all(shares(a, floor) for floor in floors)
        assert not any(shares(a, b) for b in crates if b is not a)


def test_the_import_dialog_shows_the_physics_options(clean_scene, omi_addon):
    from ui_recorder import Recorder

    layout = Recorder()
    omi_addon.draw_import(bpy.context, layout)
    shown = layout.prop_set(clean_scene.omi_physics)
    assert {"import_physics", "import_rigid_bodies"} <= shown
    assert not shown & {"export_physics", "export_rigid_bodies"}
