"""Blender 5.2's glTF exporter lets an extension's JSON through its two clean-up passes untouched
(`passthrough_extension_data`); the add-on asks for that (issue 14: "keep the exporter from converting it
again"). Its JSON must then already be what those passes would make of it, so the file is the same text
either way: checked here by exporting each scene twice, once with the request and once without.

A Blender whose exporter has no such hook (4.2 to 5.1) skips, saying so; there the exporter's own passes
always run and the writer's whole numbers (`fields.json_number`) are what they make anyway.
"""

from __future__ import annotations

import copy
import importlib
import importlib.util
import json
from typing import Any

import bpy
import export_support as support
import import_support
import pytest
import reference_exports
from animation_support import animated_scene
from hypothesis import given, settings
from hypothesis import strategies as st
from import_support import NEWER

DIALECTS = ('OMI', 'KHR', 'BOTH')
# Where Blender's exporter has its clean-up pass (`__fix_json`): 4.2 LTS, then 5.0 and later.
EXPORTER_MODULES = ("io_scene_gltf2.blender.exp.gltf2_blender_export", "io_scene_gltf2.blender.exp.export")


@pytest.fixture
def hook(omi_addon, monkeypatch):
    """Switch the add-on's passthrough request on or off and record the names it asked for. The physics then
    goes through the exporter's passes (not past them: test_export_late_json)."""
    monkeypatch.setattr(omi_addon.io.blender.gltf_compat, "encoded_document_reachable", lambda _root: False)
    extension = omi_addon.io.gltf_export.glTF2ExportUserExtension
    asked = extension.passthrough_extension_data
    state: dict[str, Any] = {"on": True, "names": None}

    def recorded(self, passthrough, gltf, export_settings):
        if state["on"]:
            asked(self, passthrough, gltf, export_settings)
        state["names"] = list(passthrough)

    monkeypatch.setattr(extension, "passthrough_extension_data", recorded)
    return state


def both_ways(hook: dict, build, directory, dialect: str) -> tuple[str, str, list[str]]:
    """The scene exported without and with the request: both texts and the names requested."""
    texts = []
    build()  # once: two builds of a scene may order its meshes' accessors differently in Blender 5.2's export
    bpy.context.scene.omi_physics.export_dialect = dialect
    for on in (False, True):
        hook["on"], hook["names"] = on, None
        folder = directory / ("with" if on else "without")  # one file name: the text names its .bin
        folder.mkdir(exist_ok=True)
        texts.append(support.export(folder, dialect, 'GLTF_SEPARATE').path.read_text())
        if hook["names"] is None:
            pytest.skip(f"the glTF exporter of Blender {bpy.app.version_string} has no passthrough_extension_data "
                        "hook (Blender 5.2+)")
    return texts[0], texts[1], hook["names"]


@pytest.mark.parametrize("dialect", DIALECTS)
@pytest.mark.parametrize("scene", ["demo", "settings", "constraints"])
def test_passed_through_json_is_the_same_file(hook, tmp_path, scene, dialect):
    plain, passed, names = both_ways(hook, reference_exports.scenes()[scene], tmp_path, dialect)
    expected = {'OMI': {support.BODY, support.SHAPE}, 'KHR': {"KHR_physics_rigid_bodies", "KHR_implicit_shapes"}}
    assert all(expected[part] <= set(names) for part in ('OMI', 'KHR') if dialect in (part, 'BOTH'))
    assert passed == plain


@pytest.mark.parametrize("dialect", DIALECTS)
def test_animated_physics_passed_through_is_the_same_file(hook, tmp_path, dialect):
    def build():
        bpy.ops.wm.read_homefile(use_empty=True)
        animated_scene()

    plain, passed, names = both_ways(hook, build, tmp_path, dialect)
    assert names
    assert passed == plain


def test_kept_keys_of_a_newer_file_are_left_to_the_exporter(hook, tmp_path):
    """Keys kept from an imported file hold the file's own numbers and extension names: no request."""
    def build():
        assert import_support.import_gltf(NEWER).result == {'FINISHED'}

    plain, passed, names = both_ways(hook, build, tmp_path, 'OMI')
    assert names == []
    assert passed == plain
    assert "VENDOR_future" in passed


_KEYS = st.sampled_from(["type", "mass", "size", "shape", "extras", "limits", "nodes"])
_SCALARS = st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from([0.0, -0.0, 1.0, 2.5, -4.0, 1e20, 0.1]) \
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=3)
_JSON = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_KEYS, inner, max_size=3),
                     max_leaves=12)


@pytest.mark.slow
@given(st.dictionaries(_KEYS, _JSON, min_size=1, max_size=4))
@settings(max_examples=300, deadline=None)
def test_settled_json_is_what_the_exporter_makes_of_it(omi_addon, content):
    """Whatever `settle` accepts, it leaves exactly as the real exporter's clean-up would write it."""
    found = [name for name in EXPORTER_MODULES if importlib.util.find_spec(name) is not None]
    clean_up = getattr(importlib.import_module(found[0]), "__fix_json")
    export_settings: dict[str, Any] = {"gltf_animated_extensions": {}, "gltf_need_to_keep_extension_declaration": []}
    expected = json.dumps(clean_up(copy.deepcopy(content), export_settings))
    settled = copy.deepcopy(content)
    if omi_addon.io.blender.export.exporter_form.settle(settled):
        assert json.dumps(settled) == expected
        assert json.dumps(clean_up(settled, export_settings)) == expected  # and the clean-up changes it no more
