"""The vehicle, seat and spawn point units through Blender's own glTF importer and exporter: each spec
example imports into the units' settings and exports back unchanged in meaning; an extension nobody here
reads is kept on its object, written back as it was, and named once on import."""

from __future__ import annotations

import json
from pathlib import Path

import addon_loader
import animation_support
import export_support
import import_support
import omi_core.checks.canonical
import omi_core.dialects.pointers
import omi_core.dialects.registry
import pytest
from present import present

EXAMPLES = Path(__file__).resolve().parents[2] / "data" / "omi_vehicles"
FILES = sorted(EXAMPLES.glob("*/examples/*.gltf"))


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.name)
def test_an_example_imports_into_settings_and_exports_unchanged_in_meaning(omi_addon, path, tmp_path):
    gltf = json.loads(path.read_text())
    imported = import_support.import_gltf(path)
    assert imported.failures == []
    assert [text for text in imported.warnings if "OMI_vehicle" in text or "OMI_seat" in text or "spawn" in text] == []
    exported = export_support.export(tmp_path, fmt="GLTF_SEPARATE", check=False)
    assert omi_core.checks.canonical.diff_physics(gltf, exported.gltf) == []
    assert present(omi_core.dialects.registry.default().schema_check)(exported.gltf, None, False) == []


def test_the_car_holds_its_settings(omi_addon):
    import_support.import_gltf(next(path for path in FILES if path.name == "simple_car.gltf"))
    units = addon_loader.module("properties.units")
    car = import_support.Imported(set(), []).obj("SimpleCar")
    body = next(binding for binding in units.BINDINGS if binding.attr == "vehicle_body")
    wheel = next(binding for binding in units.BINDINGS if binding.attr == "vehicle_wheel")
    settings = units.settings_of(car, body)
    assert settings.enabled and settings.pilot_seat.name == "SeatPilot"
    front = units.settings_of(import_support.Imported(set(), []).obj("WheelFrontLeft"), wheel)
    assert front.enabled and front.radius == pytest.approx(0.35) and front.max_steering_angle == pytest.approx(0.5)


def test_an_unknown_extension_round_trips_with_one_info_line(omi_addon, tmp_path):
    gltf = json.loads(next(path for path in FILES if path.name == "spawn_point.gltf").read_text())
    gltf["nodes"][1]["extensions"]["EXT_unknown_thing"] = {"a": [1, 2], "b": {"c": "d"}}
    gltf["nodes"][0].setdefault("extensions", {})["EXT_unknown_thing"] = {"root": True}
    gltf["extensionsUsed"].append("EXT_unknown_thing")
    source = import_support.write_gltf(tmp_path, "unknown", gltf)
    imported = import_support.import_gltf(source)
    kept = [note for note in imported.notes if "EXT_unknown_thing" in note]
    assert len(kept) == 1 and "kept, not edited" in kept[0] and "(2 nodes)" in kept[0]
    exported = export_support.export(tmp_path, "out", check=False)
    by_name = {node.get("name"): node for node in exported.nodes}
    assert by_name["SpawnPoint"]["extensions"]["EXT_unknown_thing"] == {"a": [1, 2], "b": {"c": "d"}}
    assert by_name[gltf["nodes"][0]["name"]]["extensions"]["EXT_unknown_thing"] == {"root": True}
    assert "EXT_unknown_thing" in exported.gltf["extensionsUsed"]


def test_unknown_document_extensions_of_a_spec_example_round_trip(omi_addon, tmp_path):
    path = next(path for path in FILES if path.name == "hovercraft.gltf")
    gltf = json.loads(path.read_text())
    imported = import_support.import_gltf(path)
    kept = [note for note in imported.notes if "kept, not edited" in note]
    assert len(kept) == 1 and "KHR_xmp_json_ld (the document)" in kept[0]
    assert [note for note in imported.notes if "GODOT_single_root: listed in extensionsUsed with no data" in note]
    exported = export_support.export(tmp_path, "again", check=False)
    assert exported.gltf["extensions"]["KHR_xmp_json_ld"] == gltf["extensions"]["KHR_xmp_json_ld"]
    assert "KHR_xmp_json_ld" in exported.gltf["extensionsUsed"]


def test_a_keyed_throttle_exports_and_imports_through_the_animation_pointer(omi_addon, tmp_path):
    """The vehicle body's linearActivation (the throttle), keyed in Blender, becomes a KHR_animation_pointer
    channel from the unit's Object Model rows, and imports back as keys on the same setting."""
    import_support.import_gltf(next(path for path in FILES if path.name == "simple_car.gltf"))
    units, curves = addon_loader.module("properties.units"), addon_loader.module("io.blender.animation.curves")
    body = next(binding for binding in units.BINDINGS if binding.attr == "vehicle_body")
    bpy = pytest.importorskip("bpy")
    car = bpy.data.objects["SimpleCar"]
    settings = units.settings_of(car, body)
    for frame, throttle in ((1, 0.0), (25, 1.0)):
        settings.linear_activation = (0.0, 0.0, throttle)
        settings.keyframe_insert("linear_activation", frame=frame)
    animation_support.set_interpolation('LINEAR')
    exported = export_support.export(tmp_path, "keyed", check=False)
    pointer = f"/nodes/{exported.index('SimpleCar')}/extensions/OMI_vehicle_body/linearActivation"
    found = animation_support.channels(exported)
    assert list(found) == [pointer]
    assert found[pointer]["values"] == [[0.0, 0.0, 0.0], [0.0, 0.0, 1.0]]
    assert found[pointer]["times"] == pytest.approx([1 / 24, 25 / 24])  # frames 1 and 25 at 24 fps
    assert omi_core.dialects.pointers.check_animation(exported.gltf) == []

    imported = import_support.import_gltf(exported.path)
    assert [text for text in imported.warnings if "linearActivation" in text] == []
    car = bpy.data.objects["SimpleCar"]
    keyed = {(fcurve.data_path, fcurve.array_index): [tuple(point.co) for point in fcurve.keyframe_points]
             for fcurve in curves.fcurves(car)}
    assert keyed[("omi_physics.units.vehicle_body.linear_activation", 2)] == [(1.0, 0.0), (25.0, 1.0)]


def test_a_khr_export_names_each_unit_it_cannot_hold_once(omi_addon, tmp_path):
    import_support.import_gltf(next(path for path in FILES if path.name == "simple_car.gltf"))
    bpy = pytest.importorskip("bpy")
    bpy.context.scene.omi_physics.export_dialect = "KHR"
    exported = export_support.export(tmp_path, "khr", check=False)
    lost = [text for text in exported.messages if "no counterpart in this dialect" in text]
    assert len(lost) == 3  # seats, wheels, the vehicle body: one line each, naming the objects
    assert any("'SeatBackLeft', 'SeatBackRight', 'SeatPassenger', 'SeatPilot'" in text for text in lost)
    assert not any(name.startswith("OMI_") for name in exported.gltf["extensionsUsed"])
