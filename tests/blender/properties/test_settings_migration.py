"""Old .blend files upgrade when they load: tests/data/settings_v1.blend was saved by the add-on before
settings stored their version (commit 364b6cf, tests/blender/save_settings_v1_blend.py)."""

from __future__ import annotations

import shutil
from pathlib import Path

import addon_loader
import bpy
import pytest

V1_BLEND = Path(__file__).resolve().parents[2] / "data" / "settings_v1.blend"


@pytest.fixture(scope="module")
def migrate(omi):
    return omi("properties.migrate")


@pytest.fixture
def v1_copy(tmp_path) -> Path:
    path = tmp_path / "settings_v1.blend"
    shutil.copyfile(V1_BLEND, path)  # the test saves over it: never touch the committed file
    return path


def stored_version(owner) -> object:
    """The version the settings store (None: not stored; reading `.version` would show the default)."""
    return owner.omi_physics.get("version")


def test_the_v1_file_stores_no_version(omi_addon, clean_scene):  # no objects of the same names around
    with bpy.data.libraries.load(str(V1_BLEND)) as (source, target):
        target.objects = list(source.objects)
    loaded = [obj for obj in target.objects if obj is not None]
    try:
        assert {obj.name for obj in loaded} >= {"Crate", "Hinge", "Post"}
        assert all(obj.omi_physics.keys() for obj in loaded if obj.name != "Plain")  # settings are stored ...
        assert all(stored_version(obj) is None for obj in loaded)  # ... without a version
    finally:
        bpy.data.batch_remove(loaded)


def test_loading_a_v1_file_upgrades_its_settings(omi_addon, migrate, v1_copy):
    assert bpy.ops.wm.open_mainfile(filepath=str(v1_copy)) == {'FINISHED'}
    objects = bpy.data.objects
    for name in ("Crate", "Hinge", "Post"):
        assert stored_version(objects[name]) == migrate.SETTINGS_VERSION
    assert stored_version(bpy.context.scene) == migrate.SETTINGS_VERSION
    # The upgrade keeps every value.
    crate = objects["Crate"].omi_physics
    assert crate.use_motion and crate.motion.mass == pytest.approx(3.5)
    assert crate.motion.use_center_of_mass  # version 3: a body of an older file keeps its centre of mass set
    assert tuple(crate.collider.shape.size) == pytest.approx((1.0, 0.8, 0.6))
    assert crate.collider.physics_material == "Grippy"
    assert bpy.context.scene.omi_physics.physics_materials["Grippy"].static_friction == pytest.approx(0.9)
    assert objects["Post"].omi_physics.collider.shape.shape_type == 'CAPSULE'
    hinge = objects["Hinge"].omi_physics.joint
    assert hinge.connected_object == objects["Post"] and len(hinge.limits) == 1


def test_saving_stamps_the_version_and_reloading_keeps_it(omi_addon, migrate, tmp_path):
    bpy.ops.wm.read_homefile(use_empty=True)
    obj = bpy.data.objects.new("Fresh", None)
    bpy.context.scene.collection.objects.link(obj)
    obj.omi_physics.use_collider = True
    assert stored_version(obj) is None  # the default is shown, not stored
    path = tmp_path / "fresh.blend"
    assert bpy.ops.wm.save_as_mainfile(filepath=str(path)) == {'FINISHED'}
    assert bpy.ops.wm.open_mainfile(filepath=str(path)) == {'FINISHED'}
    assert stored_version(bpy.data.objects["Fresh"]) == migrate.SETTINGS_VERSION


def test_settings_from_a_newer_add_on_are_left_alone(omi_addon, migrate, clean_scene, caplog):
    obj = bpy.data.objects.new("Future", None)
    obj.omi_physics.use_motion = True
    obj.omi_physics["version"] = migrate.SETTINGS_VERSION + 5
    migrate.migrate_on_load()
    assert stored_version(obj) == migrate.SETTINGS_VERSION + 5
    assert any("newer than this add-on" in record.getMessage() for record in caplog.records)


def test_every_old_version_has_a_step(migrate):
    assert set(migrate.STEPS) == set(range(migrate.UNVERSIONED, migrate.SETTINGS_VERSION))


def test_the_handlers_go_with_the_add_on(omi_addon, migrate, clean_scene):
    def ours(handlers):
        return [handler for handler in handlers if handler.__name__ in ("migrate_on_load", "stamp_on_save")]

    assert len(ours(bpy.app.handlers.load_post)) == 1 and len(ours(bpy.app.handlers.save_pre)) == 1
    addon_loader.disable()
    try:
        assert ours(bpy.app.handlers.load_post) == [] and ours(bpy.app.handlers.save_pre) == []
    finally:
        addon_loader.enable()
    assert len(ours(bpy.app.handlers.load_post)) == 1
