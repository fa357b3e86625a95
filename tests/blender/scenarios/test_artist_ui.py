"""The artist's session, UI side (issue 26 items 5 to 10): messages shown whole with a way to the object,
import problems in the sidebar, copied shapes that keep each object's size, closed advanced sub-panels,
a New button for physics materials, joints placed where two bodies meet, and the overlay's switch, legend
and object list where artists look. Each test fails on the code before these changes."""

from __future__ import annotations

import json
import types
from pathlib import Path

import bpy
import pytest
from export_support import select
from mathutils import Vector
from ui_recorder import Recorder, draw_panel, make_context


def cube(name, size=1.0, location=(0.0, 0.0, 0.0)):
    bpy.ops.mesh.primitive_cube_add(size=size, location=location)
    obj = bpy.context.active_object
    obj.name = name
    return obj


# --- 5. validation messages whole, import problems where the artist looks -----------------------------


def test_the_active_problem_is_shown_whole_and_its_button_says_it(omi, clean_scene):
    sidebar = omi("panels.sidebar")
    body = cube("AVeryLongNameForABodyThatHasNoCollider")
    body.omi_physics.use_motion = True
    bpy.ops.omi.validate_scene()
    state = bpy.context.window_manager.omi_authoring
    message = state.problems[0].message
    shown = draw_panel(sidebar.VIEW3D_PT_omi_validate, make_context(body))
    text = " ".join(shown.labels())
    assert message.split()[-1] in text and " ".join(message.split()[:3]) in text  # every word, wrapped
    width_chars = max(len(label) for label in shown.labels())
    assert width_chars < 50  # lines fit the sidebar: no label is cut
    tooltip = omi("operators.validate").OMI_OT_select_problem.description(bpy.context, type("P", (), {"index": 0}))
    assert message in tooltip and body.name in tooltip


def test_import_problems_are_listed_in_the_validate_panel(omi, clean_scene, tmp_path: Path):
    document = {"asset": {"version": "2.0"}, "extensionsUsed": ["OMI_physics_body"], "scene": 0,
                "scenes": [{"nodes": [0]}],
                "nodes": [{"name": "Broken", "extensions": {"OMI_physics_body": {"motion": {"type": "warp"}}}}]}
    path = tmp_path / "broken.gltf"
    path.write_text(json.dumps(document))
    state = bpy.context.window_manager.omi_authoring
    state.problems.clear()
    assert bpy.ops.import_scene.gltf(filepath=str(path)) == {'FINISHED'}
    assert len(state.problems) >= 1 and state.checked
    assert any(problem.name == "Broken" and "warp" in problem.message for problem in state.problems)


# --- 6. Copy Physics keeps each object's own size ---------------------------------------------------


def test_copy_physics_fits_each_targets_own_shape(omi, clean_scene):
    bpy.ops.mesh.primitive_uv_sphere_add(radius=0.6)
    big = bpy.context.active_object
    bpy.ops.mesh.primitive_uv_sphere_add(radius=0.35, location=(3.0, 0.0, 0.0))
    small = bpy.context.active_object
    select(big)
    bpy.ops.omi.fit_collider(shape_type='SPHERE')
    big.omi_physics.use_motion = True
    select(small, big, active=big)
    assert bpy.ops.omi.copy_settings() == {'FINISHED'}
    assert small.omi_physics.collider.shape.shape_type == 'SPHERE'
    assert small.omi_physics.collider.shape.radius == pytest.approx(0.35, rel=1e-3)
    assert small.omi_physics.use_motion
    bpy.ops.omi.copy_settings(shape_sizes='COPY')  # asked for: the active object's sizes
    assert small.omi_physics.collider.shape.radius == pytest.approx(0.6, rel=1e-3)


# --- 7. advanced sub-panels start closed -------------------------------------------------------------


def test_advanced_body_sub_panels_start_closed(omi):
    editor = omi("panels.properties_editor")
    for panel in (editor.PHYSICS_PT_omi_body_velocity, editor.PHYSICS_PT_omi_body_mass):
        assert 'DEFAULT_CLOSED' in panel.bl_options
    assert 'DEFAULT_CLOSED' not in getattr(editor.PHYSICS_PT_omi_collider, "bl_options", set())


# --- 8. physics materials reachable ----------------------------------------------------------------


def test_collider_material_has_a_new_button_and_its_values_inline(omi, clean_scene):
    editor = omi("panels.properties_editor")
    crate = cube("Crate")
    crate.omi_physics.use_collider = True
    shown = draw_panel(editor.PHYSICS_PT_omi_collider, make_context(crate))
    assert "omi.material_new" in shown.operators()
    with bpy.context.temp_override(object=crate):
        assert bpy.ops.omi.material_new() == {'FINISHED'}
    name = crate.omi_physics.collider.physics_material
    material = bpy.context.scene.omi_physics.physics_materials[name]
    shown = draw_panel(editor.PHYSICS_PT_omi_collider, make_context(crate))
    assert {"dynamic_friction", "restitution"} <= shown.prop_set(material)
    with bpy.context.temp_override(object=crate):
        bpy.ops.omi.material_new()  # a second New copies the one in use under a new name
    assert crate.omi_physics.collider.physics_material != name


# --- 9. joints placed where the bodies meet, clear labels -----------------------------------------


