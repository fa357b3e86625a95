"""What an artist reads at Blender's default layout: digits, units, sub-labels, label widths, grid order.

Text widths are measured with Blender's own UI font (`blf`, 11 px at UI scale 1). The widths of the
editors come from the factory layout in a real Blender 5.2 window at 1600x1200 (scripts/screenshots/screenshots.py):
the Properties editor is 282 px wide, the 3D viewport's sidebar 292 px, the glTF dialog's options
249 px. In those screenshots a 77 px label fitted the label column of a split layout and an 86 px one
was cut ("Physics Mat..."); "Kinematic" fitted a third of the sidebar and "Convex Hull" did not; a
full-width note was cut after 174 px; the dialog cut "Blender Rigid Bodies" beside its checkbox; with
keyframe dots (use_property_decorate) "Gravity Factor" (74 px) and "Orientation W" (73 px) were cut and
"Collide Connected" lost its end. The widths and paddings below reproduce exactly those observations.
"""

from __future__ import annotations

from typing import Any

import bpy
import pytest
from ui_recorder import Recorder, draw_panel, make_context

PROPERTIES_PANEL_WIDTH = 210  # px inside a sub-panel of the 282 px Properties editor
SIDEBAR_PANEL_WIDTH = 250  # px inside a panel of the 292 px sidebar (tabs and margins off)
GLTF_DIALOG_WIDTH = 200  # px inside the OMI Physics section of the 249 px options region
SPLIT_LABEL_SHARE = 0.4  # use_property_split puts labels in 40% of the width
LABEL_PADDING = 5
ICON_WIDTH = 20  # an icon, or a checkbox
VECTOR_SUBTYPES = {'XYZ', 'XYZ_LENGTH', 'TRANSLATION', 'EULER', 'VELOCITY', 'ACCELERATION', 'DIRECTION',
                   'QUATERNION', 'AXISANGLE'}


def text_width(text: str) -> float:
    import blf  # a module of bpy's: importable only once bpy is (conftest no longer imports it)

    blf.size(0, 11)
    return blf.dimensions(0, text)[0]


def _rna_property(data, name: str):
    return data.bl_rna.properties[name]


def _button_text(call) -> str:
    if "text" in call.kwargs:
        return call.kwargs["text"]
    if call.kind in {"operator", "operator_menu_enum"}:
        category, _, name = call.args[0].partition(".")
        return getattr(getattr(bpy.ops, category), name).get_rna_type().name
    if call.kind == "label":
        return call.args[0] if call.args else ""
    return _rna_property(call.data, call.prop_name).name


def _split_label(call) -> str | None:
    """The text a prop shows in the label column of a split layout (None: drawn beside its checkbox)."""
    prop = _rna_property(call.data, call.prop_name)
    text = call.kwargs.get("text", prop.name)
    if _checkbox_text(call) or not text:
        return None
    if getattr(prop, "is_array", False) and prop.subtype in VECTOR_SUBTYPES:
        return f"{text} {'W' if prop.subtype == 'QUATERNION' else 'X'}"  # the first row's sub-label
    return text


def _checkbox_text(call) -> str | None:
    """A boolean's text, which a split layout draws beside the checkbox in the value column."""
    prop = _rna_property(call.data, call.prop_name)
    if prop.type != 'BOOLEAN' or getattr(prop, "is_array", False) or call.kwargs.get("toggle"):
        return None
    return call.kwargs.get("text", prop.name) or None


