"""A toy extension (tests/blender/toy_extension: its unit, properties file and panel file) goes through import,
export, validate, convert (KHR and the Godot target) and the UI with one registration call, and touches no
file of the add-on."""

from __future__ import annotations

import json
import types
from pathlib import Path

import addon_loader
import animation_support
import bpy
import export_support as support
import import_support
import omi_core.dialects.registry
import omi_core.read.reader
import omi_core.targets.godot
import omi_core.write.target_form
import omi_core.write.writer
import pytest
from ui_recorder import Recorder

ROOT = Path(__file__).resolve().parents[3]
ADDON_DIRS = ("io", "properties", "operators", "panels", "viewport")


@pytest.fixture
def toy(omi_addon):
    from toy_extension import panel, properties, unit  # after the add-on is enabled: it reads its modules
    units_panels = addon_loader.module("panels.units")
    units_panels.register_unit(unit.UNIT, properties.BINDING)  # the one registration line
    yield types.SimpleNamespace(unit=unit, binding=properties.BINDING, panel=panel)
    units_panels.unregister_unit(properties.BINDING)


def test_the_toy_touches_no_file_of_the_add_on():
    toy_files = sorted(path.name for path in (Path(__file__).parents[1] / "toy_extension").glob("*.py"))
    assert toy_files == ["__init__.py", "panel.py", "properties.py", "unit.py"]
    sources = [path for path in ROOT.glob("**/*.py") if path.relative_to(ROOT).parts[0] in ADDON_DIRS
               and not any(part.startswith(".") for part in path.relative_to(ROOT).parts)]
    touched = [path for path in sources if "TOY_gadget" in path.read_text() or "toy_gadget" in path.read_text()]
    assert len(sources) > 100 and touched == []


def test_the_toy_goes_through_export_validate_convert_import_and_the_ui(toy, tmp_path):
    bpy.ops.wm.read_homefile(use_empty=True)
    obj = support.mesh_object("Gadget", "cube")
    units = addon_loader.module("properties.units")
    settings = units.settings_of(obj, toy.binding)
    settings.enabled = True
    registry = omi_core.dialects.registry
    # every export target (still values): Godot's names what Godot core ignores, KHR what it cannot hold
    for target in registry.targets():
        name = target.name
        bpy.context.scene.omi_physics.export_dialect = name
        again = support.export(tmp_path, f"toy_{name}", check=False)
        written = "TOY_gadget" in (again.node("Gadget").get("extensions") or {})
        said = [text for text in again.messages if "toy gadgets" in text or "(TOY_gadget)" in text]
        assert written == (registry.default().name in target.dialects), name
        other = any(dialect != registry.default().name for dialect in target.dialects)
        if name.upper() != "GODOT_OMI":  # Godot with omi-godot: its target says what omi-godot reads, not Godot core
            assert bool(said) == (other or name.upper() == "GODOT"), (name, again.messages)
    bpy.context.scene.omi_physics.export_dialect = registry.default().name

    for frame, power in ((1, 2.0), (25, 3.0)):
        settings.power = power
        settings.keyframe_insert("power", frame=frame)
    animation_support.set_interpolation('LINEAR')

    # the UI: its sub-panel of the Physics tab draws its setting and its row
    panel = next(cls for cls in addon_loader.module("panels.units")._MADE if cls.binding is toy.binding)
    layout = Recorder()
    panel.draw(types.SimpleNamespace(layout=layout, binding=toy.binding),
               types.SimpleNamespace(object=obj, active_object=obj, scene=bpy.context.scene))
    assert "power" in layout.prop_set() and any(toy.panel.ROW_TEXT in text for text in layout.labels())

    # export: the node object, extensionsUsed and the animated pointer from the unit's Object Model row
    exported = support.export(tmp_path, "toy", check=False)
    node = exported.node("Gadget")
    assert node["extensions"]["TOY_gadget"] == {"power": 2.0}
    assert "TOY_gadget" in exported.gltf["extensionsUsed"]
    pointer = f"/nodes/{exported.index('Gadget')}/extensions/TOY_gadget/power"
    channel = animation_support.channels(exported)[pointer]
    assert channel["values"] == [2.0, 3.0]

    # validate: clean, and a bad value is found by the unit's Field bounds
    reader = omi_core.read.reader
    assert reader.validate(exported.gltf) == []
    broken = json.loads(json.dumps(exported.gltf))
    broken["nodes"][exported.index("Gadget")]["extensions"]["TOY_gadget"]["power"] = -1
    assert [issue.pointer for issue in reader.validate(broken)] == [f"{pointer}"]

    # convert: KHR names it, the Godot target names what Godot core ignores
    writer = omi_core.write.writer
    khr = next(name for name in registry.names() if name != registry.default().name)
    issues: list = []
    writer.write_document(reader.read_document(exported.gltf), exported.gltf, [khr], issues=issues)
    assert [issue.pointer for issue in issues if "TOY_gadget" in issue.message] == [
        f"/nodes/{exported.index('Gadget')}/extensions/TOY_gadget"]
    godot_form = omi_core.dialects.registry.target(omi_core.targets.godot.NAME).form
    godot_lines = [issue.message for issue in
                   omi_core.write.target_form.apply_json(json.loads(json.dumps(exported.gltf)), godot_form)]
    assert any("toy gadgets" in line and "'Gadget'" in line for line in godot_lines)

    # import: the settings and their keys come back; nothing is kept verbatim (the toy reads it)
    imported = import_support.import_gltf(exported.path)
    assert imported.failures == [] and not [text for text in imported.notes if "kept, not edited" in text]
    obj = bpy.data.objects["Gadget"]
    assert units.settings_of(obj, toy.binding).enabled
    curves = addon_loader.module("io.blender.animation.curves")
    keyed = {fcurve.data_path: [tuple(point.co) for point in fcurve.keyframe_points] for fcurve in curves.fcurves(obj)}
    assert keyed["omi_physics.units.toy_gadget.power"] == [(1.0, 2.0), (25.0, 3.0)]


def test_without_the_toy_its_extension_is_kept_verbatim(omi_addon, tmp_path):
    """The same file read by an add-on that does not know the toy: kept, not edited, written back."""
    gltf = {"asset": {"version": "2.0"}, "scenes": [{"nodes": [0]}], "scene": 0, "extensionsUsed": ["TOY_gadget"],
            "nodes": [{"name": "Gadget", "extensions": {"TOY_gadget": {"power": 2.0}}}]}
    imported = import_support.import_gltf(import_support.write_gltf(tmp_path, "toy", gltf))
    assert [text for text in imported.notes if "kept, not edited" in text and "TOY_gadget (1 node)" in text]
    exported = support.export(tmp_path, "again", check=False)
    assert exported.node("Gadget")["extensions"]["TOY_gadget"] == {"power": 2.0}
