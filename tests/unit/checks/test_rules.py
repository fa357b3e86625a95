"""One test per validation rule: a bad input, the exact issue it yields (JSON pointer, severity, a word of
the message), and the valid rest of the document kept."""

from __future__ import annotations

import copy
import json
import math
from typing import Any

import pytest
from omi_core import json_types, model
from omi_core.read import reader
from present import present

BODY = "OMI_physics_body"
JOINT = "OMI_physics_joint"
SHAPES = "/extensions/OMI_physics_shape/shapes"
FILTERS = "/extensions/OMI_physics_body/collisionFilters"
JOINTS = "/extensions/OMI_physics_joint/physicsJoints"


def _body(index: int) -> str:
    return f"/nodes/{index}/extensions/{BODY}"


def _joint(index: int) -> str:
    return f"/nodes/{index}/extensions/{JOINT}"


BASE: dict[str, Any] = {
    "asset": {"version": "2.0"},
    "extensionsUsed": ["OMI_physics_shape", "OMI_physics_body", "OMI_physics_joint"],
    "extensions": {
        "OMI_physics_shape": {"shapes": [{"type": "box", "box": {"size": [1, 2, 3]}},
                                         {"type": "sphere", "sphere": {"radius": 0.25}},
                                         {"type": "capsule", "capsule": {"height": 2, "radiusTop": 0.5,
                                                                         "radiusBottom": 0.5}},
                                         {"type": "convex", "convex": {"mesh": 0}}]},
        "OMI_physics_body": {"physicsMaterials": [{"restitution": 0.5, "frictionCombine": "maximum"}],
                             "collisionFilters": [{"collisionSystems": ["a"], "collideWithSystems": ["b"]}]},
        "OMI_physics_joint": {"physicsJoints": [{
            "limits": [{"linearAxes": [0, 1, 2], "min": 0, "max": 0},
                       {"angularAxes": [1], "min": -1, "max": 1, "stiffness": 10, "damping": 0.5}],
            "drives": [{"type": "angular", "mode": "force", "axis": 1, "velocityTarget": 2, "damping": 1}]}]},
    },
    "meshes": [{"name": "Hull", "primitives": [{"attributes": {"POSITION": 0}}]}],
    "accessors": [{"count": 8}],
    "nodes": [
        {"name": "Root", "children": [1, 4, 8]},
        {"name": "BodyA", "children": [2, 3],
         "extensions": {BODY: {"motion": {"type": "dynamic", "mass": 2, "linearVelocity": [1, 0, 0]}}}},
        {"name": "ShapeA",
         "extensions": {BODY: {"collider": {"shape": 0, "physicsMaterial": 0, "collisionFilter": 0}}}},
        {"name": "Hinge", "extensions": {JOINT: {"joint": 0, "connectedNode": 5}}},
        {"name": "BodyB", "children": [5, 6], "extensions": {BODY: {"motion": {"type": "static"}}}},
        {"name": "ShapeB", "extensions": {BODY: {"collider": {"shape": 1}}}},
        {"name": "Sensor", "children": [7], "extensions": {BODY: {"trigger": {"nodes": [7]}}}},
        {"name": "SensorShape", "extensions": {BODY: {"trigger": {"shape": 2, "collisionFilter": 0}}}},
        {"name": "Hull", "extensions": {BODY: {"collider": {"shape": 3}}}},
    ],
}


@pytest.fixture(scope="module")
def base_doc() -> Any:
    doc = reader.read_document(BASE)
    assert doc.issues == []
    assert sorted(doc.nodes) == [1, 2, 3, 4, 5, 6, 7, 8]
    return doc


def _tokens(pointer: str) -> list[str]:
    return [token.replace("~1", "/").replace("~0", "~") for token in pointer.split("/")[1:]]


def _set(gltf: dict[str, Any], pointer: str, value: object) -> None:
    *parents, last = _tokens(pointer)
    target = gltf
    for token in parents:
        target = target[int(token)] if isinstance(target, list) else target.setdefault(token, {})
    if isinstance(target, list):
        target[int(last)] = value
    else:
        target[last] = value


def _delete(gltf: dict[str, Any], pointer: str) -> None:
    *parents, last = _tokens(pointer)
    target = gltf
    for token in parents:
        target = target[int(token)] if isinstance(target, list) else target[token]
    del target[int(last) if isinstance(target, list) else last]


