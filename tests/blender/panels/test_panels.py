"""Every panel's draw code, run against a recording stand-in for UILayout (no UI in background mode).

Checks which properties each panel shows for each shape, motion, trigger, joint limit and drive kind,
that poll hides the sub-panels that do not apply, and that drawing changes no data.
"""

from __future__ import annotations

import types

import bpy
import pytest
from rna_values import rna_values
from ui_recorder import Recorder, draw_panel, make_context

SHAPE_FIELDS = {"size", "radius", "height", "radius_top", "radius_bottom", "mesh_source", "mesh_object"}


@pytest.fixture
def ui(omi):
    return types.SimpleNamespace(
        editor=omi("panels.properties_editor"), sidebar=omi("panels.sidebar"), lists=omi("panels.lists"),
        draw=omi("panels.draw"),
    )


@pytest.fixture
def tagged(clean_scene, omi_addon):
    bpy.ops.mesh.primitive_cube_add()
    return bpy.context.active_object


def test_main_panel_polls_on_an_object_and_shows_the_part_switches(ui, tagged):
    panel = ui.editor.PHYSICS_PT_omi
    assert not panel.poll(make_context(None))
    assert panel.poll(make_context(tagged))
    shown = draw_panel(panel, make_context(tagged))
    assert shown.props() == ["use_motion", "use_collider", "use_trigger", "use_joint"]


def test_the_main_panel_points_to_blenders_rigid_body_made_from_the_settings(ui, tagged, omi):
    tagged.omi_physics.use_motion = True
    omi("operators.live_link").flush(bpy.context.scene)
    assert tagged.rigid_body is not None
    shown = draw_panel(ui.editor.PHYSICS_PT_omi, make_context(tagged))
    assert "Rigid Body follows OMI" in shown.labels()


@pytest.mark.parametrize(("panel_name", "switch"), [
    ("PHYSICS_PT_omi_body", "use_motion"), ("PHYSICS_PT_omi_collider", "use_collider"),
    ("PHYSICS_PT_omi_trigger", "use_trigger"), ("PHYSICS_PT_omi_joint", "use_joint"),
])
def test_sub_panels_show_only_when_their_part_is_on(ui, tagged, panel_name, switch):
    panel = getattr(ui.editor, panel_name)
    context = make_context(tagged)
    assert not panel.poll(context)
    setattr(tagged.omi_physics, switch, True)
    assert panel.poll(context)
    assert not panel.poll(make_context(None))
    assert panel.bl_parent_id == "PHYSICS_PT_omi"
    assert (panel.bl_space_type, panel.bl_context) == ('PROPERTIES', "physics")


@pytest.mark.parametrize(("shape_type", "source", "expected"), [
    ('BOX', 'SELF', {"size"}),
    ('SPHERE', 'SELF', {"radius"}),
    ('CAPSULE', 'SELF', {"height", "radius_top", "radius_bottom"}),
    ('CYLINDER', 'SELF', {"height", "radius_top", "radius_bottom"}),
    ('CONVEX', 'SELF', {"mesh_source"}),
    ('CONVEX', 'OBJECT', {"mesh_source", "mesh_object"}),
    ('TRIMESH', 'OBJECT', {"mesh_source", "mesh_object"}),
])
def test_collider_panel_shows_the_fields_of_the_shape_type(ui, tagged, shape_type, source, expected):
    settings = tagged.omi_physics
    settings.use_collider = True
    shape = settings.collider.shape
    shape.shape_type = shape_type
    shape.mesh_source = source
    shown = draw_panel(ui.editor.PHYSICS_PT_omi_collider, make_context(tagged))
    fields = shown.prop_set(shape)
    assert fields & SHAPE_FIELDS == expected
    assert {"shape_type", "use_offset"} <= fields
    assert "offset_location" not in fields
    assert shown.prop_set(settings.collider) == {"is_compound", "physics_material", "collision_filter"}
    searches = [c for c in shown.walk() if c.kind == "prop_search"]
    assert [c.args[3] for c in searches] == ["physics_materials", "collision_filters"]


