"""The writer: spec defaults omitted, per-type sub-object always written, deduplication, limit splitting,
never -1/NaN/Infinity, infinite stiffness/maxForce omitted; every output validated with the schemas."""

from __future__ import annotations

import json
import math
from typing import Any

import omi_core.checks.rulebook
import omi_core.dialects.omi
import omi_core.dialects.registry
import omi_core.read.reader
import pytest
import schema_check
from omi_core import model
from omi_core.checks import rulebook
from omi_core.write import writer


def _document(shapes: Any=(), joints: Any=(), nodes: Any=()) -> dict[str, Any]:
    gltf: dict[str, Any] = {"asset": {"version": "2.0"}, "extensionsUsed": [], "extensions": {}, "nodes": list(nodes)}
    if shapes:
        gltf["extensions"]["OMI_physics_shape"] = {"shapes": list(shapes)}
        gltf["extensionsUsed"].append("OMI_physics_shape")
    if joints:
        gltf["extensions"]["OMI_physics_joint"] = {"physicsJoints": list(joints)}
        gltf["extensionsUsed"].append("OMI_physics_joint")
    return gltf


def _assert_valid(gltf: dict[str, Any]) -> None:
    if not schema_check.schemas_available():
        pytest.skip("the jsonschema package is not installed")
    assert schema_check.omi_schema_errors(gltf) == []


@pytest.mark.parametrize(("shape_type", "expected"), [
    ("box", {"type": "box", "box": {}}),
    ("sphere", {"type": "sphere", "sphere": {}}),
    ("capsule", {"type": "capsule", "capsule": {}}),
    ("cylinder", {"type": "cylinder", "cylinder": {}}),
    ("convex", {"type": "convex", "convex": {}}),
    ("trimesh", {"type": "trimesh", "trimesh": {}}),
])
def test_default_shapes_write_an_empty_sub_object(shape_type: model.ShapeType, expected: dict[str, Any]) -> None:
    written = writer.shape_to_json(model.Shape(shape_type))
    assert written == expected
    _assert_valid(_document(shapes=[written]))


def test_shape_values_and_mesh() -> None:
    assert writer.shape_to_json(model.Shape("box", size=(1.0, 2.0, 3.0))) == {"type": "box", "box": {"size": [1, 2, 3]}}
    assert writer.shape_to_json(model.Shape("sphere", radius=0.25)) == {"type": "sphere", "sphere": {"radius": 0.25}}
    capsule = writer.shape_to_json(model.Shape("capsule", height=2.0, radius_top=0.2, radius_bottom=0.3))
    assert capsule == {"type": "capsule", "capsule": {"height": 2.0, "radiusBottom": 0.3, "radiusTop": 0.2}}
    # the cylinder default height is 2.0, the capsule one 1.0: each omitted only at its own default
    assert writer.shape_to_json(model.Shape("cylinder", height=2.0)) == {"type": "cylinder", "cylinder": {}}
    assert writer.shape_to_json(model.Shape("capsule", height=1.0)) == {"type": "capsule", "capsule": {}}
    assert writer.shape_to_json(model.Shape("trimesh", mesh=3), 3) == {"type": "trimesh", "trimesh": {"mesh": 3}}
    assert writer.shape_to_json(model.Shape("convex", mesh=3), -1) == {"type": "convex", "convex": {}}


def test_invalid_numbers_are_never_written() -> None:
    shape = model.Shape("box", size=(math.nan, 1.0, 2.0))
    assert writer.shape_to_json(shape) == {"type": "box", "box": {}}
    assert writer.shape_to_json(model.Shape("box", size=(0.0, 1.0, 1.0))) == {"type": "box", "box": {}}
    assert writer.shape_to_json(model.Shape("sphere", radius=math.inf)) == {"type": "sphere", "sphere": {}}
    motion = model.Motion(mass=math.inf, linear_velocity=(math.nan, 0.0, 0.0), gravity_factor=-math.inf)
    assert writer.motion_to_json(motion) == {"type": "dynamic"}
    json.dumps(writer.limit_to_json(model.JointLimit(linear_axes=(0,), min=-math.inf, max=math.nan)), allow_nan=False)


