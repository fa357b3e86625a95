"""OMI_physics_gravity in the pure core: the spec's examples read, written back with the same gravity JSON and
schema-valid; the spec's rules (base trigger only, line points, normalised direction, required values) each
reported with its pointer; the writer omits defaults and always writes the per-type object the schema needs."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from omi_core import gravity_field, model
from omi_core.checks import canonical, schema
from omi_core.read import reader
from omi_core.write import dialect_convert, writer
from omi_core_loader import SPEC_DIR

EXAMPLES = sorted((SPEC_DIR / "OMI_physics_gravity" / "examples").glob("*/*.gltf"))
GRAVITY = "OMI_physics_gravity"


def _gravity_json(gltf: dict[str, Any]) -> dict[str, Any]:
    """The document's gravity objects by node name, shaped gravity's shape index replaced by the shape's type
    (the shape's values are compared by the canonical form, which reads `{}` and the default size alike)."""
    shapes = gltf.get("extensions", {}).get("OMI_physics_shape", {}).get("shapes", [])
    found = {"world": gltf.get("extensions", {}).get(GRAVITY)}
    for node in gltf.get("nodes", []):
        content = copy.deepcopy(node.get("extensions", {}).get(GRAVITY))
        if content is not None and "shaped" in content:
            content["shaped"]["shape"] = shapes[content["shaped"]["shape"]]["type"]
        if content is not None:
            found[node["name"]] = content
    return found


def _numbers_as_floats(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _numbers_as_floats(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_numbers_as_floats(item) for item in value]
    return float(value) if isinstance(value, int) and not isinstance(value, bool) else value


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda path: path.name)
def test_spec_examples_write_back_the_same_gravity(path: Any) -> None:
    gltf = json.loads(path.read_text(encoding="utf-8"))
    doc = reader.read_document(gltf)
    assert [str(found) for found in doc.issues if found.severity != "info"] == []
    assert any(physics.gravity is not None for physics in doc.nodes.values())
    written = writer.write_document(doc, gltf)
    assert _numbers_as_floats(_gravity_json(written)) == _numbers_as_floats(_gravity_json(gltf))
    assert canonical.diff_physics(gltf, written) == []
    assert GRAVITY in written["extensionsUsed"]
    if schema.unavailable_reason() is None:
        assert [str(found) for found in schema.schema_errors(written)] == []


def test_earth_is_a_point_volume_in_zero_world_gravity() -> None:
    gltf = json.loads((SPEC_DIR / "OMI_physics_gravity/examples/earth_millionth_scale/earth_millionth_scale.gltf")
                      .read_text(encoding="utf-8"))
    doc = reader.read_document(gltf)
    assert doc.gravity == model.WorldGravity(0.0)
    (volume,) = [physics.gravity for physics in doc.nodes.values() if physics.gravity is not None]
    assert (volume.type, volume.gravity, volume.unit_distance) == ("point", 9.80665, 6.37814)
    assert canonical.canonical_physics(gltf)["gravity"] == {"vector": [0.0, 0.0, 0.0]}
    flipped = copy.deepcopy(gltf)
    flipped["extensions"][GRAVITY] = {"gravity": -2.0, "direction": [0.0, 1.0, 0.0]}
    gltf["extensions"][GRAVITY] = {"gravity": 2.0}
    assert canonical.diff_physics(gltf, flipped) == []


def _document(node_gravity: dict[str, Any], body: dict[str, Any] | None = None, *, world: dict[str,
              Any] | None = None, members: bool = False) -> Any:
    body = body if body is not None else {"trigger": {"shape": 0}}
    nodes: list[dict[str, Any]] = [{"name": "Volume", "extensions": {"OMI_physics_body": body, GRAVITY: node_gravity}}]
    if members:
        nodes = [{"name": "Compound", "children": [1], "extensions": {"OMI_physics_body": {"trigger": {"nodes": [1]}}}},
                 {"name": "Member", "extensions": {"OMI_physics_body": {"trigger": {"shape": 0}},
                                                   GRAVITY: node_gravity}}]
    extensions = {"OMI_physics_shape": {"shapes": [{"type": "sphere", "sphere": {"radius": 2.0}}]}}
    if world is not None:
        extensions[GRAVITY] = world
    return {"asset": {"version": "2.0"}, "extensionsUsed": ["OMI_physics_shape", "OMI_physics_body", GRAVITY],
            "extensions": extensions, "nodes": nodes, "scenes": [{"nodes": [0]}], "scene": 0}


POINTER = f"/nodes/0/extensions/{GRAVITY}"
RULES = {  # case -> (document, pointer of the finding, words of its message, the volume is kept)
    "on a collider": (_document({"type": "point", "gravity": 1.0, "point": {}}, {"collider": {"shape": 0}}),
                      POINTER, "not a trigger", False),
    "on a trigger with motion": (_document({"type": "point", "gravity": 1.0, "point": {}},
                                           {"trigger": {"shape": 0}, "motion": {"type": "static"}}),
                                 POINTER, "base trigger", False),
    "on a compound's member": (_document({"type": "point", "gravity": 1.0, "point": {}}, members=True),
                               f"/nodes/1/extensions/{GRAVITY}", "member of a compound", False),
    "line of 4 numbers": (_document({"type": "line", "gravity": 1.0, "line": {"points": [0, 0, 0, 1]}}),
                          f"{POINTER}/line/points", "multiple of 3", False),
    "line of 1 point": (_document({"type": "line", "gravity": 1.0, "line": {"points": [0, 0, 0]}}),
                        f"{POINTER}/line/points", "at least 6", False),
    "direction not normalised": (_document({"type": "directional", "gravity": 1.0,
                                            "directional": {"direction": [0, -2, 0]}}),
                                 f"{POINTER}/directional/direction", "normalised", True),
    "world direction not normalised": (_document({"type": "point", "gravity": 1.0, "point": {}},
                                                 world={"gravity": 9.8, "direction": [0, 0, 0.5]}),
                                       f"/extensions/{GRAVITY}/direction", "normalised", True),
    "no gravity": (_document({"type": "point", "point": {}}), f"{POINTER}/gravity", "required", False),
    "unknown type": (_document({"type": "spiral", "gravity": 1.0}), f"{POINTER}/type", "not one of", False),
    "fractional priority": (_document({"type": "point", "gravity": 1.0, "priority": 1.5, "point": {}}),
                            f"{POINTER}/priority", "integer", True),
    "shaped without shape": (_document({"type": "shaped", "gravity": 1.0, "shaped": {}}),
                             f"{POINTER}/shaped/shape", "required", False),
}


@pytest.mark.parametrize("case", RULES)
def test_each_rule_is_reported_with_its_pointer(case: Any) -> None:
    gltf, pointer, words, kept = RULES[case]
    doc = reader.read_document(gltf)
    found = [issue for issue in doc.issues if issue.pointer == pointer]
    assert found and words in found[0].message, [str(issue) for issue in doc.issues]
    assert any(physics.gravity is not None for physics in doc.nodes.values()) == kept


def test_a_compound_trigger_root_may_carry_gravity() -> None:
    gltf = _document({"type": "point", "gravity": 1.0, "point": {}}, members=True)
    moved = gltf["nodes"][1]["extensions"].pop(GRAVITY)
    gltf["nodes"][0]["extensions"][GRAVITY] = moved
    doc = reader.read_document(gltf)
    assert doc.nodes[0].gravity is not None and doc.issues == []


def test_writer_omits_defaults_and_states_an_empty_type_object() -> None:
    trigger = model.Trigger(model.Shape("sphere"))
    cases = {
        model.GravityVolume("directional", 9.8): {"type": "directional", "gravity": 9.8,
                                                   "directional": {"direction": [0.0, -1.0, 0.0]}},
        model.GravityVolume("point", 5.0, unit_distance=2.0, priority=-1000, replace=True, stop=True):
            {"type": "point", "gravity": 5.0, "priority": -1000, "replace": True, "stop": True,
             "point": {"unitDistance": 2.0}},
        model.GravityVolume("torus", 0.0, radius=3.0): {"type": "torus", "gravity": 0.0, "torus": {"radius": 3.0}},
        model.GravityVolume("line", 1.0, points=(0, 0, 0, 0, 1, 0)):
            {"type": "line", "gravity": 1.0, "line": {"points": [0.0, 0.0, 0.0, 0.0, 1.0, 0.0]}},
    }
    for volume, wanted in cases.items():
        doc = model.PhysicsDocument({0: model.NodePhysics(trigger=trigger, gravity=volume)})
        written = writer.write_document(doc, {"asset": {"version": "2.0"}, "nodes": [{}]})
        assert written["nodes"][0]["extensions"][GRAVITY] == wanted
        if schema.unavailable_reason() is None:
            assert schema.schema_errors(written) == []


def test_writer_refuses_what_the_schema_cannot_take() -> None:
    trigger = model.Trigger(model.Shape("sphere"))
    for node in (model.NodePhysics(trigger=trigger, gravity=model.GravityVolume("line", 1.0, points=(1, 2, 3))),
                 model.NodePhysics(collider=model.Collider(model.Shape("box")),
                                   gravity=model.GravityVolume("point", 1.0))):
        issues: list[Any] = []
        written = writer.write_document(model.PhysicsDocument({0: node}), {"asset": {"version": "2.0"},
                                                                          "nodes": [{}]}, issues=issues)
        assert GRAVITY not in written["nodes"][0].get("extensions", {})
        assert GRAVITY not in written.get("extensionsUsed", [])
        assert [issue.pointer.startswith(f"/nodes/0/extensions/{GRAVITY}") for issue in issues] == [True]


def test_unknown_keys_are_kept() -> None:
    gltf = _document({"type": "disc", "gravity": 2.0, "disc": {"radius": 4.0, "falloff": "smooth"}, "mass": 3},
                     world={"gravity": 9.8, "vendorKey": 1})
    written = writer.write_document(reader.read_document(gltf), gltf)
    assert written["nodes"][0]["extensions"][GRAVITY] == gltf["nodes"][0]["extensions"][GRAVITY]
    assert written["extensions"][GRAVITY] == {"gravity": 9.8, "vendorKey": 1}


def test_converting_to_khr_names_every_gravity_it_drops() -> None:
    convert = dialect_convert
    gltf = _document({"type": "point", "gravity": 1.0, "point": {}}, world={"gravity": 3.0})
    there = convert.convert(gltf, "KHR")
    assert GRAVITY not in json.dumps(there.document)
    assert {found.pointer for found in there.lost} == {POINTER, f"/extensions/{GRAVITY}"}


FIELD = {  # volume, point (the node's frame), acceleration: the engine's cases (tests/engine/test_engine_gravity.py)
    "directional": (model.GravityVolume("directional", 2.0, direction=(1.0, 0.0, 0.0)), (5, 5, 5), (2.0, 0.0, 0.0)),
    "point, constant": (model.GravityVolume("point", 5.0), (0, 0, -4), (0.0, 0.0, 5.0)),
    "point, inverse square": (model.GravityVolume("point", 8.0, unit_distance=10.0), (20, 0, 0), (-2.0, 0.0, 0.0)),
    "disc, above": (model.GravityVolume("disc", 3.0, radius=5.0), (1, 2, 1), (0.0, -3.0, 0.0)),
    "disc, beyond the rim": (model.GravityVolume("disc", 3.0), (4, 0, 0), (-3.0, 0.0, 0.0)),
    "torus, inside the ring": (model.GravityVolume("torus", 3.0, radius=5.0), (1, 0, 0), (3.0, 0.0, 0.0)),
    "line": (model.GravityVolume("line", 2.0, points=(0, -5, 0, 0, 5, 0)), (0, 1, 3), (0.0, 0.0, -2.0)),
    "shaped box": (model.GravityVolume("shaped", 4.0, shape=model.Shape("box", size=(2.0, 2.0, 2.0))), (0, 3, 0),
                   (0.0, -4.0, 0.0)),
    "negative pushes away": (model.GravityVolume("point", -1.0), (2, 0, 0), (1.0, 0.0, 0.0)),
}


@pytest.mark.parametrize("case", FIELD)
def test_the_field_pulls_towards_the_nearest_point(case: Any) -> None:
    field = gravity_field
    volume, point, expected = FIELD[case]
    assert field.acceleration(volume, point) == pytest.approx(expected)