def _read(reader: Any, edits: dict[str, Any]) -> object:
    gltf = copy.deepcopy(BASE)
    for pointer, value in edits.items():
        if value is DELETE:
            _delete(gltf, pointer)
        else:
            _set(gltf, pointer, value)
    return reader.read_document(gltf)


DELETE = object()


def _assert_issues(doc: Any, expected: list[tuple[str, str, str]]) -> None:
    """The issues (info excluded unless expected) are exactly `expected`: (pointer, severity, word)."""
    wants_info = any(severity == "info" for _p, severity, _w in expected)
    found = [issue for issue in doc.issues if wants_info or issue.severity != "info"]
    assert [(issue.pointer, issue.severity) for issue in found] == [(p, s) for p, s, _w in expected], found
    for issue, (_pointer, _severity, word) in zip(found, expected, strict=True):
        assert word in issue.message, issue


def _assert_rest_kept(doc: Any, base_doc: Any, changed: set[int]) -> None:
    for index, physics in base_doc.nodes.items():
        if index not in changed:
            assert doc.nodes.get(index) == physics, index


# (edits, expected issues, nodes whose physics changed)
CASES: dict[str, Any] = {
    # --- indices out of range or of the wrong type
    "collider shape out of range": (
        {_body(2) + "/collider/shape": 9}, [(_body(2) + "/collider/shape", "error", "out of range")], {2}),
    "collider shape of the wrong type": (
        {_body(2) + "/collider/shape": "0"}, [(_body(2) + "/collider/shape", "error", "index")], {2}),
    "collider shape as a float with a fraction": (
        {_body(2) + "/collider/shape": 0.5}, [(_body(2) + "/collider/shape", "error", "index")], {2}),
    "collider shape true": (
        {_body(2) + "/collider/shape": True}, [(_body(2) + "/collider/shape", "error", "index")], {2}),
    "material out of range": (
        {_body(2) + "/collider/physicsMaterial": 1},
        [(_body(2) + "/collider/physicsMaterial", "error", "out of range")], {2}),
    "filter negative": (
        {_body(2) + "/collider/collisionFilter": -2}, [(_body(2) + "/collider/collisionFilter", "error", "index")],
        {2}),
    "trigger shape out of range": (
        {_body(7) + "/trigger/shape": 4},
        [(_body(7) + "/trigger/shape", "error", "out of range"),
         (_body(6) + "/trigger/nodes/0", "error", "no trigger shape"),
         (_body(6) + "/trigger", "error", "neither a shape")], {6, 7}),
    "joint settings out of range": (
        {_joint(3) + "/joint": 1}, [(_joint(3) + "/joint", "error", "out of range")], {3}),
    "connected node out of range": (
        {_joint(3) + "/connectedNode": 99}, [(_joint(3) + "/connectedNode", "error", "out of range")], {3}),
    "joint settings -1": (
        {_joint(3) + "/joint": -1}, [(_joint(3) + "/joint", "info", "-1 means none"),
                                     (_joint(3) + "/joint", "error", "joint dropped")], {3}),
    "connected node -1": (
        {_joint(3) + "/connectedNode": -1}, [(_joint(3) + "/connectedNode", "error", "not a node")], {3}),
    "connected to itself": (
        {_joint(3) + "/connectedNode": 3}, [(_joint(3) + "/connectedNode", "error", "own node")], {3}),
    "mesh out of range": (
        {SHAPES + "/3/convex/mesh": 1}, [(SHAPES + "/3/convex/mesh", "error", "out of range")], {8}),
    # --- mesh shapes without a mesh
    "convex mesh -1": ({SHAPES + "/3/convex/mesh": -1}, [(SHAPES + "/3/convex/mesh", "warning", "no mesh")], {8}),
    "trimesh without mesh": (
        {SHAPES + "/3": {"type": "trimesh", "trimesh": {}}}, [(SHAPES + "/3/trimesh", "warning", "no mesh")], {8}),
    # --- unknown types
    "unknown shape type": (
        {SHAPES + "/0/type": "cone"},
        [(SHAPES + "/0/type", "error", "unknown shape type"), (_body(2) + "/collider/shape", "error", "dropped")],
        {2}),
    "shape type not a string": (
        {SHAPES + "/0/type": 3},
        [(SHAPES + "/0/type", "error", "string"), (_body(2) + "/collider/shape", "error", "dropped")], {2}),
    "shape without type": (
        {SHAPES + "/0/type": DELETE},
        [(SHAPES + "/0", "error", "no type"), (_body(2) + "/collider/shape", "error", "dropped")], {2}),
    "unknown motion type": ({_body(1) + "/motion/type": "floaty"}, [(_body(1) + "/motion/type", "error", "unknown")],
                            set()),
    "motion without type": ({_body(4) + "/motion/type": DELETE}, [(_body(4) + "/motion", "warning", "no type")], {4}),
    "unknown drive type is kept": (
        {JOINTS + "/0/drives/0/type": "spring"}, [(JOINTS + "/0/drives/0/type", "warning", "spring")], {3}),
    "unknown drive mode is kept": (
        {JOINTS + "/0/drives/0/mode": "velocity"}, [(JOINTS + "/0/drives/0/mode", "warning", "not portable")], {3}),
    "drive without mode": (
        {JOINTS + "/0/drives/0/mode": DELETE}, [(JOINTS + "/0/drives/0", "error", "mode is missing")], {3}),
    "drive axis 3": ({JOINTS + "/0/drives/0/axis": 3}, [(JOINTS + "/0/drives/0/axis", "error", "axis")], {3}),
    "unknown combine mode": (
        {"/extensions/OMI_physics_body/physicsMaterials/0/frictionCombine": "median"},
        [("/extensions/OMI_physics_body/physicsMaterials/0/frictionCombine", "error", "average")], {2}),
    # --- sizes, radii, heights
    "negative box side": ({SHAPES + "/0/box/size/1": -2}, [(SHAPES + "/0/box/size/1", "error", "> 0")], {2}),
    "zero box side": ({SHAPES + "/0/box/size/0": 0}, [(SHAPES + "/0/box/size/0", "error", "> 0")], {2}),
    "box size of 2 numbers": ({SHAPES + "/0/box/size": [1, 2]}, [(SHAPES + "/0/box/size", "error", "3 numbers")],
                              {2}),
    "box size as an object": (
        {SHAPES + "/0/box/size": {"x": 1}}, [(SHAPES + "/0/box/size", "error", "array")], {2}),
    "negative sphere radius": (
        {SHAPES + "/1/sphere/radius": -1}, [(SHAPES + "/1/sphere/radius", "error", "minimum")], {5}),
    "zero capsule height": (
        {SHAPES + "/2/capsule/height": 0}, [(SHAPES + "/2/capsule/height", "error", "greater than 0")], {7}),
    "negative capsule radius": (
        {SHAPES + "/2/capsule/radiusTop": -0.1}, [(SHAPES + "/2/capsule/radiusTop", "error", "minimum")], {7}),
    "string where a number is": (
        {_body(1) + "/motion/mass": "heavy"}, [(_body(1) + "/motion/mass", "error", "number")], {1}),
    "negative mass": ({_body(1) + "/motion/mass": -1}, [(_body(1) + "/motion/mass", "error", "minimum")], {1}),
    "NaN mass": ({_body(1) + "/motion/mass": math.nan}, [(_body(1) + "/motion/mass", "error", "finite")], {1}),
    "infinite velocity": (
        {_body(1) + "/motion/linearVelocity/0": math.inf}, [(_body(1) + "/motion/linearVelocity/0", "error", "finite")],
        {1}),
    "velocity of 4 numbers": (
        {_body(1) + "/motion/linearVelocity": [1, 2, 3, 4]},
        [(_body(1) + "/motion/linearVelocity", "error", "3 numbers")], {1}),
    "zero inertia orientation": (
        {_body(1) + "/motion/inertiaOrientation": [0, 0, 0, 0]},
        [(_body(1) + "/motion/inertiaOrientation", "error", "zero")], set()),
    "non-unit inertia orientation": (
        {_body(1) + "/motion/inertiaOrientation": [0, 0, 0, 2]},
        [(_body(1) + "/motion/inertiaOrientation", "warning", "normalized")], set()),
    "negative damping": (
        {JOINTS + "/0/limits/1/damping": -1}, [(JOINTS + "/0/limits/1/damping", "error", "minimum")], {3}),
    # --- limits
    "limit axis 3": ({JOINTS + "/0/limits/0/linearAxes": [0, 3]},
                     [(JOINTS + "/0/limits/0/linearAxes/1", "error", "out of range")], {3}),
    "limit axis repeated": ({JOINTS + "/0/limits/1/angularAxes": [1, 1]},
                            [(JOINTS + "/0/limits/1/angularAxes/1", "warning", "repeated")], set()),
    "limit without axes": ({JOINTS + "/0/limits/1/angularAxes": DELETE},
                           [(JOINTS + "/0/limits/1", "error", "no linearAxes")], {3}),
    "limit with empty axes": ({JOINTS + "/0/limits/1/angularAxes": []},
                              [(JOINTS + "/0/limits/1", "error", "no linearAxes")], {3}),
    "limit without min and max": (
        {JOINTS + "/0/limits/1/min": DELETE, JOINTS + "/0/limits/1/max": DELETE},
        [(JOINTS + "/0/limits/1", "error", "neither min nor max")], {3}),
    "limit min above max": ({JOINTS + "/0/limits/1/min": 2}, [(JOINTS + "/0/limits/1/min", "error", "greater")],
                            {3}),
    "negative limit stiffness means infinite": (
        {JOINTS + "/0/limits/1/stiffness": -1}, [(JOINTS + "/0/limits/1/stiffness", "info", "infinite")], {3}),
    "negative maxForce means infinite": (
        {JOINTS + "/0/drives/0/maxForce": -1}, [(JOINTS + "/0/drives/0/maxForce", "info", "infinite")], set()),
    # --- filters
    "both collision masks": (
        {FILTERS + "/0/notCollideWithSystems": ["c"]},
        [(FILTERS + "/0", "error", "both"), (_body(2) + "/collider/collisionFilter", "error", "dropped"),
         (_body(7) + "/trigger/collisionFilter", "error", "dropped")], {2, 7}),
    "both collision masks, one empty": (
        {FILTERS + "/0/notCollideWithSystems": []}, [(FILTERS + "/0", "warning", "ignored")], set()),
    "filter item not a string": (
        {FILTERS + "/0/collisionSystems": ["a", 5]}, [(FILTERS + "/0/collisionSystems/1", "error", "string")], set()),
    # --- compound triggers
    "compound member not a descendant": (
        {_body(6) + "/trigger/nodes": [7, 2]}, [(_body(6) + "/trigger/nodes/1", "error", "not a descendant")], set()),
    "compound member without trigger": (
        {"/nodes/7/children": [9], _body(6) + "/trigger/nodes": [7, 9], "/nodes/9": {"name": "Plain"}},
        [(_body(6) + "/trigger/nodes/1", "error", "no trigger shape")], set()),
    "compound member repeated": (
        {_body(6) + "/trigger/nodes": [7, 7]}, [(_body(6) + "/trigger/nodes/1", "warning", "repeated")], set()),
    "trigger with shape and nodes": (
        {_body(6) + "/trigger/shape": 1}, [(_body(6) + "/trigger/nodes", "error", "both")], {6}),
    "compound trigger with a filter": (
        {_body(6) + "/trigger/collisionFilter": 0}, [(_body(6) + "/trigger/collisionFilter", "error", "compound")],
        set()),
    "trigger with nothing to group": (
        {_body(5) + "/trigger": {}},
        [(_body(5) + "/trigger", "warning", "neither shape nor nodes"), (_body(5) + "/trigger", "error", "dropped")],
        set()),
    # --- joint nodes
    "joint without joint": ({_joint(3) + "/joint": DELETE}, [(_joint(3), "error", "no joint")], {3}),
    "joint without connectedNode": ({_joint(3) + "/connectedNode": DELETE}, [(_joint(3), "error", "connectedNode")],
                                    {3}),
    "connected node outside any body": (
        {_joint(3) + "/connectedNode": 0}, [(_joint(3) + "/connectedNode", "warning", "not inside")], {3}),
    "joint node without body ancestor": (
        {"/nodes/0/extensions": {JOINT: {"joint": 0, "connectedNode": 5}}},
        [(_joint(0), "warning", "no physics body ancestor")], {0}),
    "joint node with a mesh": ({"/nodes/3/mesh": 0}, [(_joint(3), "warning", "mesh")], set()),
    "joint node with a body": (
        {"/nodes/3/extensions/OMI_physics_body": {"collider": {"shape": 1}}},
        [(_joint(3), "warning", "physics body")], {3}),
    "first joint revision": (
        {"/extensions/OMI_physics_joint/constraints": [{}], "/extensions/OMI_physics_joint/physicsJoints": DELETE},
        [("/extensions/OMI_physics_joint/constraints", "warning", "not supported"),
         (_joint(3) + "/joint", "error", "out of range")], {3}),
    # --- wrong JSON types and truncated extension objects
    "motion not an object": ({_body(1) + "/motion": "dynamic"},
                             [(_body(1) + "/motion", "error", "object"), (_joint(3), "warning", "no physics body")],
                             {1}),
    "collider not an object": ({_body(2) + "/collider": 0}, [(_body(2) + "/collider", "error", "object")], {2}),
    "body extension not an object": ({_body(4): []}, [(_body(4), "error", "object")], {4}),
    "node extensions not an object": (
        {"/nodes/5/extensions": "x"}, [("/nodes/5/extensions", "error", "object")], {5}),
    "shape sub-object not an object": (
        {SHAPES + "/0/box": [1, 2, 3]}, [(SHAPES + "/0/box", "error", "object")], {2}),
    "shapes not an array": (
        {SHAPES: {"0": {"type": "box"}}},
        [(SHAPES, "error", "array"), (_body(2) + "/collider/shape", "error", "out of range"),
         (_body(5) + "/collider/shape", "error", "out of range"),
         (_body(7) + "/trigger/shape", "error", "out of range"),
         (_body(8) + "/collider/shape", "error", "out of range"),
         (_body(6) + "/trigger/nodes/0", "error", "no trigger shape"), (_body(6) + "/trigger", "error", "neither")],
        {2, 5, 6, 7, 8}),
    "limits not an array": ({JOINTS + "/0/limits": {"min": 0}}, [(JOINTS + "/0/limits", "error", "array")], {3}),
    "enableCollision not a boolean": (
        {_joint(3) + "/enableCollision": "yes"}, [(_joint(3) + "/enableCollision", "error", "true or false")], set()),
    "node not an object": ({"/nodes/8": 5}, [("/nodes/8", "error", "object")], {8}),
    # --- hierarchy
    "children cycle": ({"/nodes/9": {"children": [10]}, "/nodes/10": {"children": [9]}},
                       [("/nodes/10/children/0", "warning", "cycle")], set()),
    "node is its own child": ({"/nodes/8/children": [8]}, [("/nodes/8/children/0", "warning", "itself")], set()),
    "second parent": ({"/nodes/7/children": [5]}, [("/nodes/7/children/0", "warning", "parent")], set()),
    "OMI extension not listed": (
        {"/extensionsUsed": ["OMI_physics_shape", "OMI_physics_body"]},
        [("/extensionsUsed", "warning", "OMI_physics_joint")], set()),
    # --- legacy forms mixed in
    "motion type rigid": ({_body(1) + "/motion/type": "rigid"}, [(_body(1) + "/motion/type", "info", "dynamic")],
                          set()),
    "legacy type next to motion": (
        {_body(4) + "/type": "rigid"}, [(_body(4) + "/type", "warning", "ignored")], set()),
    "capsule with radius next to radiusTop": (
        {SHAPES + "/2/capsule/radius": 3}, [(SHAPES + "/2/capsule/radius", "warning", "ignored")], set()),
    "old capsule shorter than its diameter": (
        {SHAPES + "/2/capsule": {"height": 0.5, "radius": 0.5}},
        [(SHAPES + "/2/capsule", "warning", "sphere")], {7}),
}