def test_collider_offset_and_compound(ui, tagged):
    collider = tagged.omi_physics.collider
    tagged.omi_physics.use_collider = True
    collider.shape.use_offset = True
    shown = draw_panel(ui.editor.PHYSICS_PT_omi_collider, make_context(tagged))
    assert {"offset_location", "offset_rotation"} <= shown.prop_set(collider.shape)
    collider.is_compound = True
    shown = draw_panel(ui.editor.PHYSICS_PT_omi_collider, make_context(tagged))
    assert shown.prop_set(collider.shape) == set()  # a compound collider has no shape of its own


@pytest.mark.parametrize(("motion_type", "expected"), [
    ('STATIC', ["motion_type"]),
    ('KINEMATIC', ["motion_type", "linear_velocity", "angular_velocity"]),
    ('DYNAMIC', ["motion_type", "mass", "gravity_factor", "linear_velocity", "angular_velocity", "infinite_mass",
                 "use_center_of_mass", "center_of_mass", "inertia_diagonal", "infinite_inertia",
                 "inertia_orientation"]),
])
def test_body_panel_shows_the_fields_of_the_motion_type(ui, tagged, motion_type, expected):
    """Body Motion and its sub-panels (Initial Velocity, Mass Distribution) together, in order."""
    tagged.omi_physics.use_motion = True
    tagged.omi_physics.motion.motion_type = motion_type
    context = make_context(tagged)
    panels = [panel for panel in (ui.editor.PHYSICS_PT_omi_body, ui.editor.PHYSICS_PT_omi_body_velocity,
                                  ui.editor.PHYSICS_PT_omi_body_mass) if panel.poll(context)]
    shown = [name for panel in panels for name in draw_panel(panel, context).props(tagged.omi_physics.motion)]
    assert shown == expected
    notes = [label for panel in panels for label in draw_panel(panel, context).labels()]
    assert (ui.draw.INERTIA_NOTE in notes) is (motion_type == 'DYNAMIC')  # on the panel, not only a tooltip


def test_trigger_panel_shape_or_compound_parts(ui, tagged):
    trigger = tagged.omi_physics.trigger
    tagged.omi_physics.use_trigger = True
    trigger.shape.shape_type = 'SPHERE'
    shown = draw_panel(ui.editor.PHYSICS_PT_omi_trigger, make_context(tagged))
    assert shown.prop_set(trigger.shape) & SHAPE_FIELDS == {"radius"}
    assert "omi.trigger_node_add" not in shown.operators()
    trigger.is_compound = True
    shown = draw_panel(ui.editor.PHYSICS_PT_omi_trigger, make_context(tagged))
    assert shown.prop_set(trigger.shape) == set()
    lists = [c for c in shown.walk() if c.kind == "template_list"]
    assert [c.args[0] for c in lists] == ["OMI_UL_trigger_nodes"]
    assert {"omi.trigger_node_add", "omi.trigger_node_remove"} <= set(shown.operators())
    assert "collision_filter" in shown.prop_set(trigger)


def test_joint_panel_limit_fields_follow_kind_bounds_and_softness(ui, tagged):
    joint = tagged.omi_physics.joint
    tagged.omi_physics.use_joint = True
    shown = draw_panel(ui.editor.PHYSICS_PT_omi_joint, make_context(tagged))
    assert {"connected_object", "enable_collision", "preset"} <= shown.prop_set(joint)
    assert [c.args[0] for c in shown.walk() if c.kind == "template_list"] == [
        "OMI_UL_joint_limits", "OMI_UL_joint_drives"]
    limit = joint.limits.add()
    limit.kind = 'ANGULAR'
    shown = draw_panel(ui.editor.PHYSICS_PT_omi_joint, make_context(tagged))
    fields = shown.prop_set(limit)
    assert {"min_angular", "max_angular", "damping", "use_stiffness"} <= fields
    assert not fields & {"min_linear", "max_linear", "stiffness"}
    limit.kind = 'LINEAR'
    limit.use_min = False
    limit.use_stiffness = True
    fields = draw_panel(ui.editor.PHYSICS_PT_omi_joint, make_context(tagged)).prop_set(limit)
    assert {"max_linear", "stiffness"} <= fields
    assert not fields & {"min_linear", "min_angular", "max_angular"}