def test_motion_defaults_omitted() -> None:
    assert writer.motion_to_json(model.Motion()) == {"type": "dynamic"}
    assert writer.motion_to_json(model.Motion(type="static")) == {"type": "static"}
    motion = model.Motion(mass=2.5, center_of_mass=(0.0, 1.0, 0.0), inertia_diagonal=(1.0, 2.0, 3.0),
                          linear_velocity=(1.0, 2.0, 3.0), angular_velocity=(4.0, 5.0, 6.0), gravity_factor=0.5)
    assert writer.motion_to_json(motion) == {
        "type": "dynamic", "mass": 2.5, "centerOfMass": [0, 1, 0], "inertiaDiagonal": [1, 2, 3],
        "linearVelocity": [1, 2, 3], "angularVelocity": [4, 5, 6], "gravityFactor": 0.5,
    }


def test_material_and_filter() -> None:
    assert writer.material_to_json(model.PhysicsMaterial()) == {}
    material = model.PhysicsMaterial(static_friction=1.0, dynamic_friction=0.5, restitution=0.25,
                                     friction_combine="minimum", restitution_combine="average", name="Rubber")
    assert writer.material_to_json(material) == {
        "staticFriction": 1.0, "dynamicFriction": 0.5, "restitution": 0.25, "frictionCombine": "minimum",
        "name": "Rubber",
    }
    assert writer.filter_to_json(model.CollisionFilter()) == {}
    both = model.CollisionFilter(("a",), ("b",), ("c",))
    assert writer.filter_to_json(both) == {"collisionSystems": ["a"], "collideWithSystems": ["b"]}


def test_limit_with_both_axis_kinds_is_split() -> None:
    weld = model.JointLimit(linear_axes=(0, 1, 2), angular_axes=(0, 1, 2), min=0.0, max=0.0)
    assert writer.limit_to_json(weld) == [
        {"linearAxes": [0, 1, 2], "min": 0.0, "max": 0.0},
        {"angularAxes": [0, 1, 2], "min": 0.0, "max": 0.0},
    ]
    soft = model.JointLimit(angular_axes=(1,), min=-1.0, stiffness=10.0, damping=0.5)
    assert writer.limit_to_json(soft) == [{"angularAxes": [1], "min": -1.0, "stiffness": 10.0, "damping": 0.5}]
    infinite = model.JointLimit(linear_axes=(0,), max=1.0, stiffness=None)
    assert writer.limit_to_json(infinite) == [{"linearAxes": [0], "max": 1.0}]
    assert writer.limit_to_json(model.JointLimit(linear_axes=(0,), max=1.0, stiffness=-5.0)) == [
        {"linearAxes": [0], "max": 1.0}]
    settings = writer.joint_settings_to_json(model.JointSettings(limits=(weld, soft)))
    assert len(settings["limits"]) == 3
    _assert_valid(_document(joints=[settings]))


def test_drive_defaults_and_infinite_max_force() -> None:
    assert writer.drive_to_json(model.JointDrive()) == {"type": "angular", "mode": "force", "axis": 0}
    drive = model.JointDrive(type="linear", mode="acceleration", axis=2, max_force=None, position_target=0.5,
                             velocity_target=-1.0, stiffness=3.0, damping=0.1)
    assert writer.drive_to_json(drive) == {"type": "linear", "mode": "acceleration", "axis": 2,
                                           "positionTarget": 0.5, "velocityTarget": -1.0, "stiffness": 3.0,
                                           "damping": 0.1}
    assert writer.drive_to_json(model.JointDrive(max_force=-1.0)) == {"type": "angular", "mode": "force", "axis": 0}
    assert writer.drive_to_json(model.JointDrive(max_force=20.0))["maxForce"] == 20.0
    _assert_valid(_document(joints=[{"drives": [writer.drive_to_json(drive)]}]))