@pytest.mark.parametrize("case", CASES, ids=list(CASES))
def test_rule(case: Any, base_doc: Any) -> None:
    edits, expected, changed = CASES[case]
    doc = reader.read_document(_edited(edits))
    _assert_issues(doc, expected)
    _assert_rest_kept(doc, base_doc, changed)


def _edited(edits: dict[str, Any]) -> dict[str, Any]:
    gltf = copy.deepcopy(BASE)
    for pointer, value in edits.items():
        if value is DELETE:
            _delete(gltf, pointer)
        elif pointer == f"/nodes/{len(gltf['nodes'])}":
            gltf["nodes"].append(value)
        else:
            _set(gltf, pointer, value)
    return gltf


def test_what_the_rules_drop(base_doc: Any) -> None:
    """The values that rules drop are really dropped, the others kept as said in the messages."""
    doc = reader.read_document(_edited({_body(2) + "/collider/shape": 9}))
    assert doc.nodes[2].collider == model.Collider(None, base_doc.nodes[2].collider.physics_material,
                                                   base_doc.nodes[2].collider.collision_filter)
    doc = reader.read_document(_edited({SHAPES + "/0/box/size/1": -2}))
    assert present(doc.nodes[2].collider).shape == model.Shape("box")
    doc = reader.read_document(_edited({_body(1) + "/motion/type": "floaty"}))
    assert present(doc.nodes[1].motion).type == "dynamic"
    doc = reader.read_document(_edited({JOINTS + "/0/drives/0/type": "spring"}))
    drive = present(doc.nodes[3].joint).settings.drives[0]  # read as the fallback, the file's spelling kept for export
    assert (drive.type, drive.unknown["type"]) == ("linear", "spring")
    doc = reader.read_document(_edited({JOINTS + "/0/limits/0/linearAxes": [0, 3]}))
    assert present(doc.nodes[3].joint).settings.limits[0].linear_axes == (0,)
    doc = reader.read_document(_edited({JOINTS + "/0/limits/1/stiffness": -1, JOINTS + "/0/drives/0/maxForce": -3}))
    assert present(doc.nodes[3].joint).settings.limits[1].stiffness is None
    assert present(doc.nodes[3].joint).settings.drives[0].max_force is None
    doc = reader.read_document(_edited({_body(6) + "/trigger/nodes": [7, 2]}))
    assert doc.nodes[6].trigger == model.Trigger(nodes=(7,))
    doc = reader.read_document(_edited({_joint(3) + "/connectedNode": 0}))
    assert present(doc.nodes[3].joint).connected_node == 0  # kept: the connected node acts as static
    doc = reader.read_document(_edited({FILTERS + "/0/notCollideWithSystems": []}))
    assert present(present(doc.nodes[2].collider).collision_filter).collide_with_systems == ("b",)
    doc = reader.read_document(_edited({SHAPES + "/2/capsule": {"height": 0.5, "radius": 0.5}}))
    assert present(doc.nodes[7].trigger).shape == model.Shape("sphere", radius=0.5)
    doc = reader.read_document(_edited({_body(1) + "/motion/inertiaOrientation": [0, 0, 0, 2]}))
    assert present(doc.nodes[1].motion).inertia_orientation == (0.0, 0.0, 0.0, 1.0)
    # components whose squares overflow a float (found by the property tests) still normalize
    doc = reader.read_document(_edited({_body(1) + "/motion/inertiaOrientation": [0, 0, 3e200, 4e200]}))
    assert present(doc.nodes[1].motion).inertia_orientation == pytest.approx((0.0, 0.0, 0.6, 0.8))