def test_create_joint_places_the_joint_where_the_two_bodies_meet(omi, clean_scene):
    post = cube("Post", location=(0.0, 0.0, 1.0))
    post.scale = (0.2, 0.2, 2.0)
    door = cube("Door", location=(0.0, 0.6, 1.0))
    door.scale = (0.1, 1.0, 2.0)
    bpy.context.view_layer.update()
    select(post)
    bpy.ops.omi.make_body(motion_type='STATIC')
    select(door)
    bpy.ops.omi.make_body(motion_type='DYNAMIC')
    select(post, door, active=door)
    assert bpy.ops.omi.create_joint(preset='HINGE', axis='Z') == {'FINISHED'}
    joint = bpy.data.objects["Door.joint"]
    # the post ends at y = 0.1, the door starts at y = 0.1: the hinge is on that edge, at mid-height
    assert (joint.matrix_world.translation - Vector((0.0, 0.1, 1.0))).length < 1e-4


def test_joint_panel_names_both_bodies_and_the_other_frame(omi, clean_scene):
    editor = omi("panels.properties_editor")
    a, b = cube("A"), cube("B", location=(2, 0, 0))
    for obj in (a, b):
        select(obj)
        bpy.ops.omi.make_body(motion_type='DYNAMIC')
    select(a, b, active=b)
    bpy.ops.omi.create_joint(preset='HINGE')
    joint = bpy.data.objects["B.joint"]
    shown = draw_panel(editor.PHYSICS_PT_omi_joint, make_context(joint))
    assert {"Body", "Other Body"} <= set(shown.labels())
    assert not {"To", "Joins"} & set(shown.labels())


# --- 10. discoverability ----------------------------------------------------------------------------


def test_overlay_switch_and_legend_in_the_viewports_overlays_popover(omi, clean_scene):
    legend = omi("panels.overlay_legend")
    panel = legend.VIEW3D_PT_omi_overlay
    assert panel.bl_parent_id == "VIEW3D_PT_overlay" and panel.bl_region_type == 'HEADER'
    assert hasattr(bpy.types, "VIEW3D_PT_omi_overlay")  # registered
    header = Recorder()
    panel.draw_header(type("P", (), {"layout": header})(), bpy.context)
    assert "show_overlay" in header.prop_set(bpy.context.scene.omi_physics)
    shown = draw_panel(panel, make_context(None))
    icons, geometry = omi("viewport.legend"), omi("viewport.geometry")
    drawn = {call.text: call.kwargs.get("icon_value") for call in shown.walk() if call.kind == "label"}
    assert {"Static", "Dynamic", "Kinematic", "Trigger", "Joint", "Limit"} <= set(drawn)
    for role, label in icons.LEGEND:  # each name beside a square of the colour the overlay draws it in
        assert drawn[label] == icons.icon(role)  # 0 in background mode, where Blender makes no icons
        pixels = icons.square(role).icon_pixels_float
        # stored as bytes, as given (no colour transform): within one step of 1/255
        assert tuple(pixels[:4]) == pytest.approx(geometry.ROLE_COLORS[role], abs=1 / 255)
        assert tuple(pixels[-4:]) == pytest.approx(geometry.ROLE_COLORS[role], abs=1 / 255)


def test_physics_objects_list_shows_only_objects_with_physics_and_selects(omi, clean_scene):
    lists, sidebar = omi("panels.lists"), omi("panels.sidebar")
    tagged = cube("Tagged")
    tagged.omi_physics.use_collider = True
    plain = cube("Plain", location=(3, 0, 0))
    assert hasattr(bpy.types, "VIEW3D_PT_omi_objects")  # registered, in the sidebar
    shown = draw_panel(sidebar.VIEW3D_PT_omi_objects, make_context(plain))
    assert [c.args[0] for c in shown.walk() if c.kind == "template_list"] == ["OMI_UL_physics_objects"]
    ui_list = types.SimpleNamespace(filter_name="", bitflag_filter_item=1 << 30, use_filter_invert=False,
                                    use_filter_sort_alpha=False)  # what Blender's UIList gives filter_items
    flags, _order = lists.OMI_UL_physics_objects.filter_items(ui_list, bpy.context, bpy.context.scene, "objects")
    objects = list(bpy.context.scene.objects)
    kept = {obj.name for obj, flag in zip(objects, flags, strict=True) if flag & ui_list.bitflag_filter_item}
    assert kept == {"Tagged"}
    state = bpy.context.window_manager.omi_authoring
    state.physics_objects_index = objects.index(tagged)
    assert bpy.context.view_layer.objects.active == tagged and tagged.select_get() and not plain.select_get()


def test_the_six_fit_buttons_have_six_tooltips(omi):
    fit = omi("operators.fit").OMI_OT_fit_collider
    shape = omi("properties.shape")
    texts = {fit.description(bpy.context, type("P", (), {"shape_type": item[0]})) for item in shape.SHAPE_TYPE_ITEMS}
    assert len(texts) == len(shape.SHAPE_TYPE_ITEMS)


def test_capsule_summary_says_its_full_height(omi, clean_scene):
    summary = omi("panels.summary")
    pillar = cube("Pillar")
    shape = pillar.omi_physics.collider.shape
    shape.shape_type = 'CAPSULE'
    shape.radius_top = shape.radius_bottom = 0.3
    shape.height = 2.4  # between the hemisphere centres: the pillar is 3 m tall
    assert summary.shape_summary(shape) == "Capsule r 0.3, 3 m tall"