def too_wide(layout: Recorder, width: float, split: bool = False, decorate: bool = False) -> list[str]:
    """Texts that do not fit where the layout puts them: a small model of Blender's layout engine."""
    found: list[str] = []
    split = layout.attributes.get("use_property_split", split)
    if layout.attributes.get("use_property_decorate") and not decorate:
        width -= ICON_WIDTH  # the keyframe dots' column, taken from the split's width
        decorate = True
    items = [c for c in layout.calls if c.kind not in {"separator", "separator_spacer"}]
    if layout.kind == "grid_flow":
        share = width / max(1, min(len(items), next(iter(_grid_columns(layout)), 1)))
    elif layout.kind in {"row", "panel_header"}:  # icon-only items take an icon's width, the rest share
        icons = sum(c.kind != "layout" and c.kwargs.get("text") == "" and "icon" in c.kwargs for c in items)
        share = (width - icons * ICON_WIDTH) / max(1, len(items) - icons)
    else:
        share = width
    for index, call in enumerate(items):
        if call.kind == "layout":
            child = call.args[0]
            heading = call.kwargs.get("heading")
            if split and heading and text_width(heading) > width * SPLIT_LABEL_SHARE - LABEL_PADDING:
                found.append(heading)
            factor = call.kwargs.get("factor")
            child_width = share
            if layout.kind == "split" and layout.attributes.get("_factor") is not None:
                child_width = width * (layout.attributes["_factor"] if index == 0 else 1 - layout.attributes["_factor"])
            if child.kind == "split":
                child.attributes["_factor"] = factor if factor is not None else 0.5
            found += too_wide(child, child_width, split, decorate)
        elif call.kind in {"prop", "prop_search"} and split and call.kwargs.get("text", None) != "":
            label = _split_label(call)
            if label and text_width(label) > share * SPLIT_LABEL_SHARE - LABEL_PADDING:
                found.append(label)
            checkbox = _checkbox_text(call)
            if checkbox and text_width(checkbox) + ICON_WIDTH + LABEL_PADDING > share * (1 - SPLIT_LABEL_SHARE):
                found.append(checkbox)
        elif call.kind in {"operator", "operator_menu_enum", "label"}:
            text = _button_text(call)
            icon = ICON_WIDTH if call.kwargs.get("icon", 'NONE') != 'NONE' else 0
            if text and text_width(text) + icon + LABEL_PADDING > share:
                found.append(text)
    return found


def _grid_columns(layout: Recorder) -> list[int]:
    return [layout.attributes.get("_columns", 1)]


def _mark_grids(layout: Recorder) -> None:
    """Remember each grid_flow's column count on the child (the recorder keeps it on the parent's call)."""
    for call in layout.calls:
        if call.kind == "layout":
            if call.kwargs.get("kind") == "grid_flow":
                call.args[0].attributes["_columns"] = call.kwargs.get("columns", 1)
            _mark_grids(call.args[0])


def layout_problems(shown: Recorder, width: float) -> list[str]:
    _mark_grids(shown)
    return too_wide(shown, width)


@pytest.fixture
def scene_objects(clean_scene, omi_addon, omi):
    """A dynamic body with every part on, a static post, and a joint object under the body."""
    bpy.ops.mesh.primitive_cube_add()
    door = bpy.context.active_object
    door.name = "Door"
    bpy.ops.mesh.primitive_cube_add(location=(2.0, 0.0, 0.0))
    post = bpy.context.active_object
    post.name = "DoorPost"
    post.omi_physics.use_motion = True
    post.omi_physics.motion.motion_type = 'STATIC'
    settings = door.omi_physics
    for name in ("use_motion", "use_collider", "use_trigger", "use_joint"):
        setattr(settings, name, True)
    bpy.ops.object.empty_add(location=(1.0, 0.0, 0.0))
    joint = bpy.context.active_object
    joint.name = "Door.joint"
    joint.parent = door
    joint.omi_physics.use_joint = True
    joint.omi_physics.joint.connected_object = post
    for kind in ('LINEAR', 'ANGULAR'):
        limit = joint.omi_physics.joint.limits.add()
        limit.kind = kind
        limit.use_stiffness = True
    drive = joint.omi_physics.joint.drives.add()
    drive.use_position_target = drive.use_velocity_target = drive.use_max_force = True
    bpy.ops.omi.library_add(kind='MATERIAL')
    bpy.ops.omi.library_add(kind='FILTER')
    omi("operators.live_link").flush(bpy.context.scene)  # Blender's rigid bodies: the main panel's note on them
    assert door.rigid_body is not None
    return door, post, joint