def test_base_document_values(base_doc: Any) -> None:
    assert base_doc.nodes[1].motion == model.Motion("dynamic", mass=2.0, linear_velocity=(1.0, 0.0, 0.0))
    collider = base_doc.nodes[2].collider
    assert collider.shape == model.Shape("box", size=(1.0, 2.0, 3.0))
    assert collider.physics_material == model.PhysicsMaterial(restitution=0.5, friction_combine="maximum")
    assert collider.collision_filter == model.CollisionFilter(("a",), ("b",))
    settings = base_doc.nodes[3].joint.settings
    assert settings.limits[1] == model.JointLimit(angular_axes=(1,), min=-1.0, max=1.0, stiffness=10.0, damping=0.5)
    assert settings.drives == (model.JointDrive("angular", "force", 1, velocity_target=2.0, damping=1.0),)
    assert base_doc.nodes[3].joint.connected_node == 5
    assert base_doc.nodes[6].trigger == model.Trigger(nodes=(7,))
    assert base_doc.nodes[7].trigger.collision_filter == collider.collision_filter
    assert base_doc.nodes[8].collider.shape == model.Shape("convex", mesh=0)


@pytest.mark.parametrize("document", [None, [], "glTF", 3, {"nodes": "x"}, {"nodes": [None, [], "a"]},
                                      {"extensions": []}, {"extensions": {"OMI_physics_shape": None}},
                                      {"nodes": [{"children": [0]}]}, {"nodes": [{"children": [10**400]}]}])
