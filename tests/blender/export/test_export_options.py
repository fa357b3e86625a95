"""Export options and safety: physics on/off, no settings in extras, +Y Up, the rigid body builder's helper
objects, several scenes, and one broken object not stopping the others."""

from __future__ import annotations

import bpy
import pytest
from export_support import empty, export, mesh_object, tag_motion, tag_shape

pytestmark = pytest.mark.usefixtures("omi_addon")

OMI = ("OMI_physics_body", "OMI_physics_shape", "OMI_physics_joint")


def tagged_scene() -> bpy.types.Object:
    obj = mesh_object("Crate", "cube")
    tag_motion(obj, 'DYNAMIC', mass=4.0)
    tag_shape(obj, "collider", 'BOX', size=(1, 1, 1))
    obj["artist_note"] = "keep me"
    return obj


def test_physics_export_can_be_turned_off(clean_scene, tmp_path):
    tagged_scene()
    clean_scene.omi_physics.export_physics = False
    result = export(tmp_path)
    assert not set(OMI) & set(result.gltf.get("extensionsUsed", []))
    assert not set(OMI) & set(result.gltf.get("extensions", {}))
    assert "extensions" not in result.node("Crate")


def test_physics_is_exported_by_default_and_listed_as_used(clean_scene, tmp_path):
    tagged_scene()
    result = export(tmp_path)
    assert {"OMI_physics_body", "OMI_physics_shape"} <= set(result.gltf["extensionsUsed"])
    assert not set(OMI) & set(result.gltf.get("extensionsRequired", []))


def extras_everywhere(gltf: dict) -> list[dict]:
    found = []
    for key in ("nodes", "scenes", "meshes", "materials"):
        found += [item["extras"] for item in gltf.get(key, []) if "extras" in item]
    return found


def test_custom_properties_never_carry_the_addon_settings(clean_scene, tmp_path, omi):
    obj = tagged_scene()
    obj["omi_shape_mesh"] = False  # a marker of the rigid body builder, also private
    clean_scene.omi_physics.physics_materials.add().name = "Wood"
    compat = omi("io.blender.gltf_compat")
    black_list = compat.extras_black_list()
    assert black_list is not None
    before = list(black_list)
    result = export(tmp_path, export_extras=True)
    assert result.node("Crate")["extras"] == {"artist_note": "keep me"}
    for extras in extras_everywhere(result.gltf):
        assert not any(key.startswith("omi_") for key in extras), extras
    assert black_list == before  # the exporter's list is left as it was


def test_y_up_off_skips_physics_with_a_warning(clean_scene, tmp_path):
    tagged_scene()
    result = export(tmp_path, export_yup=False)
    assert "extensions" not in result.node("Crate")
    assert result.warnings("+Y Up")


def test_generated_helpers_are_not_exported_and_shape_meshes_not_rendered(clean_scene, tmp_path, omi, markers):
    body = tagged_scene()
    helper = empty("Helper", parent=body)
    helper[markers.GENERATED] = True
    stand_in = mesh_object("ShapeStandIn", "cube")
    markers.mark_shape_mesh(stand_in)
    tag_shape(stand_in, "collider", 'CONVEX')
    result = export(tmp_path)
    assert "Helper" not in [node.get("name") for node in result.nodes]
    assert "mesh" not in result.node("ShapeStandIn")
    shape = result.shape(result.body("ShapeStandIn")["collider"]["shape"])
    assert shape["type"] == "convex"
    assert len(result.gltf["meshes"][shape["convex"]["mesh"]]["primitives"]) == 1


def test_every_scene_is_written_with_shared_document_arrays(clean_scene, tmp_path):
    tagged_scene()
    other = bpy.data.scenes.new("Other")
    twin = empty("Twin")
    bpy.context.scene.collection.objects.unlink(twin)
    other.collection.objects.link(twin)
    tag_shape(twin, "collider", 'BOX', size=(1, 1, 1))
    result = export(tmp_path, use_active_scene=False)
    assert len(result.gltf["scenes"]) == 2
    assert result.body("Twin")["collider"]["shape"] == result.body("Crate")["collider"]["shape"]
    assert len(result.shapes()) == 1


def test_one_broken_object_does_not_stop_the_others(clean_scene, tmp_path, omi, monkeypatch):
    convert = omi("properties.convert")
    tagged_scene()
    broken = empty("Broken")
    tag_shape(broken, "collider", 'SPHERE')
    original = convert.node_from_object

    def failing(obj, issues=None, bl_scene=None):
        if obj.name == "Broken":
            raise RuntimeError("bad data")
        return original(obj, issues, bl_scene)

    monkeypatch.setattr(convert, "node_from_object", failing)
    result = export(tmp_path, failures_expected=True)
    assert result.body("Crate")["motion"]["mass"] == 4
    assert result.body("Broken") == {}
    assert result.warnings("'Broken'", "bad data")
    assert result.warnings("OMI physics: hook failed: ", "'Broken'")  # the stable mark scripts look for


def test_the_export_dialog_shows_the_physics_options(clean_scene, omi_addon):
    import io_scene_gltf2
    from ui_recorder import Recorder

    assert io_scene_gltf2.exporter_extension_layout_draw[omi_addon.__name__] is omi_addon.draw_export
    layout = Recorder()
    io_scene_gltf2.export_panel_user_extension(bpy.context, layout)  # what the dialog's draw() calls
    assert {"export_physics", "export_rigid_bodies"} <= layout.prop_set(clean_scene.omi_physics)