@pytest.mark.parametrize(("kind", "shows", "hides"), [
    (('ANGULAR', False, True), {"velocity_target", "damping"}, {"position_target_angular", "stiffness"}),
    (('ANGULAR', True, False), {"position_target_angular", "stiffness"}, {"velocity_target", "position_target_linear"}),
    (('LINEAR', True, True), {"position_target_linear", "velocity_target"}, {"position_target_angular"}),
])
def test_joint_panel_drive_fields_follow_drive_kind(ui, tagged, kind, shows, hides):
    drive_type, use_position, use_velocity = kind
    joint = tagged.omi_physics.joint
    tagged.omi_physics.use_joint = True
    drive = joint.drives.add()
    drive.drive_type = drive_type
    drive.use_position_target = use_position
    drive.use_velocity_target = use_velocity
    fields = draw_panel(ui.editor.PHYSICS_PT_omi_joint, make_context(tagged)).prop_set(drive)
    assert shows <= fields
    assert not hides & fields
    assert "max_force" not in fields
    drive.use_max_force = True
    assert "max_force" in draw_panel(ui.editor.PHYSICS_PT_omi_joint, make_context(tagged)).prop_set(drive)


def test_library_panels_show_the_active_entry(ui, tagged):
    scene = bpy.context.scene
    settings = scene.omi_physics
    bpy.ops.omi.library_add_preset(kind='MATERIAL', preset="Ice")
    shown = draw_panel(ui.editor.PHYSICS_PT_omi_materials, make_context(tagged))
    material = settings.physics_materials[0]
    assert shown.prop_set(material) == {"static_friction", "dynamic_friction", "restitution", "friction_combine",
                                        "restitution_combine"}
    assert {"omi.library_add", "omi.library_remove", "omi.library_rename", "omi.library_add_preset"} <= set(
        shown.operators())
    bpy.ops.omi.library_add(kind='FILTER')
    collision_filter = settings.collision_filters[0]
    shown = draw_panel(ui.editor.PHYSICS_PT_omi_filters, make_context(tagged))
    assert [c.args[3] for c in shown.walk() if c.kind == "template_list"] == ["collision_filters", "collision_systems"]
    collision_filter.mode = 'EXCEPT'
    shown = draw_panel(ui.editor.PHYSICS_PT_omi_filters, make_context(tagged))
    assert [c.args[3] for c in shown.walk() if c.kind == "template_list"] == [
        "collision_filters", "collision_systems", "listed_systems"]


def test_sidebar_tools_act_on_the_selection(ui, tagged):
    shown = draw_panel(ui.sidebar.VIEW3D_PT_omi_physics, make_context(tagged, [tagged]))
    bodies = [c.kwargs["properties"].motion_type for c in shown.operator_calls("omi.make_body")]
    assert bodies == ['STATIC', 'KINEMATIC', 'DYNAMIC']
    shapes = [c.kwargs["properties"].shape_type for c in shown.operator_calls("omi.fit_collider")]
    assert shapes == ['BOX', 'SPHERE', 'CAPSULE', 'CYLINDER', 'CONVEX', 'TRIMESH']
    menus = [(c.args[0], c.args[1]) for c in shown.walk() if c.kind == "operator_menu_enum"]
    assert ("omi.assign_material", "material") in menus
    assert ("omi.assign_filter", "collision_filter") in menus
    assert {"omi.convex_decomposition", "omi.tag_from_names", "omi.copy_settings", "omi.clear_physics"} <= set(
        shown.operators())
    assert "1 selected" in shown.labels()
    for panel in ui.sidebar.CLASSES:
        assert (panel.bl_space_type, panel.bl_region_type, panel.bl_category) == ('VIEW_3D', 'UI', "Physics")