def test_any_input_reads_without_raising(document: Any) -> None:
    doc = reader.read_document(document)
    assert doc.nodes == {}
    assert all(reader.INTERNAL_ERROR not in issue.message for issue in doc.issues)


def test_legacy_inputs() -> None:
    gltf = {
        "extensionsUsed": ["OMI_physics_body", "OMI_physics_shape", "OMI_collider"],
        "extensions": {
            "OMI_physics_shape": {"shapes": [{"type": "capsule", "radius": 0.5, "height": 3}, {"type": "hull",
                                                                                              "mesh": 0}]},
            "OMI_collider": {"colliders": [{"type": "cylinder", "radius": 0.25, "height": 1, "isTrigger": True},
                                           {"type": "capsule", "radius": 0.5}]},
        },
        "meshes": [{"primitives": []}],
        "nodes": [
            {"children": [1, 2], "extensions": {BODY: {"type": "character", "mass": 70,
                                                       "inertiaTensor": [1, 0.5, 0, 0.5, 2, 0, 0, 0, 3]}}},
            {"extensions": {"OMI_physics_shape": {"shape": 0}}},
            {"extensions": {"OMI_collider": {"collider": 0}}},
            {"extensions": {"OMI_collider": {"collider": 1}}},
            {"extensions": {"OMI_physics_shape": {"shape": 1}}},
        ],
    }
    doc = reader.read_document(gltf)
    assert doc.nodes[0].motion == model.Motion("kinematic", mass=70.0, inertia_diagonal=(1.0, 2.0, 3.0))
    assert present(doc.nodes[1].collider).shape == model.Shape("capsule", height=2.0, radius_top=0.5, radius_bottom=0.5)
    assert present(doc.nodes[2].trigger).shape == model.Shape("cylinder", height=1.0, radius_top=0.25,
                                                              radius_bottom=0.25)
    assert present(doc.nodes[3].collider).shape == model.Shape("capsule", height=1.0, radius_top=0.5, radius_bottom=0.5)
    assert present(doc.nodes[4].collider).shape == model.Shape("convex", mesh=0)  # no body at all: a static collider
    assert doc.revisions >= {"OMI_collider", "OMI_physics_body.type", "OMI_physics_shape.flat"}
    by_pointer = {(issue.pointer, issue.severity): issue.message for issue in doc.issues}
    assert "kinematic" in by_pointer[(_body(0) + "/type", "info")]
    assert "off-diagonal" in by_pointer[(_body(0) + "/inertiaTensor", "warning")]
    assert "full-height" in by_pointer[(SHAPES + "/0", "warning")]
    assert "convex" in by_pointer[(SHAPES + "/1/type", "info")]
    assert "OMI_collider" in by_pointer[("/extensions/OMI_collider/colliders", "info")]
    assert "type" in by_pointer[(_body(0), "info")]


