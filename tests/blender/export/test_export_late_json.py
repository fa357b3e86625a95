"""The physics JSON is written into the exporter's finished document past its conversion passes
(io/blender/export/late_json.py): the file must be the same as when the exporter's passes carry it, key
order included, on every supported Blender, for every dialect and target, animated physics and kept keys
included. Only the accessor layout is compared by use (`by_use`): Blender's exporter lays out a mesh's
buffers differently from run to run (seen on 4.2 with the demo), with or without the add-on."""

from __future__ import annotations

import json

import bpy
import export_support as support
import import_support
import pytest
import reference_exports
from animation_support import animated_scene
from import_support import NEWER
from reference_exports import by_use

TARGETS = ('OMI', 'KHR', 'BOTH', 'GODOT', 'GODOT_OMI')


@pytest.fixture
def late(omi_addon, monkeypatch):
    """Switch the late route on or off; count the documents it wrote into."""
    compat = omi_addon.io.blender.gltf_compat
    late_json = omi_addon.io.blender.export.late_json
    reachable, attach = compat.encoded_document_reachable, late_json.attach
    state = {"on": True, "attached": 0}

    def counted(document, detached):
        state["attached"] += 1
        attach(document, detached)

    monkeypatch.setattr(compat, "encoded_document_reachable", lambda root: state["on"] and reachable(root))
    monkeypatch.setattr(late_json, "attach", counted)
    return state


def both_ways(late: dict, build, directory, target: str, fmt: str = 'GLTF_SEPARATE') -> tuple[str, str, int]:
    """The scene exported through the exporter's passes, then past them: both documents as JSON text (the
    accessors by use, in key order), and how many documents the late route wrote into."""
    texts = []
    build()  # once: Blender 4.2 crashes reading the empty home file again after the animated scene's export
    bpy.context.scene.omi_physics.export_dialect = target
    for on in (False, True):
        late["on"], late["attached"] = on, 0
        folder = directory / ("late" if on else "passes")  # one file name: a .gltf names its .bin
        folder.mkdir(exist_ok=True)
        exported = support.export(folder, target, fmt, check=not target.startswith('GODOT'))
        texts.append(json.dumps(by_use(exported.gltf, reference_exports.accessor_digests(exported))))
    return texts[0], texts[1], late["attached"]


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("scene", ["demo", "settings", "constraints"])
def test_the_late_json_is_the_same_file(late, tmp_path, scene, target):
    passes, past, attached = both_ways(late, reference_exports.scenes()[scene], tmp_path, target)
    assert attached == 1
    assert past == passes


def test_a_glb_is_the_same_file(late, tmp_path):
    passes, past, attached = both_ways(late, reference_exports.scenes()["demo"], tmp_path, 'BOTH', 'GLB')
    assert attached == 1
    assert past == passes


@pytest.mark.parametrize("target", TARGETS)
def test_animated_physics_is_the_same_file(late, tmp_path, target):
    def build():
        bpy.ops.wm.read_homefile(use_empty=True)
        animated_scene()

    passes, past, attached = both_ways(late, build, tmp_path, target)
    assert attached == 1
    assert past == passes


def test_kept_keys_of_a_newer_file_are_left_to_the_exporter(late, tmp_path):
    """Keys kept from an imported file hold extension names the exporter must meet to declare them."""
    def build():
        assert import_support.import_gltf(NEWER).result == {'FINISHED'}

    passes, past, attached = both_ways(late, build, tmp_path, 'OMI')
    assert attached == 0
    assert past == passes
    assert "VENDOR_future" in past