def test_node_extensions_calls_ref_for_document_items() -> None:
    calls = []

    def ref(kind: Any, item: Any) -> Any:
        calls.append((kind, item))
        return f"{kind}#{len(calls)}"

    node = model.NodePhysics(
        motion=model.Motion(mass=2.0),
        collider=model.Collider(model.Shape("sphere", radius=0.25), model.PhysicsMaterial(restitution=0.5),
                                model.CollisionFilter(collision_systems=("player",))),
        joint=model.Joint(model.JointSettings(limits=(model.JointLimit(linear_axes=(0,), min=0.0),)), 7),
    )
    result = writer.node_extensions(node, ref, lambda n: f"node{n}", lambda m: f"mesh{m}")
    assert result == {
        "OMI_physics_body": {"motion": {"type": "dynamic", "mass": 2.0},
                             "collider": {"shape": "shapes#1", "physicsMaterial": "physicsMaterials#2",
                                          "collisionFilter": "collisionFilters#3"}},
        "OMI_physics_joint": {"joint": "physicsJoints#4", "connectedNode": "node7"},
    }
    assert [kind for kind, _item in calls] == ["shapes", "physicsMaterials", "collisionFilters", "physicsJoints"]


def test_node_extensions_grouping_and_unexported_targets() -> None:
    def ref(kind: Any, _item: Any) -> Any:
        return kind

    issues: list[Any] = []
    grouping = writer.node_extensions(model.NodePhysics(collider=model.Collider()), ref, lambda n: n, lambda m: m)
    assert grouping == {"OMI_physics_body": {"collider": {}}}
    compound = model.NodePhysics(trigger=model.Trigger(nodes=(1, 2, 3)))
    exported = {1: 10, 3: 30}
    result = writer.node_extensions(compound, ref, exported.get, lambda m: m, issues, at="/nodes/0")
    assert result == {"OMI_physics_body": {"trigger": {"nodes": [10, 30]}}}
    assert [issue.pointer for issue in issues] == ["/nodes/0/extensions/OMI_physics_body/trigger/nodes/1"]
    issues.clear()
    joint = model.NodePhysics(joint=model.Joint(model.JointSettings(), connected_node=5))
    assert writer.node_extensions(joint, ref, lambda _n: None, lambda m: m, issues) == {}
    assert "not exported" in issues[0].message
    issues.clear()
    hull = model.NodePhysics(collider=model.Collider(model.Shape("convex", mesh="MeshObject")))
    assert writer.node_extensions(hull, ref, lambda n: n, lambda _m: None, issues) == {}
    assert "mesh" in issues[0].message


