"""A file whose JSON holds an integer longer than Python's 4,300-digit limit: Blender's importer parses the
JSON itself, before any hook sees the document, and failed the whole import with its own "Bad glTF: json
error: Exceeds the limit (4300 digits)". The add-on lets it parse up to 100,000 digits during an import
(io/blender/number_digits), so the value is named at its pointer and the rest imports; the limit is put
back afterwards. Longer still, Blender's own message stays (the add-on cannot reach that parse)."""

from __future__ import annotations

import json
import sys

import bpy
import import_support as support
import pytest
from cli_support import REPO_ROOT
from hostile.round_three import _velocity_of_digits

pytestmark = pytest.mark.usefixtures("omi_addon")

GOOD = json.loads((REPO_ROOT / "tests" / "data" / "cli" / "current_scene.gltf").read_text(encoding="utf-8"))
POINTER = "/nodes/0/extensions/OMI_physics_body/motion/linearVelocity/0"


def test_a_5000_digit_integer_is_named_at_its_pointer_and_the_rest_imports(clean_scene, tmp_path):
    path = tmp_path / "digits.gltf"
    path.write_text(_velocity_of_digits(GOOD, 5000), encoding="utf-8")
    limit = sys.get_int_max_str_digits()
    imported = support.import_gltf(path)
    assert imported.result == {'FINISHED'}
    assert [message for message in imported.warnings
            if f"({POINTER}): linearVelocity item must be a finite number" in message], imported.warnings
    assert {"Ground", "Door", "Zone"} <= set(bpy.data.objects.keys())
    assert sys.get_int_max_str_digits() == limit


def test_a_longer_integer_keeps_blenders_own_message(clean_scene, omi, tmp_path):
    path = tmp_path / "digits.gltf"
    path.write_text(_velocity_of_digits(GOOD, 200_000), encoding="utf-8")
    limit = sys.get_int_max_str_digits()
    try:
        with pytest.raises(RuntimeError, match="Bad glTF: json error"):
            support.import_gltf(path)
    finally:
        omi("io.blender.number_digits").restore()  # a failed import in the background has no next event-loop turn
    assert sys.get_int_max_str_digits() == limit
