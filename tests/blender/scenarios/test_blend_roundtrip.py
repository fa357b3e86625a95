"""Saving a .blend keeps every OMI setting: export, save, reopen, export again gives the same file.

The scene holds every kind of setting the add-on stores: scene libraries (physics materials with combine
modes, collision filters with both mask modes), the three motion types with every motion field, all six
shape types (a convex hull on a generated collision mesh, shape offsets), a compound collider, a
single and a compound trigger, a joint with ranged and soft limits, a motor and a spring, and an object
that has only a Blender rigid body (adopted at export).
"""

from __future__ import annotations

import bpy
import export_support as support
import pytest
import schema_check
from every_setting_scene import build_scene


@pytest.fixture(autouse=True)
def _enabled(omi_addon):
    return omi_addon


def material_worn(exported: support.Exported, name: str) -> dict:
    """The physics material of the object's collider, on its node or on the child node of its offset."""
    holders = [exported.index(name), *exported.node(name).get("children", [])]
    indices = [collider["physicsMaterial"] for collider in (exported.body(i).get("collider", {}) for i in holders)
               if "physicsMaterial" in collider]
    assert len(indices) == 1, f"{name}: {len(indices)} colliders with a physics material"
    return exported.root(support.BODY, "physicsMaterials")[indices[0]]


def test_every_setting_survives_save_and_reopen(clean_scene, tmp_path):
    build_scene()
    for folder in ("before", "after"):  # one file name in two folders
        (tmp_path / folder).mkdir()
    before = support.export(tmp_path / "before", "scene", 'GLB')

    # The file really holds every kind of setting.
    shapes = {shape["type"] for shape in before.shapes()}
    assert shapes == {"box", "sphere", "capsule", "cylinder", "convex", "trimesh"}
    materials = before.root(support.BODY, "physicsMaterials")  # in the exporter's node order, which varies
    worn = {name: material_worn(before, name) for name in ("Ground", "Crate", "PlainRigidBody")}
    assert len(materials) == 3 and all(any(material is used for used in worn.values()) for material in materials)
    assert worn["Ground"]["name"] == "Grippy" and worn["Ground"]["staticFriction"] == pytest.approx(0.9)
    assert worn["Crate"]["name"] == "Bouncy" and worn["Crate"]["restitution"] == pytest.approx(0.95)
    assert "name" not in worn["PlainRigidBody"]  # made from the plain rigid body's friction
    assert worn["PlainRigidBody"]["dynamicFriction"] == pytest.approx(0.3)
    assert {f["name"] for f in before.root(support.BODY, "collisionFilters")} == {"Players", "Ghosts"}
    assert {before.body(name)["motion"]["type"] for name in ("Crate", "Barrel", "Cone")} == \
        {"dynamic", "kinematic", "static"}
    assert before.body("Crate")["motion"]["gravityFactor"] == 0.5
    assert len(before.body("Zone")["trigger"]["nodes"]) == 2
    assert "shape" not in before.body("Cart")["collider"]  # the compound marker
    settings = before.root(support.JOINT, "physicsJoints")
    assert len(settings) == 1 and len(settings[0]["drives"]) == 2
    assert any("stiffness" in limit for limit in settings[0]["limits"])
    assert before.body("PlainRigidBody")["motion"]["mass"] == 4.0
    # Nothing dropped: the anchor turned with the barrel against the crate's joint is the connected node itself,
    # its turn part of the angular limits' meaning; the turn is about two axes, which Blender's build cannot
    # make up for, so the export names it (an engine measures the angles from the anchor, Blender from the start).
    # The plain rigid body keeps Blender's default damping, which no glTF holds: named too.
    turned = before.warnings("'CrateJoint'", "'BarrelAnchor'", "more than one axis")
    assert turned != [] and before.warnings() == turned + before.warnings("damping", "'PlainRigidBody'")
    assert before.joint("CrateJoint")["connectedNode"] == before.index("BarrelAnchor")

    path = tmp_path / "scene.blend"
    assert bpy.ops.wm.save_as_mainfile(filepath=str(path)) == {'FINISHED'}
    bpy.context.scene.objects["Crate"].omi_physics.motion.mass = 99.0  # in memory only: reopening undoes it
    assert bpy.ops.wm.open_mainfile(filepath=str(path)) == {'FINISHED'}
    assert bpy.data.filepath == str(path)
    assert bpy.context.scene.objects["Crate"].omi_physics.motion.mass == pytest.approx(3.5)
    after = support.export(tmp_path / "after", "scene", 'GLB')

    assert after.gltf == before.gltf
    assert schema_check.omi_schema_errors(after.gltf) == []
    assert after.path.read_bytes() == before.path.read_bytes()  # the binary chunk too
