"""A body's centre of mass left to the engine (issue #27) through Blender: the settings hold the state
(`motion.use_center_of_mass`), import sets it from the file, export leaves a computed centre out, the panel
greys the value, Sync to Blender does not call it unsupported, and older .blend files keep what they exported."""

from __future__ import annotations

from typing import Any

import bpy
import import_support as support
import pytest
import schema_check
from mathutils import Vector
from ui_recorder import draw_panel, make_context

pytestmark = pytest.mark.usefixtures("omi_addon")

KHR_BODY, KHR_SHAPES = "KHR_physics_rigid_bodies", "KHR_implicit_shapes"


def khr_document(motion: dict) -> dict:
    """A KHR body whose only collider sits 2 m off its origin."""
    return {
        "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
        "extensionsUsed": [KHR_BODY, KHR_SHAPES],
        "extensions": {KHR_SHAPES: {"shapes": [{"type": "box", "box": {"size": [1, 1, 1]}}]}},
        "nodes": [{"name": "Lopsided", "children": [1], "extensions": {KHR_BODY: {"motion": motion}}},
                  {"name": "Weight", "translation": [2, 0, 0],
                   "extensions": {KHR_BODY: {"collider": {"geometry": {"shape": 0}}}}}],
    }


def export_motion(tmp_path, dialect: str) -> dict:
    bpy.context.scene.omi_physics.export_dialect = dialect
    path = tmp_path / f"out_{dialect}.gltf"
    assert bpy.ops.export_scene.gltf(filepath=str(path), export_format='GLTF_SEPARATE') == {'FINISHED'}
    gltf = schema_check.load_gltf(path)
    body = KHR_BODY if dialect == "KHR" else "OMI_physics_body"
    (motion,) = [node["extensions"][body]["motion"] for node in gltf["nodes"]
                 if "motion" in node.get("extensions", {}).get(body, {})]
    return motion


@pytest.mark.parametrize(("motion", "use", "written"), [
    ({}, False, None),  # absent: the engine computes it, and the export leaves it to the engine again
    ({"centerOfMass": [0.0, 0.0, 0.0]}, True, [0.0, 0.0, 0.0]),  # stated, even at the origin: stays stated
    ({"centerOfMass": [0.0, 0.5, 0.0]}, True, [0.0, 0.5, 0.0]),
])
def test_khr_import_keeps_what_the_file_said(tmp_path, motion, use, written):
    imported = support.import_gltf(support.write_gltf(tmp_path, "body", khr_document(motion)))
    assert imported.result == {'FINISHED'}
    settings = imported.obj("Lopsided").omi_physics.motion
    assert settings.use_center_of_mass is use
    assert export_motion(tmp_path, "KHR").get("centerOfMass") == written


def test_omi_import_states_the_origin(tmp_path):
    """OMI's absent centre of mass is the origin (its spec default), not "computed": it stays absent in OMI and
    is written as the origin in KHR."""
    gltf = support.document([{"name": "Box", "extensions": {"OMI_physics_body": {
        "motion": {"type": "dynamic"}, "collider": {"shape": 0}}}}], [{"type": "box", "box": {}}])
    imported = support.import_gltf(support.write_gltf(tmp_path, "omi", gltf))
    assert imported.obj("Box").omi_physics.motion.use_center_of_mass
    assert "centerOfMass" not in export_motion(tmp_path, "OMI")
    assert export_motion(tmp_path, "KHR")["centerOfMass"] == [0.0, 0.0, 0.0]


def test_a_new_body_states_the_origin_as_blender_simulates(clean_scene, tmp_path):
    """Blender's rigid bodies turn about the origin: a new body says so (Set Center on, at the origin), so
    engines simulate what the preview showed; switched off, KHR leaves it to the engine."""
    obj = bpy.data.objects.new("Fresh", None)
    bpy.context.scene.collection.objects.link(obj)
    settings = obj.omi_physics
    settings.use_motion = settings.use_collider = True
    settings.collider.shape.shape_type = 'BOX'
    assert settings.motion.use_center_of_mass is True
    assert export_motion(tmp_path, "KHR")["centerOfMass"] == [0.0, 0.0, 0.0]
    settings.motion.use_center_of_mass = False
    assert "centerOfMass" not in export_motion(tmp_path, "KHR")


