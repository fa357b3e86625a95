"""Broken OMI physics never stops an import: each bad value is a warning in the importer's log, and the
rest of the file (meshes, materials, the other bodies) still imports.

The broken files are made here from one valid document: a body that must survive ("Keeper", with a
visible mesh and material), a static floor, and a "Victim" body with a joint, whose values get broken.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

import import_support as support
import pytest

pytestmark = pytest.mark.usefixtures("omi_addon")

BODY, SHAPE, JOINT = support.BODY, support.SHAPE, support.JOINT
KEEPER, KEEPER_SHAPE, KEEPER_MESH, FLOOR, VICTIM, VICTIM_SHAPE, VICTIM_JOINT = range(7)


def valid_document() -> dict:
    nodes = [
        {"name": "Keeper", "translation": [0.0, 3.0, 0.0], "children": [KEEPER_SHAPE],
         "extensions": {BODY: {"motion": {"type": "dynamic", "mass": 2.0}}}},
        {"name": "KeeperShape", "children": [KEEPER_MESH], "extensions": {BODY: {"collider": {"shape": 0}}}},
        {"name": "KeeperMesh", "mesh": 0},
        {"name": "Floor", "translation": [0.0, -0.5, 0.0], "extensions": {BODY: {"collider": {"shape": 1}}}},
        {"name": "Victim", "translation": [3.0, 3.0, 0.0], "children": [VICTIM_SHAPE, VICTIM_JOINT],
         "extensions": {BODY: {"motion": {"type": "dynamic"}}}},
        {"name": "VictimShape", "extensions": {BODY: {"collider": {"shape": 2, "physicsMaterial": 0,
                                                                    "collisionFilter": 0}}}},
        {"name": "VictimJoint", "translation": [-3.0, 0.0, 0.0],  # on KeeperShape: the pin starts closed
         "extensions": {JOINT: {"joint": 0, "connectedNode": KEEPER_SHAPE}}},
    ]
    shapes = [{"type": "box", "box": {"size": [1.0, 1.0, 1.0]}}, {"type": "box", "box": {"size": [20.0, 1.0, 20.0]}},
              {"type": "capsule", "capsule": {"height": 1.0, "radiusTop": 0.25, "radiusBottom": 0.25}},
              {"type": "convex", "convex": {"mesh": 0}}]
    joints = [{"limits": [{"linearAxes": [0, 1, 2], "min": 0.0, "max": 0.0}],
               "drives": [{"type": "angular", "mode": "force", "axis": 0, "velocityTarget": 1.0, "damping": 1.0}]}]
    return support.document(nodes, shapes, roots=[KEEPER, FLOOR, VICTIM], joints=joints, meshes=True,
                             materials=[{"staticFriction": 0.4, "dynamicFriction": 0.4}],
                             filters=[{"collisionSystems": ["props"]}])


def victim_body(doc: dict) -> dict:
    return doc["nodes"][VICTIM]["extensions"][BODY]


def victim_collider(doc: dict) -> dict:
    return doc["nodes"][VICTIM_SHAPE]["extensions"][BODY]["collider"]


def victim_shape(doc: dict) -> dict:
    return doc["extensions"][SHAPE]["shapes"][2]


def joint_node(doc: dict) -> dict:
    return doc["nodes"][VICTIM_JOINT]["extensions"][JOINT]


def joint_settings(doc: dict) -> dict:
    return doc["extensions"][JOINT]["physicsJoints"][0]


def setter(get: Callable[[dict], dict], key: str, value: object) -> Callable[[dict], None]:
    def mutate(doc: dict) -> None:
        get(doc)[key] = value
    return mutate


def deleter(get: Callable[[dict], dict], key: str) -> Callable[[dict], None]:
    def mutate(doc: dict) -> None:
        del get(doc)[key]
    return mutate


def replace_shape(value: object) -> Callable[[dict], None]:
    def mutate(doc: dict) -> None:
        doc["extensions"][SHAPE]["shapes"][2] = value
    return mutate


def set_limit(key: str, value: object) -> Callable[[dict], None]:
    return lambda doc: joint_settings(doc)["limits"][0].__setitem__(key, value)


def set_drive(key: str, value: object) -> Callable[[dict], None]:
    return lambda doc: joint_settings(doc)["drives"][0].__setitem__(key, value)


def set_motion(key: str, value: object) -> Callable[[dict], None]:
    return lambda doc: victim_body(doc)["motion"].__setitem__(key, value)


def set_document(extension: str, value: object) -> Callable[[dict], None]:
    return lambda doc: doc["extensions"].__setitem__(extension, value)


# (name, mutation, whether the Keeper's own physics stays intact)
MUTATIONS: list[tuple[str, Callable[[dict], None], bool]] = [
    # motion: bad values, wrong JSON types, truncated
    ("motion type unknown", set_motion("type", "flying"), True),
    ("motion type a number", set_motion("type", 42), True),
    ("motion without type", deleter(lambda d: victim_body(d)["motion"], "type"), True),
    ("motion not an object", setter(victim_body, "motion", 5), True),
    ("motion an array", setter(victim_body, "motion", [1, 2]), True),
    ("mass negative", set_motion("mass", -3.0), True),
    ("mass zero", set_motion("mass", 0.0), True),
    ("mass a string", set_motion("mass", "heavy"), True),
    ("mass null", set_motion("mass", None), True),
    ("velocity too short", set_motion("linearVelocity", [1.0, 2.0]), True),
    ("velocity of strings", set_motion("angularVelocity", ["a", "b", "c"]), True),
    ("gravity factor a string", set_motion("gravityFactor", "x"), True),
    ("inertia negative", set_motion("inertiaDiagonal", [-1.0, 0.0, 0.0]), True),
    ("inertia orientation too short", set_motion("inertiaOrientation", [0.0, 0.0, 0.0]), True),
    ("center of mass a bool", set_motion("centerOfMass", True), True),
    ("empty body extension", lambda d: d["nodes"][VICTIM]["extensions"].__setitem__(BODY, {}), True),
    ("legacy type unknown", lambda d: d["nodes"][VICTIM]["extensions"].__setitem__(BODY, {"type": "blob"}), True),
    # collider references
    ("collider not an object", lambda d: d["nodes"][VICTIM_SHAPE]["extensions"][BODY].__setitem__("collider", []),
     True),
    ("shape index out of range", setter(victim_collider, "shape", 99), True),
    ("shape index -1", setter(victim_collider, "shape", -1), True),
    ("shape index a string", setter(victim_collider, "shape", "0"), True),
    ("shape index a float", setter(victim_collider, "shape", 1.5), True),
    ("shape index a bool", setter(victim_collider, "shape", True), True),
    ("shape index null", setter(victim_collider, "shape", None), True),
    ("material index out of range", setter(victim_collider, "physicsMaterial", 9), True),
    ("filter index a string", setter(victim_collider, "collisionFilter", "props"), True),
    # shapes
    ("shape not an object", replace_shape(7), True),
    ("shape without type", replace_shape({"capsule": {"height": 1.0}}), True),
    ("shape type unknown", replace_shape({"type": "cone", "cone": {}}), True),
    ("shape type a number", replace_shape({"type": 3}), True),
    ("box size too short", replace_shape({"type": "box", "box": {"size": [1.0, 2.0]}}), True),
    ("box size negative", replace_shape({"type": "box", "box": {"size": [-1.0, 1.0, 1.0]}}), True),
    ("box size zero", replace_shape({"type": "box", "box": {"size": [0.0, 1.0, 1.0]}}), True),
    ("box size a string", replace_shape({"type": "box", "box": {"size": "big"}}), True),
    ("box details not an object", replace_shape({"type": "box", "box": "x"}), True),
    ("sphere radius negative", replace_shape({"type": "sphere", "sphere": {"radius": -1.0}}), True),
    ("capsule height zero", replace_shape({"type": "capsule", "capsule": {"height": 0.0}}), True),
    ("capsule radius a string", replace_shape({"type": "capsule", "capsule": {"radiusTop": "a"}}), True),
    ("tapered cylinder", replace_shape({"type": "cylinder", "cylinder": {"radiusTop": 0.1, "radiusBottom": 0.5}}),
     True),
    ("convex mesh out of range", replace_shape({"type": "convex", "convex": {"mesh": 99}}), True),
    ("trimesh without mesh", replace_shape({"type": "trimesh", "trimesh": {}}), True),
    ("shapes not an array", set_document(SHAPE, {"shapes": {"0": {"type": "box"}}}), False),
    ("shapes missing", set_document(SHAPE, {}), False),
    # materials and filters
    ("friction negative", lambda d: d["extensions"][BODY]["physicsMaterials"][0].__setitem__("staticFriction", -1),
     True),
    ("friction a string", lambda d: d["extensions"][BODY]["physicsMaterials"][0].__setitem__("dynamicFriction", "x"),
     True),
    ("combine mode unknown", lambda d: d["extensions"][BODY]["physicsMaterials"][0].__setitem__("frictionCombine",
                                                                                                 "sum"), True),
    ("filter with both masks", lambda d: d["extensions"][BODY]["collisionFilters"][0].update(
        collideWithSystems=["a"], notCollideWithSystems=["b"]), True),
    ("filter systems a string", lambda d: d["extensions"][BODY]["collisionFilters"][0].__setitem__(
        "collisionSystems", "props"), True),
    ("filter systems numbers", lambda d: d["extensions"][BODY]["collisionFilters"][0].__setitem__(
        "collisionSystems", [1, 2]), True),
    ("materials not an array", lambda d: d["extensions"][BODY].__setitem__("physicsMaterials", {"a": 1}), True),
    # triggers
    ("trigger members out of range", lambda d: victim_body(d).__setitem__("trigger", {"nodes": [99]}), True),
    ("trigger members not descendants", lambda d: victim_body(d).__setitem__("trigger", {"nodes": [KEEPER]}), True),
    ("trigger members a string", lambda d: victim_body(d).__setitem__("trigger", {"nodes": "x"}), True),
    ("trigger not an object", lambda d: victim_body(d).__setitem__("trigger", 5), True),
    # joints
    ("joint settings out of range", setter(joint_node, "joint", 9), True),
    ("joint settings -1", setter(joint_node, "joint", -1), True),
    ("connected node out of range", setter(joint_node, "connectedNode", 99), True),
    ("connected to itself", setter(joint_node, "connectedNode", VICTIM_JOINT), True),
    ("connected node a string", setter(joint_node, "connectedNode", "a"), True),
    ("joint without connected node", deleter(joint_node, "connectedNode"), True),
    ("enable collision a string", setter(joint_node, "enableCollision", "yes"), True),
    ("limits not an array", lambda d: joint_settings(d).__setitem__("limits", "x"), True),
    ("limit axis out of range", set_limit("linearAxes", [5]), True),
    ("limit axes a string", set_limit("linearAxes", "xyz"), True),
    ("limit without axes", deleter(lambda d: joint_settings(d)["limits"][0], "linearAxes"), True),
    ("limit min above max", lambda d: joint_settings(d)["limits"][0].update(min=1.0, max=-1.0), True),
    ("drive type unknown", set_drive("type", "spin"), True),
    ("drive axis out of range", set_drive("axis", 7), True),
    ("drive without mode", deleter(lambda d: joint_settings(d)["drives"][0], "mode"), True),
    ("drives not an array", lambda d: joint_settings(d).__setitem__("drives", 5), True),
    ("physicsJoints not an array", set_document(JOINT, {"physicsJoints": "x"}), True),
    ("old joint revision", set_document(JOINT, {"constraints": [{}]}), True),
    # the document
    ("extensionsUsed without OMI", lambda d: d.__setitem__("extensionsUsed", []), True),
    ("OMI_physics_body document a wrong type inside", set_document(BODY, {"collisionFilters": 3}), True),
    ("legacy collider reference out of range",
     lambda d: d["nodes"][VICTIM_SHAPE]["extensions"].__setitem__("OMI_collider", {"collider": 4}), True),
]


@pytest.fixture(scope="module")
def valid_warnings(tmp_path_factory, omi_addon) -> set[str]:
    path = support.write_gltf(tmp_path_factory.mktemp("valid"), "valid", valid_document())
    imported = support.import_gltf(path)
    return {*imported.warnings, *imported.notes}


@pytest.mark.parametrize(("name", "mutate", "keeper_intact"), MUTATIONS, ids=[m[0] for m in MUTATIONS])
def test_broken_value_warns_and_the_rest_imports(tmp_path, valid_warnings, name, mutate, keeper_intact):
    doc = valid_document()
    mutate(doc)
    imported = support.import_gltf(support.write_gltf(tmp_path, "broken", doc))
    assert imported.result == {'FINISHED'}
    assert imported.failures == [], imported.failures  # no hook gave up
    said = [*imported.warnings, *imported.notes]  # a tapered cylinder is a note: Blender cannot make one
    new = [text for text in said if text not in valid_warnings and "problem(s)" not in text]
    assert new, f"{name}: no warning of its own"
    mesh = imported.obj("KeeperMesh")  # meshes and materials import as always
    assert mesh.type == 'MESH' and len(mesh.data.polygons) == 12
    assert mesh.data.materials[0].name.startswith("Crate paint")
    keeper, floor = imported.obj("Keeper"), imported.obj("Floor")
    assert keeper.omi_physics.use_motion and keeper.rigid_body is not None
    assert keeper.rigid_body.type == 'ACTIVE' and keeper.rigid_body.mass == pytest.approx(2.0)
    if keeper_intact:
        assert keeper.rigid_body.collision_shape == 'BOX'
        assert floor.rigid_body is not None and floor.rigid_body.type == 'PASSIVE'
        assert tuple(floor.dimensions) == pytest.approx((20.0, 20.0, 1.0))
    for obj in (imported.obj("Victim"), imported.obj("VictimShape"), imported.obj("VictimJoint")):
        assert obj.name in support.bpy.context.scene.objects


def test_valid_document_warns_only_about_the_motor(tmp_path):
    """No problem in a valid file; the motor's damping, which Blender cannot express, is a note."""
    imported = support.import_gltf(support.write_gltf(tmp_path, "valid", valid_document()))
    assert imported.result == {'FINISHED'}
    assert imported.warnings == []
    limits = [text for text in imported.notes if "cannot express" in text]
    assert len(limits) == 1 and "velocity drive damping" in limits[0], limits
    victim = imported.obj("Victim")
    assert victim.rigid_body.collision_shape == 'CAPSULE'
    assert victim.rigid_body.friction == pytest.approx(0.4)
    assert len(support.constraints_of(imported.obj("VictimJoint"))) == 2  # a point joint and a motor


def test_unreadable_extension_container_is_the_importers_own_refusal(tmp_path):
    """A node extension that is not a JSON object fails the glTF importer's own parsing, before any hook."""
    doc = copy.deepcopy(valid_document())
    doc["nodes"][VICTIM]["extensions"][BODY] = 3
    with pytest.raises(RuntimeError, match="parse glTF"):
        support.import_gltf(support.write_gltf(tmp_path, "unparsable", doc))
