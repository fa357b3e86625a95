"""The animation import reads the file's physics once and each moved value once (`io/omi/animation/moved_values`):
finding a channel's settings moves its value to rest + 1 and to its keys' extremes, and puts the file's own
physics back, many times per channel; none of that reads a document already read."""

from __future__ import annotations

import json

import addon_loader
import import_support as support
import omi_core.read.reader
import pytest
import test_animation_import_keys

pytestmark = pytest.mark.usefixtures("omi_addon")


@pytest.mark.parametrize("interpolation", ["LINEAR", "CUBICSPLINE"])
def test_no_document_is_read_twice(tmp_path, monkeypatch, interpolation):
    path = test_animation_import_keys._file(tmp_path, interpolation)
    reader = omi_core.read.reader
    real_read = reader.read_document
    reads: list[str] = []

    def counted(document, *args, **kwargs):
        reads.append(json.dumps([document, args, kwargs], sort_keys=True, default=str))
        return real_read(document, *args, **kwargs)

    monkeypatch.setattr(reader, "read_document", counted)
    imported = support.import_gltf(path)
    assert imported.warnings == []
    assert len(addon_loader.module("io.blender.animation.curves").fcurves(
        support.bpy.data.objects["Crate"])) > 0
    repeated = {read for read in reads if reads.count(read) > 1}
    assert repeated == set(), f"{len(repeated)} documents read more than once ({len(reads)} reads)"