def test_write_document_deduplicates_and_updates_extension_lists() -> None:
    box = model.Shape("box", size=(1.0, 2.0, 3.0))
    rubber = model.PhysicsMaterial(restitution=0.8)
    doc = model.PhysicsDocument(nodes={
        0: model.NodePhysics(motion=model.Motion()),
        1: model.NodePhysics(collider=model.Collider(box, rubber)),
        2: model.NodePhysics(collider=model.Collider(box, rubber)),
        3: model.NodePhysics(collider=model.Collider(model.Shape("box"), model.PhysicsMaterial())),
    })
    source: dict[str, Any] = {
        "asset": {"version": "2.0"},
        "extensionsUsed": ["KHR_materials_unlit", "OMI_collider"],
        "extensions": {"OMI_collider": {"colliders": [{"type": "box", "size": [1, 1, 1]}]}},
        "nodes": [{"name": "Body", "children": [1, 2, 3]},
                  {"name": "A", "extensions": {"OMI_collider": {"collider": 0}}},
                  {"name": "B", "extensions": {"OMI_physics_shape": {"shape": 0}, "EXT_other": {"x": 1}}},
                  {"name": "C"}],
    }
    out = writer.write_document(doc, source)
    assert source["nodes"][1]["extensions"] == {"OMI_collider": {"collider": 0}}  # input untouched
    assert out["extensions"]["OMI_physics_shape"]["shapes"] == [
        {"type": "box", "box": {"size": [1, 2, 3]}}, {"type": "box", "box": {}}]
    assert out["extensions"]["OMI_physics_body"] == {"physicsMaterials": [{"restitution": 0.8}]}
    assert "OMI_collider" not in out["extensions"]
    assert out["nodes"][1]["extensions"]["OMI_physics_body"]["collider"] == {"shape": 0, "physicsMaterial": 0}
    assert out["nodes"][2]["extensions"] == {"EXT_other": {"x": 1},
                                             "OMI_physics_body": {"collider": {"shape": 0, "physicsMaterial": 0}}}
    assert out["nodes"][3]["extensions"]["OMI_physics_body"]["collider"] == {"shape": 1}
    assert out["extensionsUsed"] == ["KHR_materials_unlit", "OMI_physics_shape", "OMI_physics_body"]
    _assert_valid(out)
    json.dumps(out, allow_nan=False)


def test_write_document_without_physics_removes_omi() -> None:
    source = {"asset": {"version": "2.0"}, "extensionsUsed": ["OMI_physics_body"],
              "extensionsRequired": ["OMI_physics_body"], "nodes": [{"extensions": {"OMI_physics_body": {}}}]}
    out = writer.write_document(model.PhysicsDocument(), source)
    assert out == {"asset": {"version": "2.0"}, "nodes": [{}]}


def test_write_document_does_not_share_objects_between_nodes() -> None:
    """A Python-made input may give two nodes as one dict; each written node gets its own extensions."""
    shared = {"name": "Twin"}
    source = {"nodes": [shared, shared]}
    doc = model.PhysicsDocument(nodes={0: model.NodePhysics(motion=model.Motion())})
    out = writer.write_document(doc, source)
    assert out["nodes"][0]["extensions"] == {"OMI_physics_body": {"motion": {"type": "dynamic"}}}
    assert out["nodes"][1] == {"name": "Twin"}
    assert shared == {"name": "Twin"}


def test_write_document_copes_with_deep_and_cyclic_input() -> None:
    deep: list[Any] = []
    innermost = deep
    for _ in range(3000):  # deeper than the recursion limit, as deep as json.loads goes
        innermost.append([])
        innermost = innermost[0]
    cyclic: dict[str, Any] = {"name": "Loop"}
    cyclic["self"] = cyclic
    source = {"nodes": [{"name": "A", "extras": {"deep": deep}}, cyclic]}
    doc = model.PhysicsDocument(nodes={0: model.NodePhysics(collider=model.Collider(model.Shape("sphere")))})
    out = writer.write_document(doc, source)
    assert out["nodes"][0]["extensions"]["OMI_physics_body"] == {"collider": {"shape": 0}}
    assert out["nodes"][0]["extras"]["deep"] is not deep
    assert out["nodes"][1]["name"] == "Loop"


def test_extension_names_have_one_home() -> None:
    """The OMI dialect's module holds its names; the registry lists them, the rules' revision uses that string."""
    omi = omi_core.dialects.omi
    assert omi.OMI.owns == ("OMI_physics_shape", "OMI_physics_body", "OMI_physics_joint", "OMI_collider")
    assert omi.OMI.owns == \
        (omi.SHAPE_EXTENSION, omi.BODY_EXTENSION, omi.JOINT_EXTENSION, omi.LEGACY_COLLIDER_EXTENSION)
    assert omi_core.dialects.registry.get(omi.NAME).owns == omi.OMI.owns
    assert rulebook.REV_COLLIDER == omi.LEGACY_COLLIDER_EXTENSION