def test_sidebar_summary_of_the_active_object(ui, tagged):
    panel = ui.sidebar.VIEW3D_PT_omi_active
    assert not panel.poll(make_context(None))
    assert panel.poll(make_context(tagged))
    assert draw_panel(panel, make_context(tagged)).labels() == [tagged.name, "No OMI physics"]
    settings = tagged.omi_physics
    settings.use_motion = True
    settings.motion.mass = 2.5
    settings.use_collider = True
    settings.collider.shape.shape_type = 'SPHERE'
    settings.collider.shape.radius = 0.75
    settings.collider.physics_material = "Ice"
    labels = draw_panel(panel, make_context(tagged)).labels()
    assert labels == [tagged.name, "Dynamic body, 2.5 kg", "Collider: Sphere r 0.75 m", "Material: Ice"]


def test_sidebar_joint_and_scene_panels(ui, tagged):
    shown = draw_panel(ui.sidebar.VIEW3D_PT_omi_joints, make_context(tagged))
    presets = [c.kwargs["properties"].preset for c in shown.operator_calls("omi.create_joint")]
    assert presets == ['FIXED', 'PIN', 'HINGE', 'SLIDER', 'CUSTOM']
    grid = shown.operator_calls("omi.create_joint")[0].owner
    assert grid.kind == "grid_flow"
    assert next(c.kwargs for c in shown.calls if c.kind == "layout" and c.args[0] is grid)["row_major"]
    shown = draw_panel(ui.sidebar.VIEW3D_PT_omi_scene, make_context(tagged))
    assert "show_overlay" in shown.prop_set(bpy.context.scene.omi_physics)
    assert {"omi.sync_to_rigid_bodies", "omi.sync_from_rigid_bodies"} <= set(shown.operators())


def test_validate_comes_before_the_scene_and_the_objects_list_in_the_sidebar(ui):
    """Sub-panels draw in registration order: below the 6-row objects list, the active problem's message fell
    under the sidebar's bottom in a real Blender 5.2.2 window at the factory layout."""
    order = [cls.__name__ for cls in ui.sidebar.CLASSES]
    assert order.index("VIEW3D_PT_omi_validate") < order.index("VIEW3D_PT_omi_scene")
    assert order.index("VIEW3D_PT_omi_validate") < order.index("VIEW3D_PT_omi_objects")


def test_validate_panel_lists_problems_after_a_check(ui, tagged):
    panel = ui.sidebar.VIEW3D_PT_omi_validate
    state = bpy.context.window_manager.omi_authoring
    state.checked = False
    shown = draw_panel(panel, make_context(tagged))
    assert shown.operators() == ["omi.validate_scene", "omi.check_export"]
    tagged.omi_physics.use_motion = True  # a dynamic body without a collider
    bpy.ops.omi.validate_scene()
    shown = draw_panel(panel, make_context(tagged))
    assert [c.args[0] for c in shown.walk() if c.kind == "template_list"] == ["OMI_UL_problems"]
    assert "omi.select_problem" in shown.operators()
    row = Recorder()
    ui.lists.OMI_UL_problems.draw_item(None, None, row, state, state.problems[0], 0, state, "problems_active_index", 0)
    assert row.labels()[0] == tagged.name
    problems_list = next(c for c in shown.walk() if c.kind == "template_list")
    assert problems_list.kwargs["item_dyntip_propname"] == "message"  # a row's tooltip: the whole message
    assert state.problems[0].bl_rna.properties["message"].type == 'STRING'  # what Blender reads the tooltip from
    assert row.operator_calls("omi.select_problem")[0].kwargs["properties"].index == 0


def test_drawing_changes_no_data(ui, tagged):
    settings = tagged.omi_physics
    for name in ("use_motion", "use_collider", "use_trigger", "use_joint"):
        setattr(settings, name, True)
    settings.joint.limits.add()
    settings.joint.drives.add()
    bpy.ops.omi.library_add(kind='MATERIAL')
    bpy.ops.omi.library_add(kind='FILTER')
    before = (rna_values(settings), rna_values(bpy.context.scene.omi_physics))
    context = make_context(tagged, [tagged])
    for panel in (*ui.editor.CLASSES, *ui.sidebar.CLASSES):
        if panel.poll(context) if hasattr(panel, "poll") else True:
            draw_panel(panel, context)
    assert (rna_values(settings), rna_values(bpy.context.scene.omi_physics)) == before