def _editor_panels(omi) -> list[Any]:
    return list(omi("panels.properties_editor").CLASSES)


@pytest.mark.parametrize("shape_type", ['BOX', 'SPHERE', 'CAPSULE', 'CONVEX'])
def test_every_text_fits_the_default_editor_widths(omi, scene_objects, shape_type):
    door, _post, joint = scene_objects
    door.omi_physics.collider.shape.shape_type = shape_type
    door.omi_physics.collider.shape.use_offset = True
    door.omi_physics.joint.limits_active_index = 0
    problems: dict[str, list[Any]] = {}
    for obj in (door, joint):
        for limit_index in (0, 1):
            joint.omi_physics.joint.limits_active_index = limit_index
            context = make_context(obj, [obj])
            for panel in _editor_panels(omi):
                if panel.poll(context):  # every object's texts kept (the joint's drawing does not replace the door's)
                    problems.setdefault(panel.__name__, []).extend(
                        layout_problems(draw_panel(panel, context), PROPERTIES_PANEL_WIDTH))
    for panel in omi("panels.sidebar").CLASSES:
        context = make_context(door, [door])
        if not hasattr(panel, "poll") or panel.poll(context):
            problems[panel.__name__] = layout_problems(draw_panel(panel, context), SIDEBAR_PANEL_WIDTH)
    dialogs = omi("panels.gltf_dialogs")
    for draw in (dialogs.draw_export, dialogs.draw_import):
        shown = Recorder()
        draw(bpy.context, shown)
        problems[draw.__name__] = layout_problems(shown, GLTF_DIALOG_WIDTH)
    assert {name: texts for name, texts in problems.items() if texts} == {}


def test_the_width_model_reproduces_the_cut_labels_of_the_old_layout():
    """The labels the real Blender cut before the fixes are too wide in the model, the ones it showed fit."""
    split_label = PROPERTIES_PANEL_WIDTH * SPLIT_LABEL_SHARE - LABEL_PADDING
    assert text_width("Collision Filter") <= split_label < text_width("Physics Material")
    assert text_width("Linear Velocity X") > split_label
    full_width = PROPERTIES_PANEL_WIDTH - ICON_WIDTH - LABEL_PADDING
    cut_note = "Inertia 0 = computed by the engine"
    assert text_width(cut_note[:-2]) < full_width < text_width(cut_note)
    checkbox = PROPERTIES_PANEL_WIDTH * (1 - SPLIT_LABEL_SHARE) - ICON_WIDTH - LABEL_PADDING
    assert text_width("Collide Connected") <= checkbox
    assert text_width("Blender Rigid Bodies") > GLTF_DIALOG_WIDTH * (1 - SPLIT_LABEL_SHARE) - ICON_WIDTH - LABEL_PADDING
    third = SIDEBAR_PANEL_WIDTH / 3
    assert text_width("Kinematic") + ICON_WIDTH + LABEL_PADDING <= third < text_width("Convex Hull") + ICON_WIDTH


def test_lengths_masses_and_angles_show_what_artists_type(omi_addon):
    """With a unit Blender shows `precision` significant digits: 12.5 m needs 3, 0.125 m too."""
    groups = [cls for cls in bpy.types.PropertyGroup.__subclasses__() if cls.__module__.startswith(omi_addon.__name__)]
    checked = 0
    for cls in groups:
        for prop in cls.bl_rna.properties:
            if prop.type != 'FLOAT':
                continue
            if prop.unit != 'NONE' or prop.subtype in {'DISTANCE', 'ANGLE'}:
                assert prop.precision >= 3, f"{cls.__name__}.{prop.identifier} shows {prop.precision} digits"
                checked += 1
            if prop.is_array and prop.array_length in {3, 4} and prop.subtype not in {'COLOR', 'COLOR_GAMMA'}:
                assert prop.subtype in VECTOR_SUBTYPES, f"{cls.__name__}.{prop.identifier} has no X/Y/Z labels"
    assert checked >= 15


