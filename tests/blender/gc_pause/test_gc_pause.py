"""The garbage-collector pause shared by the import and export hooks: nesting, the state it restores, and
both hooks writing their physics inside it."""

from __future__ import annotations

import gc
import importlib

import import_support as support
import pytest
from export_support import export, mesh_object, tag_motion, tag_shape

pytestmark = pytest.mark.usefixtures("omi_addon")


@pytest.fixture
def pause(omi):
    return omi("io.blender.gc_pause").collector_paused


@pytest.fixture
def collector_state():
    """Whatever a test does, the session's collector state is put back."""
    was_enabled = gc.isenabled()
    yield
    if was_enabled:
        gc.enable()
    else:
        gc.disable()


@pytest.mark.usefixtures("collector_state")
def test_nested_pauses_resume_only_after_the_outer_one(pause):
    gc.enable()
    with pause():
        assert not gc.isenabled()
        with pause():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the inner pause found it off and leaves it off
    assert gc.isenabled()


@pytest.mark.usefixtures("collector_state")
def test_a_collector_that_was_off_stays_off_even_after_an_error(pause):
    gc.disable()
    with pause():
        pass
    assert not gc.isenabled()
    gc.enable()
    with pytest.raises(ValueError), pause():
        raise ValueError("inside")
    assert gc.isenabled()


@pytest.mark.usefixtures("collector_state")
def test_import_and_export_write_the_physics_with_the_collector_off(omi, monkeypatch, tmp_path):
    gc.enable()
    seen: dict[str, bool] = {}
    import_nodes = omi("io.import_nodes")
    export_scene = omi("io.blender.export.scene")
    finish, run = import_nodes.ImportPlan.finish, export_scene.SceneWrite.run

    def recorded(name, method):
        def wrapper(self, *args, **kwargs):
            seen[name] = gc.isenabled()
            return method(self, *args, **kwargs)
        return wrapper

    monkeypatch.setattr(import_nodes.ImportPlan, "finish", recorded("import", finish))
    monkeypatch.setattr(export_scene.SceneWrite, "run", recorded("export", run))
    nodes = [{"name": "Crate", "extensions": {support.BODY: {"motion": {"type": "dynamic"},
                                                             "collider": {"shape": 0}}}}]
    imported = support.import_gltf(support.write_gltf(
        tmp_path, "crate", support.document(nodes, [{"type": "sphere", "sphere": {"radius": 0.5}}])))
    assert imported.obj("Crate").rigid_body is not None  # the physics was written
    support.bpy.ops.wm.read_homefile(use_empty=True)
    crate = mesh_object("Box")
    tag_motion(crate, 'DYNAMIC')
    tag_shape(crate, "collider", 'BOX', size=(1.0, 1.0, 1.0))
    exported = export(tmp_path)
    assert "motion" in exported.body("Box")
    assert seen == {"import": False, "export": False}
    assert gc.isenabled()  # both hooks put it back on


def _exporter_module():
    """The module of Blender's glTF exporter that runs its conversion passes (`__fix_json`): 5.0+, then 4.2."""
    for name in ("io_scene_gltf2.blender.exp.export", "io_scene_gltf2.blender.exp.gltf2_blender_export"):
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        if hasattr(module, "__fix_json"):
            return module
    pytest.skip("no __fix_json in this Blender's glTF exporter")


@pytest.mark.usefixtures("collector_state")
def test_the_exporters_conversion_passes_run_with_the_gathered_document_frozen(monkeypatch, tmp_path):
    gc.enable()
    module = _exporter_module()
    fix_json = module.__fix_json
    frozen: list[int] = []

    def recorded(*args, **kwargs):
        frozen.append(gc.get_freeze_count())
        return fix_json(*args, **kwargs)

    monkeypatch.setattr(module, "__fix_json", recorded)
    support.bpy.ops.wm.read_homefile(use_empty=True)
    crate = mesh_object("Box")
    tag_motion(crate, 'DYNAMIC')
    tag_shape(crate, "collider", 'BOX', size=(1.0, 1.0, 1.0))
    exported = export(tmp_path)
    assert "motion" in exported.body("Box")
    assert frozen and all(count > 0 for count in frozen)  # the collector left the gathered heap alone
    assert gc.get_freeze_count() == 0  # and got it back before the file was written
