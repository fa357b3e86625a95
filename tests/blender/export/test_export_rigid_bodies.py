"""Export of an untagged Blender rigid-body scene: motion types, shapes from the bounds as Bullet sizes
them, friction and restitution as a multiplying physics material, collision collections as filters,
compound parents, and the same values written into the OMI settings by `adopt_rigid_body`."""

from __future__ import annotations

from typing import Any

import bpy
import numpy as np
import pytest
from export_support import (
    add_rigid_body,
    box_corners,
    close,
    empty,
    export,
    global_scale,
    mesh_object,
    point_sets_close,
    tag_motion,
    tag_shape,
    to_gltf,
    transform,
)
from mathutils import Vector

pytestmark = pytest.mark.usefixtures("omi_addon")


def test_motion_types_mass_and_material(clean_scene, tmp_path):
    crate = mesh_object("Crate", "cube", location=(0, 0, 3))
    add_rigid_body(crate, 'ACTIVE', 'BOX', mass=3.0, friction=0.3, restitution=0.4)
    lift = mesh_object("Lift", "cube", location=(3, 0, 0))
    add_rigid_body(lift, 'ACTIVE', 'BOX', kinematic=True)
    sleeper = mesh_object("Sleeper", "cube", location=(6, 0, 0))
    add_rigid_body(sleeper, 'ACTIVE', 'BOX', enabled=False)
    wall = mesh_object("Wall", "cube", location=(9, 0, 0))
    add_rigid_body(wall, 'PASSIVE', 'BOX')
    door = mesh_object("Door", "cube", location=(12, 0, 0))
    add_rigid_body(door, 'PASSIVE', 'BOX', kinematic=True)
    result = export(tmp_path)

    expected = {"Crate": "dynamic", "Lift": "kinematic", "Sleeper": "kinematic", "Wall": "static",
                "Door": "kinematic"}
    for name, motion in expected.items():
        assert result.body(name)["motion"]["type"] == motion, name
    assert result.body("Crate")["motion"]["mass"] == pytest.approx(3.0)
    assert "mass" not in result.body("Wall")["motion"]
    materials = result.root("OMI_physics_body", "physicsMaterials")
    crate_material = materials[result.body("Crate")["collider"]["physicsMaterial"]]
    assert crate_material["staticFriction"] == pytest.approx(0.3)
    assert crate_material["dynamicFriction"] == pytest.approx(0.3)
    assert crate_material["restitution"] == pytest.approx(0.4)
    assert crate_material["frictionCombine"] == crate_material["restitutionCombine"] == "multiply"
    default_material = result.body("Wall")["collider"]["physicsMaterial"]
    assert result.body("Lift")["collider"]["physicsMaterial"] == default_material  # equal values, one entry
    assert len(materials) == 2
    assert result.said("'Sleeper'", "Dynamic")  # an info: the export writes what Blender simulates


# Bullet sizes primitives from the bounds, centred on the origin: box = size; sphere radius = largest
# half-size; capsule/cylinder/cone radius = largest X/Y half-size, full height = Z size.
BOUNDS_CASES: dict[str, dict[str, Any]] = {
    'BOX': ({"type": "box", "box": {"size": [1.0, 3.0, 2.0]}}),
    'SPHERE': ({"type": "sphere", "sphere": {"radius": 1.5}}),
    'CAPSULE': ({"type": "capsule", "capsule": {"height": 1.0, "radiusTop": 1.0, "radiusBottom": 1.0}}),
    'CYLINDER': ({"type": "cylinder", "cylinder": {"height": 3.0, "radiusTop": 1.0, "radiusBottom": 1.0}}),
    'CONE': ({"type": "cylinder", "cylinder": {"height": 3.0, "radiusTop": 0.0, "radiusBottom": 1.0}}),
}


@pytest.mark.parametrize("shape", list(BOUNDS_CASES))
def test_primitive_shapes_from_the_bounds(clean_scene, tmp_path, shape):
    obj = mesh_object("Body", "cube", location=(1, 2, 3), rotation=(0.2, 0.3, 0.4))
    for vertex in obj.data.vertices:  # bounds 1 x 2 x 3, off-centre: Bullet still centres on the origin
        vertex.co = Vector((vertex.co.x * 1.0 + 0.5, vertex.co.y * 2.0, vertex.co.z * 3.0))
    add_rigid_body(obj, 'ACTIVE', shape)
    result = export(tmp_path)
    written = result.shape(result.body("Body")["collider"]["shape"])
    expected = BOUNDS_CASES[shape]
    assert written["type"] == expected["type"]
    for key, value in expected[expected["type"]].items():
        defaults = {"radiusTop": 0.5, "radiusBottom": 0.5, "radius": 0.5,
                    "height": 1.0 if expected["type"] == "capsule" else 2.0}
        actual = written[expected["type"]].get(key, defaults.get(key))
        assert close(actual if isinstance(actual, list) else [actual], value if isinstance(value, list) else [value],
                     1e-5), (key, actual)
    assert close(result.world(result.index("Body")).translation, to_gltf(obj.location))