@pytest.mark.parametrize(("name", "unit"), [
    ("size", 'LENGTH'), ("radius", 'LENGTH'), ("height", 'LENGTH'), ("offset_location", 'LENGTH'),
    ("offset_rotation", 'ROTATION'),
])
def test_shape_fields_have_units(omi_addon, name, unit):
    prop = omi_addon.properties.shape.OMIShapeSettings.bl_rna.properties[name]
    assert prop.unit == unit


@pytest.mark.parametrize(("name", "unit"), [
    ("mass", 'MASS'), ("linear_velocity", 'VELOCITY'), ("angular_velocity", 'ROTATION'), ("center_of_mass", 'LENGTH'),
])
def test_motion_fields_have_units(omi_addon, name, unit):
    prop = omi_addon.properties.body.OMIMotionSettings.bl_rna.properties[name]
    assert prop.unit == unit


def test_button_grids_read_row_by_row(omi, scene_objects):
    door = scene_objects[0]
    context = make_context(door, [door])
    grids = []
    for panel in (*_editor_panels(omi), *omi("panels.sidebar").CLASSES):
        if hasattr(panel, "poll") and not panel.poll(context):
            continue
        shown = draw_panel(panel, context)
        stack = [shown]
        while stack:
            layout = stack.pop()
            for call in layout.calls:
                if call.kind == "layout":
                    if call.kwargs.get("kind") == "grid_flow":
                        grids.append((panel.__name__, call.kwargs.get("row_major", False)))
                    stack.append(call.args[0])
    assert len(grids) >= 3
    assert all(row_major for _name, row_major in grids), grids


def test_joint_panel_names_both_bodies_and_selects_them(omi, scene_objects):
    _door, post, joint = scene_objects
    panel = omi("panels.properties_editor").PHYSICS_PT_omi_joint
    shown = draw_panel(panel, make_context(joint, [joint]))
    buttons = shown.operator_calls("omi.select_object")
    assert [(c.kwargs["text"], c.kwargs["properties"].name) for c in buttons] == [("Door", "Door"),
                                                                                  ("DoorPost", "DoorPost")]
    assert {"Body", "Other Body"} <= set(shown.labels())
    assert bpy.ops.omi.select_object(name="DoorPost") == {'FINISHED'}
    assert bpy.context.view_layer.objects.active == post
    assert [obj.name for obj in bpy.context.selected_objects] == ["DoorPost"]
    joint.omi_physics.joint.connected_object = None
    shown = draw_panel(panel, make_context(joint, [joint]))
    assert [c.kwargs["text"] for c in shown.operator_calls("omi.select_object")] == ["Door"]
    assert "No body" in shown.labels()


def test_the_joint_shows_its_other_frame_name_whole(omi, scene_objects):
    """'Other Frame: Crate3.a...' was cut in the value column of a split row: the field has a row of its
    own, the whole width, under its label, so an anchor's name fits beside its icon and clear button."""
    _door, post, joint = scene_objects
    post.name = "LeftUpperArm.anchor"
    shown = draw_panel(omi("panels.properties_editor").PHYSICS_PT_omi_joint, make_context(joint, [joint]))
    call = next(c for c in shown.walk() if c.prop_name == "connected_object")
    assert call.text == "" and call.owner.attributes["use_property_split"] is False
    assert "Other Frame" in shown.labels()
    assert text_width(post.name) <= PROPERTIES_PANEL_WIDTH - 2 * ICON_WIDTH - LABEL_PADDING
    assert text_width(post.name) > (PROPERTIES_PANEL_WIDTH - ICON_WIDTH) * (1 - SPLIT_LABEL_SHARE) - 2 * ICON_WIDTH