def test_an_animated_centre_the_file_left_to_the_engine_is_set_and_exported(omi, tmp_path):
    """A KHR channel on a centre of mass the file does not state: the import keys the value and turns the
    switch on (not keyed), so the export writes the channel instead of naming its keyframes as lost."""
    from animation_support import with_channels

    fps = bpy.context.scene.render.fps
    pointer = f"/nodes/0/extensions/{KHR_BODY}/motion/centerOfMass"
    gltf = with_channels(khr_document({}), [(pointer, [1 / fps, 5 / fps], [0, 0, 0, 0, 1, 0], "VEC3")])
    imported = support.import_gltf(support.write_gltf(tmp_path, "animated", gltf))
    body = imported.obj("Lopsided")
    assert body.omi_physics.motion.use_center_of_mass
    keyed = {curve.data_path for curve in omi("io.blender.animation.curves").fcurves(body)}
    assert keyed == {"omi_physics.motion.center_of_mass"}  # the switch is set, not keyed
    bpy.context.scene.omi_physics.export_dialect = "KHR"
    path = tmp_path / "out.gltf"
    with support.captured_log() as messages:
        assert bpy.ops.export_scene.gltf(filepath=str(path), export_format='GLTF_SEPARATE') == {'FINISHED'}
    written = schema_check.load_gltf(path)
    pointers = [channel["target"].get("extensions", {}).get("KHR_animation_pointer", {}).get("pointer")
                for animation in written.get("animations", []) for channel in animation["channels"]]
    assert [found for found in pointers if found.endswith("/motion/centerOfMass")], (pointers, messages)
    assert not [text for _level, text in messages if "not exported" in text], messages


def _column_of(layout, name: str):
    """The layout that holds the prop `name`, found depth first."""
    for call in layout.calls:
        if call.kind == "prop" and call.prop_name == name:
            return layout
        if call.kind == "layout":
            found = _column_of(call.args[0], name)
            if found is not None:
                return found
    return None


def test_the_panel_greys_a_computed_centre(omi, clean_scene):
    bpy.ops.mesh.primitive_cube_add()
    obj = bpy.context.active_object
    obj.omi_physics.use_motion = True
    panel = omi("panels.properties_editor").PHYSICS_PT_omi_body_mass
    for use in (False, True):
        obj.omi_physics.motion.use_center_of_mass = use
        layout = draw_panel(panel, make_context(obj, [obj]))
        assert _column_of(layout, "use_center_of_mass").attributes.get("active", True) is True  # the switch: live
        assert _column_of(layout, "center_of_mass").attributes["active"] is use
        assert _column_of(layout, "inertia_diagonal").attributes.get("active", True) is True


def test_sync_to_blender_names_only_a_stated_offset(omi, clean_scene):
    """Blender's rigid bodies turn about their origin: a stated offset gets a generated rigid body whose origin is
    the centre of mass (named once); a computed one is no value Blender drops."""
    objects = []
    for name, use in (("Computed", False), ("Offset", True)):
        bpy.ops.mesh.primitive_cube_add()
        obj = bpy.context.active_object
        obj.name = name
        settings = obj.omi_physics
        settings.use_motion = settings.use_collider = True
        settings.motion.use_center_of_mass, settings.motion.center_of_mass = use, (0.0, 0.0, 0.3)
        objects.append(obj)
    scene, issues = bpy.context.scene, list[Any]()
    omi("io.blender.builder.rigid_body").build_rigid_bodies(
        scene, objects, omi("properties.convert_build").SettingsPhysics(scene, issues), issues)
    computed, offset = objects
    rigid = omi("io.blender.builder.plan").rigid_object(offset)
    assert computed.rigid_body is not None and offset.rigid_body is None and rigid is not None
    assert (rigid.matrix_basis.translation - offset.matrix_basis @ Vector((0.0, 0.0, 0.3))).length < 1e-6
    (note,) = [issue.message for issue in issues if "centres of mass off the body's origin" in issue.message]
    assert "'Offset'" in note and "'Computed'" not in note
    assert not [issue for issue in issues if "center of mass offset" in issue.message]


def test_old_files_keep_their_centre_of_mass_set(omi, clean_scene):
    """Settings of version 2 (before the switch) held a centre of mass for every body: the switch's default
    (on) keeps it, so their exports stay as they were, and the upgrade writes nothing into the groups."""
    migrate = omi("properties.migrate")
    body = bpy.data.objects.new("OldBody", None)
    collider = bpy.data.objects.new("OldCollider", None)
    for obj in (body, collider):
        bpy.context.scene.collection.objects.link(obj)
    body.omi_physics.use_motion = True
    collider.omi_physics.use_collider = True
    for obj in (body, collider):
        obj.omi_physics["version"] = 2
    migrate.migrate_on_load()
    assert "motion" not in body.omi_physics and "motion" not in collider.omi_physics  # (reading makes it)
    assert body.omi_physics.motion.use_center_of_mass is True
    assert body.omi_physics["version"] == collider.omi_physics["version"] == migrate.SETTINGS_VERSION