def test_pointers_escape_slash_and_tilde() -> None:
    assert json_types.pointer("nodes", "a/b~c", 0) == "/nodes/a~1b~0c/0"
    assert json_types.join("/extensions", "x~/") == "/extensions/x~0~1"
    issues: list[Any] = []
    assert json_types.float_or("1", 2.0, json_types.pointer("a/b"), issues) == 2.0
    assert [issue.pointer for issue in issues] == ["/a~1b"]


def test_token_pointers_become_text_only_in_issues() -> None:
    """The reader's pointers are token tuples; an Issue always carries the same RFC 6901 text."""
    at = json_types.join(json_types.join(json_types.ROOT, "nodes", 3), "a/b~c")
    assert at == ("nodes", 3, "a/b~c")
    assert json_types.pointer_text(at) == json_types.join("", "nodes", 3, "a/b~c") == "/nodes/3/a~1b~0c"
    assert json_types.pointer_text(json_types.ROOT) == ""
    issues: list[Any] = []
    json_types.vec_or([1.0, "x", 3.0], 3, None, at, issues)
    json_types.report(issues, json_types.ROOT, "whole document")
    assert [issue.pointer for issue in issues] == ["/nodes/3/a~1b~0c/1", ""]
    assert all(isinstance(issue.pointer, str) for issue in issues)


def test_validate_returns_the_reading_issues() -> None:
    gltf = json.loads(json.dumps(BASE))
    gltf["nodes"][1]["extensions"][BODY]["motion"]["mass"] = -1
    assert [issue.pointer for issue in reader.validate(gltf)] == [_body(1) + "/motion/mass"]