def test_flat_box_gets_a_thickness_and_a_warning(clean_scene, tmp_path):
    floor = mesh_object("Floor", "cube", scale=(10, 10, 1))
    for vertex in floor.data.vertices:
        vertex.co.z = 0.0
    add_rigid_body(floor, 'PASSIVE', 'BOX')
    result = export(tmp_path)
    carrier = result.carrier("Floor", "collider")
    size = result.shape(result.body(carrier)["collider"]["shape"])["box"]["size"]
    assert close(size, (10.0, 0.01, 10.0), 1e-6)
    assert close(global_scale(result.world(carrier)), (1, 1, 1))
    assert result.warnings("'Floor'", "flat")


def test_scaled_rigid_body_box_occupies_its_blender_volume(clean_scene, tmp_path):
    obj = mesh_object("Beam", "cube", location=(0, 0, 2), rotation=(0.0, 0.4, 0.9), scale=(4, 0.5, 0.25))
    add_rigid_body(obj, 'ACTIVE', 'BOX')
    bpy.context.view_layer.update()
    result = export(tmp_path)
    carrier = result.carrier("Beam", "collider")
    size = result.shape(result.body(carrier)["collider"]["shape"])["box"]["size"]
    corners = transform(box_corners(size), result.world(carrier))
    expected = np.array([tuple(to_gltf(obj.matrix_world @ Vector(corner))) for corner in box_corners((1, 1, 1))])
    assert point_sets_close(corners, expected)


def test_convex_hull_and_mesh_colliders_use_the_objects_mesh(clean_scene, tmp_path):
    hull = mesh_object("Hull", "ico", location=(0, 0, 1))
    for polygon in hull.data.polygons:
        polygon.use_smooth = True  # rendered with its own points: a flat-shaded hull gets a welded collision mesh
    add_rigid_body(hull, 'ACTIVE', 'CONVEX_HULL')
    ground = mesh_object("Terrain", "cube", location=(0, 0, -1), scale=(5, 5, 0.2))
    add_rigid_body(ground, 'PASSIVE', 'MESH')
    result = export(tmp_path)
    hull_shape = result.shape(result.body("Hull")["collider"]["shape"])
    assert hull_shape == {"type": "convex", "convex": {"mesh": result.node("Hull")["mesh"]}}
    terrain_shape = result.shape(result.body("Terrain")["collider"]["shape"])
    assert terrain_shape == {"type": "trimesh", "trimesh": {"mesh": result.node("Terrain")["mesh"]}}


def test_convex_hull_from_the_base_mesh_ignores_modifiers(clean_scene, tmp_path):
    obj = mesh_object("Bent", "cube")
    obj.modifiers.new("Array", 'ARRAY').count = 2
    add_rigid_body(obj, 'ACTIVE', 'CONVEX_HULL', mesh_source='BASE')
    result = export(tmp_path)
    mesh_index = result.shape(result.body("Bent")["collider"]["shape"])["convex"]["mesh"]
    assert mesh_index != result.node("Bent")["mesh"]
    points = result.mesh_world_points(mesh_index, result.index("Bent"))
    assert points[:, 0].max() == pytest.approx(0.5)  # one cube: the array is not part of the base mesh


def test_collision_collections_become_filters_only_when_they_differ(clean_scene, tmp_path):
    first = mesh_object("First", "cube")
    add_rigid_body(first, 'ACTIVE', 'BOX')
    second = mesh_object("Second", "cube", location=(3, 0, 0))
    add_rigid_body(second, 'ACTIVE', 'BOX')
    result = export(tmp_path, "same")
    assert result.root("OMI_physics_body", "collisionFilters") == []
    assert "collisionFilter" not in result.body("First")["collider"]

    second.rigid_body.collision_collections[1] = True
    third = mesh_object("Third", "cube", location=(6, 0, 0))
    add_rigid_body(third, 'ACTIVE', 'BOX')
    third.rigid_body.collision_collections[0] = False
    third.rigid_body.collision_collections[2] = True
    result = export(tmp_path, "different")
    filters = result.root("OMI_physics_body", "collisionFilters")
    expected = {
        "First": ["Collision Collection 1"],
        "Second": ["Collision Collection 1", "Collision Collection 2"],
        "Third": ["Collision Collection 3"],
    }
    for name, systems in expected.items():
        written = filters[result.body(name)["collider"]["collisionFilter"]]
        assert written == {"collisionSystems": systems, "collideWithSystems": systems}