def test_ui_lists_draw_each_row(ui, tagged):
    settings = tagged.omi_physics
    scene = bpy.context.scene.omi_physics
    bpy.ops.omi.library_add(kind='MATERIAL')
    bpy.ops.omi.library_add(kind='FILTER')
    bpy.ops.omi.filter_system_add(system="Player")
    limit = settings.joint.limits.add()
    limit.kind = 'ANGULAR'
    limit.axis_y = False
    drive = settings.joint.drives.add()
    drive.use_position_target = True
    node = settings.trigger.nodes.add()
    rows = {
        "OMI_UL_physics_materials": (scene, scene.physics_materials[0]),
        "OMI_UL_collision_filters": (scene, scene.collision_filters[0]),
        "OMI_UL_system_names": (scene.collision_filters[0], scene.collision_filters[0].collision_systems[0]),
        "OMI_UL_joint_limits": (settings.joint, limit),
        "OMI_UL_joint_drives": (settings.joint, drive),
        "OMI_UL_trigger_nodes": (settings.trigger, node),
    }
    drawn = {}
    for name, (data, item) in rows.items():
        row = Recorder()
        getattr(ui.lists, name).draw_item(None, None, row, data, item, 0, data, "", 0)
        drawn[name] = row
    assert drawn["OMI_UL_physics_materials"].labels() == ["Material"]  # names change through Rename only
    assert drawn["OMI_UL_system_names"].props() == ["name"]  # system names are edited in place
    assert drawn["OMI_UL_joint_limits"].labels() == ["Angular XZ fixed"]
    assert drawn["OMI_UL_joint_drives"].labels() == ["Spring angular X"]
    assert drawn["OMI_UL_trigger_nodes"].props() == ["target"]


@pytest.mark.parametrize(("shape_type", "budget_shown"), [('BOX', False), ('CONVEX', True)])
def test_fit_redo_panel_shows_the_budget_for_hulls_only(omi, shape_type, budget_shown):
    fit = omi("operators.fit").OMI_OT_fit_collider
    stand_in = types.SimpleNamespace(layout=Recorder(), shape_type=shape_type, use_vertex_budget=True)
    fit.draw(stand_in, None)
    shown = stand_in.layout.props()
    assert shown[:3] == ["shape_type", "role", "target"]
    assert ("vertex_budget" in shown) is budget_shown


@pytest.mark.parametrize(("preset", "expected"), [
    ('FIXED', ["preset"]),
    ('HINGE', ["preset", "axis", "angle_min", "angle_max"]),
    ('SLIDER', ["preset", "axis", "distance_min", "distance_max", "slider_turns"]),
])
def test_create_joint_redo_panel_shows_the_preset_parameters(omi, preset, expected):
    joint = omi("operators.joint").OMI_OT_create_joint
    stand_in = types.SimpleNamespace(layout=Recorder(), preset=preset, slider_turns=False)
    stand_in.draw_preset = types.MethodType(joint.draw_preset, stand_in)
    joint.draw(stand_in, None)
    assert stand_in.layout.props() == ["location", "enable_collision", *expected]


def test_a_factor_says_it_is_one(ui, tagged):
    """'Gravity 1.000' read as an acceleration: the row says it multiplies gravity."""
    tagged.omi_physics.use_motion = True
    shown = draw_panel(ui.editor.PHYSICS_PT_omi_body, make_context(tagged))
    [row] = [call for call in shown.walk() if call.prop_name == "gravity_factor"]
    times = "\N{MULTIPLICATION SIGN}"
    assert row.text == f"Gravity {times}"
    assert bpy.ops.omi.gravity_volume_from_selection.get_rna_type().properties["reach"].name == f"Reach ({times} Size)"
