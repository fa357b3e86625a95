"""The vehicle, seat and spawn point extension units (io/omi/units): the spec examples read, validate and
write back unchanged in meaning; legacy names, placement rules and ranges are said; the Object Model rows are
the READMEs' tables; what KHR cannot hold is named."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from omi_core.checks import canonical
from omi_core.cli import upgrade_file
from omi_core.dialects import pointers, registry
from omi_core.read import reader
from omi_core.targets import godot
from omi_core.write import target_form, writer
from present import present

EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "omi_vehicles"
FILES = sorted(EXAMPLES.glob("*/examples/*.gltf"))
UNITS = ("OMI_seat", "OMI_spawn_point", "OMI_vehicle_body", "OMI_vehicle_wheel", "OMI_vehicle_thruster",
         "OMI_vehicle_hover_thruster")


def load(name: str) -> dict[str, Any]:
    value: dict[str, Any] = json.loads(next(path for path in FILES if path.name == name).read_text())
    return value


def test_every_unit_is_registered_with_the_default_dialect() -> None:
    assert len(FILES) == 13
    assert all(present(registry.extension_unit(name)).dialect == registry.default().name for name in UNITS)
    assert set(UNITS) <= set(registry.owned_names(registry.default().name))


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.name)
def test_an_example_reads_validates_and_writes_back_unchanged_in_meaning(path: Any) -> None:
    gltf = json.loads(path.read_text())
    doc = reader.read_document(gltf)
    assert doc.issues == [] and reader.validate(gltf) == []
    assert any(doc.nodes[index].extensions for index in doc.nodes)
    issues: list[Any] = []
    written = writer.write_document(doc, gltf, issues=issues)
    assert issues == []
    assert canonical.diff_physics(gltf, written) == []
    assert present(registry.default().schema_check)(written, None, False) == []
    used = {name for node in gltf["nodes"] for name in (node.get("extensions") or {})} & set(UNITS)
    assert used <= set(written["extensionsUsed"])


def test_the_canonical_form_holds_each_units_values() -> None:
    form = canonical.canonical_physics(load("simple_car.gltf"))
    car = form["nodes"]["SimpleCar"]
    assert car["OMI_vehicle_body"]["pilotSeat"] == "SimpleCar/SeatPilot"
    assert form["nodes"]["SimpleCar/WheelFrontLeft"]["OMI_vehicle_wheel"]["maxSteeringAngle"] == 0.5
    changed = load("simple_car.gltf")
    changed["extensions"]["OMI_vehicle_wheel"]["wheels"][0]["radius"] = 0.4
    assert canonical.diff_physics(load("simple_car.gltf"), changed) == [
        f"SimpleCar/{name}.OMI_vehicle_wheel.radius: 0.35 != 0.4" for name in ("WheelFrontLeft", "WheelFrontRight")]


def test_legacy_names_are_read_as_the_current_ones_with_one_warning_and_written_current() -> None:
    gltf = load("simple_car.gltf")
    wheels = gltf["extensions"]["OMI_vehicle_wheel"]["wheels"]
    wheels[1] = {"radius": 0.35, "maxForce": 2000, "currentForceRatio": 0.5}
    wheels[0]["currentSteeringRatio"] = -0.25
    doc = reader.read_document(gltf)
    legacy = [issue for issue in doc.issues if "before the 2026 rename" in issue.message]
    assert len(legacy) == 1 and legacy[0].severity == "warning" and "(1 more like it)" in legacy[0].message
    written = writer.write_document(doc, gltf)["extensions"]["OMI_vehicle_wheel"]["wheels"]
    assert {"maxPropulsionForce": 2000.0, "radius": 0.35, "targetPropulsionForceRatio": 0.5} in written
    assert {"maxSteeringAngle": 0.5, "radius": 0.35, "targetSteeringRatio": -0.25} in written


def test_old_thruster_names_are_read_too() -> None:
    gltf = load("simple_spaceship.gltf")
    gltf["extensions"]["OMI_vehicle_thruster"]["thrusters"][0]["currentForceRatio"] = 0.75
    doc = reader.read_document(gltf)
    assert [issue.kind for issue in doc.issues] == ["OMI_vehicle_thruster:legacy"]
    written = writer.write_document(doc, gltf)
    assert any(entry.get("targetForceRatio") == 0.75 for entry in written["extensions"]["OMI_vehicle_thruster"]
               ["thrusters"])


def test_a_part_not_below_a_vehicle_body_is_kept_and_said_once() -> None:
    gltf = load("simple_car.gltf")
    del gltf["nodes"][0]["extensions"]["OMI_vehicle_body"]
    doc = reader.read_document(gltf)
    placement = [issue for issue in doc.issues if issue.kind == "OMI_vehicle_wheel:placement"]
    assert len(placement) == 1 and "(3 more like it)" in placement[0].message
    assert sum("OMI_vehicle_wheel" in physics.extensions for physics in doc.nodes.values()) == 4


def test_a_pilot_seat_that_is_no_seat_is_dropped_and_said() -> None:
    gltf = load("simple_car.gltf")
    gltf["nodes"][0]["extensions"]["OMI_vehicle_body"]["pilotSeat"] = 1  # a collider
    doc = reader.read_document(gltf)
    assert [issue.pointer for issue in doc.issues] == ["/nodes/0/extensions/OMI_vehicle_body/pilotSeat"]
    assert doc.nodes[0].extensions["OMI_vehicle_body"].pilot_seat is None
    assert "pilotSeat" not in writer.write_document(doc, gltf)["nodes"][0]["extensions"]["OMI_vehicle_body"]


def test_ranges_and_required_values_are_checked() -> None:
    gltf = load("simple_spaceship.gltf")
    thrusters = gltf["extensions"]["OMI_vehicle_thruster"]["thrusters"]
    thrusters[0]["maxGimbal"] = 4.0
    thrusters[1]["targetGimbalRatio"] = [0.0, 2.0]
    del thrusters[2]["maxForce"]
    gltf["nodes"][6]["extensions"]["OMI_seat"].pop("knee")
    found = {issue.pointer: issue for issue in reader.read_document(gltf).issues}
    assert "above the maximum" in found["/extensions/OMI_vehicle_thruster/thrusters/0/maxGimbal"].message
    assert "above the maximum" in found["/extensions/OMI_vehicle_thruster/thrusters/1/targetGimbalRatio"].message
    assert found["/extensions/OMI_vehicle_thruster/thrusters/2/maxForce"].severity == "error"
    assert "dropped" in found["/nodes/6/extensions/OMI_seat/knee"].message
    assert "no usable OMI_seat" in found["/nodes/0/extensions/OMI_vehicle_body/pilotSeat"].message


def test_the_schema_check_finds_what_the_units_schemas_reject() -> None:
    gltf = load("simple_car.gltf")
    gltf["extensions"]["OMI_vehicle_wheel"]["wheels"][0]["radius"] = -1
    gltf["extensionsUsed"].remove("OMI_seat")
    found = [str(issue) for issue in present(registry.default().schema_check)(gltf, None, False)]
    assert any(text.startswith("/extensions/OMI_vehicle_wheel/wheels/0/radius") for text in found)
    assert "/extensionsUsed: OMI_seat is used but not listed" in found


# The READMEs' Object Model tables (mutable rows; read-only lengths and indices are not animated).
SPEC_ROWS = {
    "OMI_seat": {("angle", "float"), ("back", "float3"), ("foot", "float3"), ("knee", "float3")},
    "OMI_spawn_point": set(),
    "OMI_vehicle_body": {("angularActivation", "float3"), ("linearActivation", "float3"), ("gyroTorque", "float3"),
                         ("maxSpeed", "float"), ("angularDampeners", "bool"), ("linearDampeners", "bool"),
                         ("useThrottle", "bool")},
    "OMI_vehicle_wheel": {(key, "float") for key in (
        "brakingForce", "maxPropulsionForce", "maxSteeringAngle", "propulsionForceChangeRate", "radius",
        "steeringChangeRate", "suspensionDampingCompression", "suspensionDampingRebound", "suspensionStiffness",
        "suspensionTravel", "width", "targetPropulsionForceRatio", "targetSteeringRatio")},
    "OMI_vehicle_thruster": {*((key, "float") for key in ("gimbalChangeRate", "forceChangeRate",
                                                         "linearGimbalAdjustRatio", "maxForce", "maxGimbal",
                                                         "targetForceRatio")), ("targetGimbalRatio", "float2")},
    "OMI_vehicle_hover_thruster": {*((key, "float") for key in ("gimbalChangeRate", "hoverEnergyChangeRate",
                                                               "linearGimbalAdjustRatio", "maxGimbal",
                                                               "maxHoverEnergy", "targetHoverRatio")),
                                   ("targetGimbalRatio", "float2")},
}


@pytest.mark.parametrize("name", UNITS)
def test_the_object_model_rows_are_the_readmes_tables(name: Any) -> None:
    rows = present(registry.extension_unit(name)).pointers
    assert {(row.path[-1], row.type) for row in rows} == SPEC_ROWS[name]
    for row in rows:
        assert present(pointers.match(pointers.pointer_of(row, 0))).template == row


def test_an_animated_throttle_channel_is_checked_against_its_row() -> None:
    gltf = load("simple_car.gltf")
    gltf["accessors"] += [{"componentType": 5126, "count": 2, "type": "SCALAR"},
                          {"componentType": 5126, "count": 2, "type": "VEC3"}]
    time, value = len(gltf["accessors"]) - 2, len(gltf["accessors"]) - 1
    gltf["animations"] = [{"channels": [{"sampler": 0, "target": {"path": "pointer", "extensions": {
        "KHR_animation_pointer": {"pointer": "/nodes/0/extensions/OMI_vehicle_body/linearActivation"}}}}],
        "samplers": [{"input": time, "output": value}]}]
    assert pointers.check_animation(gltf) == []
    gltf["animations"][0]["channels"][0]["target"]["extensions"]["KHR_animation_pointer"]["pointer"] = \
        "/extensions/OMI_vehicle_wheel/wheels/0/targetSteeringRatio"
    assert [issue.message for issue in pointers.check_animation(gltf)] == [
        "/extensions/OMI_vehicle_wheel/wheels/0/targetSteeringRatio is a float; its sampler's output accessor is "
        "VEC3, not SCALAR"]


def test_khr_names_each_unit_it_cannot_hold() -> None:
    gltf = load("simple_car.gltf")
    issues: list[Any] = []
    khr = next(name for name in registry.names() if name != registry.default().name)
    writer.write_document(reader.read_document(gltf), gltf, [khr], issues=issues)
    lost = {issue.pointer.split("/")[-1] for issue in issues if issue.kind == "khr_unit_cannot_hold"}
    assert lost == {"OMI_vehicle_body", "OMI_seat", "OMI_vehicle_wheel"}


def test_an_unknown_node_extension_and_unknown_keys_round_trip() -> None:
    gltf = load("spawn_point.gltf")
    gltf["nodes"][1]["extensions"]["EXT_unknown_thing"] = {"a": [1, 2]}
    gltf["nodes"][1]["extensions"]["OMI_spawn_point"]["colour"] = "red"
    doc = reader.read_document(copy.deepcopy(gltf))
    written = writer.write_document(doc, gltf)
    assert written["nodes"][1]["extensions"] == gltf["nodes"][1]["extensions"]


# --- no extension unit's name outside its unit ---------------------------------------------------------------

ROOT = Path(__file__).resolve().parents[3]
ADDON_DIRS = ("io", "properties", "operators", "panels", "viewport")


def spelled(path: Path, names: set[str]) -> list[tuple[int, str]]:
    """String constants (docstrings and comments aside) that hold one of `names`."""
    import ast
    tree = ast.parse(path.read_text())
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef) and node.body
                  and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
            and any(name in node.value for name in names)]


def test_no_unit_name_outside_its_unit() -> None:
    """Import, export, validate, properties, panels and operators find the units in the registry."""
    names = {unit.name for unit in registry.extension_units() if unit.name in UNITS}
    sources = [path for path in sorted(ROOT.glob("**/*.py")) if path.relative_to(ROOT).parts[0] in ADDON_DIRS
               and not any(part.startswith(".") for part in path.relative_to(ROOT).parts)]
    assert len(sources) > 100 and len(names) == 6
    found = {str(path.relative_to(ROOT)): hits for path in sources
             if path.relative_to(ROOT).parts[:3] != ("io", "omi", "units") and (hits := spelled(path, names))}
    assert found == {}


def test_the_unit_name_check_sees_a_spelled_name(tmp_path: Path) -> None:
    module = tmp_path / "module.py"
    module.write_text('if name == "OMI_seat" or text == f"a {x} OMI_vehicle_wheel":\n    pass\n')
    assert [line for line, _text in spelled(module, {"OMI_seat", "OMI_vehicle_wheel"})] == [1, 1]


def test_the_godot_target_names_what_godot_core_ignores_of_each_unit() -> None:
    gltf = load("simple_car.gltf")
    issues = target_form.apply_json(gltf, registry.target(godot.NAME).form)
    lines = [issue.message for issue in issues if issue.kind == "godot"]
    assert any("ignores seats (omi-godot reads them): 'SeatBackLeft'" in line for line in lines)
    assert sum("vehicle wheels" in line for line in lines) == 1  # one line per kind, naming the four wheels


def test_a_conversion_says_each_unit_it_cannot_hold_once() -> None:
    gltf = load("simple_car.gltf")
    issues: list[Any] = []
    khr = next(name for name in registry.names() if name != registry.default().name)
    writer.write_document(reader.read_document(gltf), gltf, [khr], issues=issues)
    seats = [issue.message for issue in issues if "OMI_seat" in issue.message]
    assert seats == ["the seat (OMI_seat) has no counterpart in this dialect: not written (and 3 more nodes)"]


def test_the_legacy_keys_are_in_the_registry_for_an_older_reader() -> None:
    """omi-godot reads the names from before the 2026 rename: a target for it finds them in the registry."""
    wheel = registry.extension_unit("OMI_vehicle_wheel")
    older = {current: old for old, current in present(wheel).legacy_keys.items()}
    assert older == {"maxPropulsionForce": "maxForce", "targetPropulsionForceRatio": "currentForceRatio",
                     "targetSteeringRatio": "currentSteeringRatio"}
    thruster = present(registry.extension_unit("OMI_vehicle_thruster"))
    assert thruster.legacy_keys["currentGimbalRatio"] == "targetGimbalRatio"
    assert present(wheel).arrays == ("wheels",)


def test_legacy_names_are_a_revision_upgrade_rewrites() -> None:
    gltf = load("simple_car.gltf")
    gltf["extensions"]["OMI_vehicle_wheel"]["wheels"][1] = {"radius": 0.35, "maxForce": 2000}
    doc = reader.read_document(gltf)
    assert upgrade_file.legacy_revisions(doc.revisions) == ["OMI_vehicle_wheel.legacy"]
    assert upgrade_file.legacy_revisions(reader.read_document(load("simple_car.gltf")).revisions) == []


def test_an_object_of_all_defaults_is_written_stated() -> None:
    """Blender's exporter drops an empty object: a vehicle body of defaults states its first default."""
    gltf = load("minimal_vehicle_body.gltf")
    gltf["nodes"][0]["extensions"]["OMI_vehicle_body"] = {}
    gltf["nodes"][1]["extensions"]["OMI_spawn_point"] = {}
    gltf["extensionsUsed"].append("OMI_spawn_point")
    written = writer.write_document(reader.read_document(gltf), gltf)
    assert written["nodes"][0]["extensions"]["OMI_vehicle_body"] == {"angularActivation": [0.0, 0.0, 0.0]}
    assert written["nodes"][1]["extensions"]["OMI_spawn_point"] == {"extras": {}}
    assert canonical.diff_physics(gltf, written) == []