def test_compound_parent_is_one_body_made_of_its_childrens_shapes(clean_scene, tmp_path):
    cart = mesh_object("Cart", "cube", location=(0, 0, 1))
    add_rigid_body(cart, 'ACTIVE', 'COMPOUND', mass=5.0, friction=0.2)
    for index, x in enumerate((-1.0, 1.0)):
        wheel = mesh_object(f"Wheel{index}", "ico", location=(x, 0, 0))
        wheel.parent = cart
        add_rigid_body(wheel, 'ACTIVE', 'SPHERE', mass=100.0, friction=0.9)
    result = export(tmp_path)
    assert result.body("Cart") == {"motion": {"type": "dynamic", "mass": 5}}
    materials = result.root("OMI_physics_body", "physicsMaterials")
    for index in range(2):
        wheel = result.body(f"Wheel{index}")
        assert set(wheel) == {"collider"}
        assert materials[wheel["collider"]["physicsMaterial"]]["dynamicFriction"] == pytest.approx(0.2)
        assert result.parent(result.index(f"Wheel{index}")) == result.index("Cart")
        assert result.shape(wheel["collider"]["shape"]) == {"type": "sphere", "sphere": {"radius": 0.5}}


def test_settings_win_over_the_blender_rigid_body(clean_scene, tmp_path):
    obj = mesh_object("Tagged", "cube")
    add_rigid_body(obj, 'ACTIVE', 'BOX', mass=9.0)
    tag_shape(obj, "collider", 'SPHERE', radius=0.25)
    result = export(tmp_path)
    assert result.body("Tagged") == {"collider": {"shape": 0}}
    assert result.shape(0) == {"type": "sphere", "sphere": {"radius": 0.25}}


def test_rigid_bodies_option_off_exports_tagged_objects_only(clean_scene, tmp_path):
    add_rigid_body(mesh_object("Untagged", "cube"), 'ACTIVE', 'BOX')
    tagged = empty("TaggedBody")
    tag_motion(tagged, 'DYNAMIC')
    tag_shape(tagged, "collider", 'BOX')
    clean_scene.omi_physics.export_rigid_bodies = False
    result = export(tmp_path)
    assert result.body("Untagged") == {}
    assert result.body("TaggedBody")["motion"]["type"] == "dynamic"


def node_physics_without_names(result, name: str) -> dict:
    """An object's motion and collider (on its node or a child) with every index replaced by the item it
    points to, names left out."""
    body = {key: value for key, value in result.body(name).items() if key != "collider"}
    collider = dict(result.body(result.carrier(name, "collider"))["collider"])
    shape = result.shape(collider.pop("shape"))
    if shape["type"] in ("convex", "trimesh"):
        shape = {"type": shape["type"]}  # the mesh index differs between two files
    collider["shape"] = shape
    for key, kind in (("physicsMaterial", "physicsMaterials"), ("collisionFilter", "collisionFilters")):
        if key in collider:
            item = dict(result.root("OMI_physics_body", kind)[collider[key]])
            item.pop("name", None)
            collider[key] = item
    body["collider"] = collider
    return body


def test_adopted_settings_export_like_the_rigid_body(clean_scene, tmp_path, omi):
    sync = omi("operators.sync")
    objects = []
    for index, (body_type, shape) in enumerate((('ACTIVE', 'BOX'), ('PASSIVE', 'CYLINDER'), ('ACTIVE', 'CONE'),
                                                ('ACTIVE', 'CONVEX_HULL'), ('ACTIVE', 'CAPSULE'))):
        obj = mesh_object(f"Body{index}", "cube", location=(3 * index, 0, 0), scale=(1, 2, 3))
        add_rigid_body(obj, body_type, shape, mass=2.0 + index, friction=0.1 * index, restitution=0.05 * index)
        obj.rigid_body.collision_collections[index] = True
        objects.append(obj)
    before = export(tmp_path, "rigid_bodies")
    issues: list[Any] = []
    for obj in objects:
        assert sync.adopt_rigid_body(obj, clean_scene, issues)
        assert obj.omi_physics.use_collider
    clean_scene.omi_physics.export_rigid_bodies = False  # only the settings now
    after = export(tmp_path, "settings")
    for obj in objects:
        assert node_physics_without_names(after, obj.name) == node_physics_without_names(before, obj.name), obj.name
        carrier_before, carrier_after = before.carrier(obj.name, "collider"), after.carrier(obj.name, "collider")
        assert close(before.world(carrier_before).translation, after.world(carrier_after).translation)


def test_adopt_rigid_body_leaves_objects_without_one_alone(clean_scene, omi):
    sync = omi("operators.sync")
    nothing = empty("Nothing")
    assert sync.adopt_rigid_body(nothing, clean_scene, []) is False
    assert not nothing.omi_physics.has_physics
