"""Files written by Godot 4.6's own glTF exporter (tests/data/godot, made by tests/godot/make_godot_files.gd):
every CollisionShape3D type, every body type, an Area3D and a HingeJoint3D. They import into the bodies and
sizes Godot had, with Godot's old capsule form read as Godot means it (full height), and what Godot's
exporter loses (its Area3D shapes are written as `"trigger": null`, its joints not at all) is named."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import bpy
import import_support as support
import pytest

pytestmark = pytest.mark.usefixtures("omi_addon")

DATA = Path(__file__).resolve().parents[2] / "data" / "godot"


@pytest.fixture(scope="module")
def from_object(omi):
    return omi("properties.convert").node_from_object


def _physics(from_object, name: str):
    return from_object(bpy.data.objects[name], [], bpy.context.scene)


def test_every_godot_shape_comes_in_as_godot_built_it(clean_scene, from_object):
    imported = support.import_gltf(DATA / "godot_shapes.gltf")
    assert not imported.failures
    # Godot's CollisionShape3D values (tests/godot/make_godot_files.gd), glTF axes
    expected: dict[str, tuple[str, dict[str, Any]]] = {
        "Box": ("box", {"size": pytest.approx((1.0, 0.6, 0.4))}),
        "Sphere": ("sphere", {"radius": pytest.approx(0.4)}),
        "Capsule": ("capsule", {"height": pytest.approx(1.4), "radius_top": pytest.approx(0.3),
                                "radius_bottom": pytest.approx(0.3)}),  # Godot: radius 0.3, full height 2
        "Cylinder": ("cylinder", {"height": pytest.approx(1.2), "radius_top": pytest.approx(0.35),
                                  "radius_bottom": pytest.approx(0.35)}),
        "Convex": ("convex", {}),
        "Concave": ("trimesh", {}),
    }
    blender_shapes = {"Box": 'BOX', "Sphere": 'SPHERE', "Capsule": 'CAPSULE', "Cylinder": 'CYLINDER',
                      "Convex": 'COMPOUND', "Concave": 'COMPOUND'}  # a mesh shape sits on its own child object
    for name, (shape_type, values) in expected.items():
        body = _physics(from_object, name)
        assert body.motion is not None and body.motion.type == "static", name
        shape = _physics(from_object, f"{name}Shape").collider.shape
        assert shape.type == shape_type, name
        for key, value in values.items():
            assert getattr(shape, key) == value, (name, key)
        rigid_body = bpy.data.objects[name].rigid_body
        assert (rigid_body.type, rigid_body.collision_shape) == ('PASSIVE', blender_shapes[name]), name
    assert bpy.data.objects["Capsule"].dimensions[:] == pytest.approx((0.6, 0.6, 2.0))  # Bullet's capsule
    assert bpy.data.objects["Cylinder"].dimensions[:] == pytest.approx((0.7, 0.7, 1.2))
    assert bpy.data.objects["ConvexShape"].dimensions[:] == pytest.approx((2.0, 2.0, 2.0))
    assert bpy.data.objects["ConcaveShape"].dimensions[:] == pytest.approx((4.0, 4.0, 0.0))
    old_form = [message for message in imported.warnings if "old full-height form" in message]
    assert len(old_form) == 1 and "radius 0.3, height 2" in old_form[0]


def test_every_godot_body_type_comes_in(clean_scene, from_object):
    imported = support.import_gltf(DATA / "godot_bodies.gltf")
    assert not imported.failures
    crate = _physics(from_object, "Crate").motion
    assert (crate.type, crate.mass) == ("dynamic", pytest.approx(3.5))
    assert crate.linear_velocity == pytest.approx((1.0, 2.0, 0.0)) and crate.angular_velocity == (0.0, 0.5, 0.0)
    assert bpy.data.objects["Crate"].rigid_body.mass == pytest.approx(3.5)
    assert _physics(from_object, "Floor").motion.type == "static"
    assert _physics(from_object, "Lift").motion.type == "kinematic"
    assert bpy.data.objects["Lift"].rigid_body.kinematic
    assert _physics(from_object, "Door").collider is None and _physics(from_object, "DoorShape").collider.shape.size \
        == pytest.approx((0.1, 2.0, 1.0))
    for mesh in ("FloorMesh", "CrateMesh"):  # Godot's MeshInstance3D children stay mesh objects
        assert bpy.data.objects[mesh].type == 'MESH'
    # Godot 4.6 writes an Area3D's shape as `"trigger": null` and no joint at all: said, the rest imports
    assert any("'ZoneShape'" in message and "trigger must be an object, got null" in message
               for message in imported.warnings), imported.warnings
    assert _physics(from_object, "Zone").trigger is None
    assert bpy.data.objects["Hinge"].type == 'EMPTY' and not bpy.data.objects["Hinge"].rigid_body_constraint
