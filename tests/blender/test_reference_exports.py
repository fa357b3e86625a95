"""Exports stay byte for byte what they were when the references were captured (reference_exports.py):
the demo scene, a scene with every kind of setting, plain rigid bodies under every Blender constraint
type, and every spec example imported and exported again. The .gltf text must be identical and every
accessor's data too (triangle index lists compared as sets of triangles: see accessor_digests)."""

from __future__ import annotations

import json

import pytest
import reference_exports

REFERENCES = reference_exports.version_dir()
NAMES = sorted(reference_exports.scenes())


@pytest.mark.parametrize("name", NAMES)
def test_export_is_the_reference(omi_addon, tmp_path, name):
    reference = REFERENCES / f"{name}.gltf"
    if not reference.is_file():
        pytest.skip(f"no reference export for Blender {REFERENCES.name}")
    text, digests = reference_exports.export(name, tmp_path)
    assert text == reference.read_text()
    assert digests == json.loads((REFERENCES / "accessor_sha256.json").read_text())[name]
