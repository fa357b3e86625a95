"""An import writes the settings of the objects it makes as ID properties, not RNA assignments
(properties/stored.py, properties/id_values.py): every value reads back through RNA, in the session and
after a save and reopen, exactly as the RNA assignments left it; a group already holding values is assigned
through RNA as before.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import bpy
import export_support as support
import import_support
import pytest
from every_setting_scene import build_scene
from rna_values import rna_values

SPEC = Path(__file__).resolve().parents[2] / "data" / "omi-spec"
GRAVITY = SPEC / "OMI_physics_gravity" / "examples" / "ramp" / "ramp_gravity.gltf"
# The kinds of values the import writes as ID properties, each at least once in the files below (a bool
# array: in VALUES).
KINDS = {"BOOLEAN", "ENUM", "FLOAT", "FLOAT[]", "STRING", "ID"}


@pytest.fixture(autouse=True)
def _enabled(omi_addon):
    return omi_addon


def held_groups() -> dict[str, Any]:
    """Each object's stored settings (its ID properties, IDs by name), before anything reads them through RNA."""

    def plain(value: Any) -> Any:
        if isinstance(value, dict):
            return {key: plain(item) for key, item in value.items()}
        if isinstance(value, list):
            return [plain(item) for item in value]
        return value.name if isinstance(value, bpy.types.ID) else value

    found = {}
    for obj in bpy.data.objects:
        holder = obj.bl_system_properties_get() if hasattr(obj, "bl_system_properties_get") else obj
        group = holder.get("omi_physics") if holder is not None else None
        found[obj.name] = None if group is None else plain(group.to_dict())
    return found


def settings(kinds: set[str]) -> dict[str, Any]:
    return {obj.name: rna_values(obj.omi_physics, kinds) for obj in bpy.data.objects}


def exported_settings_scene(directory: Path) -> Path:
    build_scene()
    return support.export(directory, "scene", 'GLB').path


@pytest.mark.parametrize("made", [exported_settings_scene, lambda _directory: GRAVITY],
                         ids=["every_setting", "gravity"])
def test_an_import_reads_back_as_assigned(omi, monkeypatch, tmp_path, made: Callable[[Path], Path]):
    stored, edits = omi("properties.stored"), omi("properties.edits")
    path = made(tmp_path)

    import_support.import_gltf(path)
    held = held_groups()
    saved = tmp_path / "imported.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(saved))
    kinds: set[str] = set()
    fast = settings(kinds)

    with monkeypatch.context() as patched:
        patched.setattr(stored, "EDITED", edits.Edited())  # never paused: every value an RNA assignment
        import_support.import_gltf(path)
        assert held_groups() == held
        assigned = settings(set())
    assert fast == assigned

    bpy.ops.wm.open_mainfile(filepath=str(saved))
    assert settings(set()) == assigned
    if made is exported_settings_scene:
        assert kinds >= KINDS, f"the file holds no {sorted(KINDS - kinds)} setting"
    else:
        assert any(entry["use_gravity"] for entry in assigned.values())


def rna_assignments(action: Callable[[], None]) -> int:
    """How many `setattr` calls (RNA assignments) the action makes."""
    calls = []

    def count(_frame: Any, event: str, arg: Any) -> None:
        if event == "c_call" and arg is setattr:
            calls.append(arg)

    sys.setprofile(count)
    try:
        action()
    finally:
        sys.setprofile(None)
    return len(calls)


VALUES = {"use_motion": True, "motion": {"motion_type": 'STATIC', "gravity_factor": 0.5,
                                        "linear_velocity": (1.0, 2.0, 3.0), "infinite_inertia": (True, False, True)},
          "use_collider": True,
          "collider": {"physics_material": "Wood", "shape": {"shape_type": 'SPHERE', "radius": 2.0}}}


def test_only_fresh_groups_skip_rna(omi, clean_scene, tmp_path):
    stored, edits = omi("properties.stored"), omi("properties.edits")
    fresh, root_held, motion_held, unpaused = (bpy.data.objects.new(name, None) for name in "ABCD")
    root_held.omi_physics.use_motion = True  # type: ignore[attr-defined]  # the add-on's settings
    motion_held.omi_physics.motion.gravity_factor = 2.0  # type: ignore[attr-defined]  # the add-on's settings
    def stores(obj: bpy.types.Object) -> int:
        return rna_assignments(lambda: stored.store(obj.omi_physics, VALUES))  # type: ignore[attr-defined]  # the add-on's settings

    with edits.paused():
        assert stores(fresh) == 0
        # a group holding a value: its own values assigned through RNA, the groups below it that hold none not
        assert stores(root_held) == 2
        assert stores(motion_held) == 6
    assert stores(unpaused) == 9
    for obj in (fresh, root_held, motion_held, unpaused):
        bpy.context.scene.collection.objects.link(obj)
    saved = tmp_path / "stored.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(saved))
    for reopened in (False, True):
        if reopened:
            bpy.ops.wm.open_mainfile(filepath=str(saved))
        values = [settings(set())[name] for name in "ABCD"]
        assert values[0] == values[1] == values[2] == values[3]
        assert values[0]["motion"]["linear_velocity"] == pytest.approx((1.0, 2.0, 3.0))
        assert values[0]["motion"]["infinite_inertia"] == (True, False, True)
        assert values[0]["collider"]["shape"]["shape_type"] == 'SPHERE'


# What an RNA assignment changes or refuses to store as given: beyond the hard range or single precision,
# a string cut at a NUL, a vector of the wrong kind.
EXTREMES = {"use_motion": True, "motion": {"inertia_diagonal": (-1.0, 1e300, 0.1), "gravity_factor": 1e39,
                                           "center_of_mass": (1e-50, -1e300, 2), "unknown_json": "a\0b"},
            "use_collider": True, "collider": {"shape": {"size": (0.1, 0.2, 0.3), "radius": -2.0,
                                                         "unknown_json": "x\0"}}}


def test_what_rna_changes_is_changed_alike(omi, clean_scene):
    stored, edits = omi("properties.stored"), omi("properties.edits")
    fresh, assigned = (bpy.data.objects.new(name, None) for name in "AB")
    with edits.paused():
        stored.store(fresh.omi_physics, EXTREMES)  # type: ignore[attr-defined]  # the add-on's settings
    stored.store(assigned.omi_physics, EXTREMES)  # type: ignore[attr-defined]  # the add-on's settings
    for obj in (fresh, assigned):
        bpy.context.scene.collection.objects.link(obj)
    found = settings(set())
    assert found["A"] == found["B"]
    assert found["A"]["motion"]["inertia_diagonal"][0] == 0.0 and found["A"]["motion"]["unknown_json"] == "a"
