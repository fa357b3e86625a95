"""Shared draw functions: one `draw_<thing>(layout, settings)` per settings block.

The Properties editor panels and the 3D viewport sidebar both call these, so a setting looks the same
wherever it is edited. They only read settings and place widgets: no data changes, no logic beyond
choosing which fields apply (shape fields by shape type, drive fields by drive kind).
"""

from __future__ import annotations

import textwrap
from typing import Literal, cast

import bpy

from ..io.blender.builder.plan import motion_owner
from ..properties import homes, object_physics
from ..properties.body import (
    MOTION_TYPE_ITEMS,
    OMIColliderSettings,
    OMIMotionSettings,
    OMITriggerSettings,
)
from ..properties.convert_build import settings_parts
from ..properties.joint import OMIJointDrive, OMIJointLimit
from ..properties.scene import OMICollisionFilter, OMIPhysicsMaterial, OMISceneSettings
from ..properties.session import OMIAuthoringState
from ..properties.shape import ROUND_SHAPES, SHAPE_TYPE_ITEMS, OMIShapeSettings

# The icons passed around here (each a Blender icon in 4.2 and the newest; the stubs type `icon` as the
# Literal of their version's icons, so a plain str is refused).
Icon = Literal['NONE', 'BLANK1', 'ERROR', 'INFO', 'MATERIAL', 'FILTER', 'LOCKED', 'ANIM', 'PHYSICS', 'MESH_CUBE',
               'MESH_UVSPHERE', 'MESH_CAPSULE', 'MESH_CYLINDER', 'MESH_ICOSPHERE', 'MESH_MONKEY', 'GHOST_ENABLED',
               'CONSTRAINT', 'QUESTION']
IconEnumItem = tuple[str, str, str, Icon, int]  # an EnumProperty item whose icon is an Icon

_SHAPE_LABELS = {item[0]: item[1] for item in SHAPE_TYPE_ITEMS}
_MOTION_ICONS = {item[0]: item[3] for item in cast("list[IconEnumItem]", MOTION_TYPE_ITEMS)}  # LOCKED, ANIM, PHYSICS
# Shorter row labels where the property's own name does not fit the label column of a split layout
# at the Properties editor's default width (the name stays in the tooltip and in Python).
_SHORT_LABELS = {
    "linear_velocity": "Linear", "angular_velocity": "Angular", "center_of_mass": "Center",
    "inertia_diagonal": "Inertia", "inertia_orientation": "Rotation", "gravity_factor": "Gravity ×",  # noqa: RUF001 - the multiplication sign
    "infinite_inertia": "Infinite",  # under Inertia: its X/Y/Z rows read "Infinite X", "Y", "Z"
    "radius_top": "Radius Top", "radius_bottom": "Bottom",  # one column, as Blender's "Location X / Y / Z"
}
_BODY_FIELDS = ("mass", "gravity_factor")
_VELOCITY_FIELDS = ("linear_velocity", "angular_velocity")
_MASS_DISTRIBUTION_FIELDS = ("infinite_mass", "center_of_mass", "inertia_diagonal", "infinite_inertia",
                             "inertia_orientation")
INERTIA_NOTE = "Inertia 0: computed by engine"  # on the panel, not only in the tooltip
SIDEBAR_WIDTH = 292  # px: the 3D viewport's sidebar at Blender's factory layout, UI scale 1
CHARACTER_WIDTH = 6.2  # px: the average width of a character of Blender's UI font at scale 1 (11 px)


def short_prop(layout: bpy.types.UILayout, data: bpy.types.PropertyGroup, name: str) -> None:
    """A property under its short label when its own name does not fit the label column."""
    if name in _SHORT_LABELS:
        layout.prop(data, name, text=_SHORT_LABELS[name])
    else:
        layout.prop(data, name)


def draw_wrapped(layout: bpy.types.UILayout, text: str, width: float, icon: Icon = 'NONE') -> None:
    """`text` whole, wrapped to `width` px (a region's width) as label lines: Blender cuts a long label."""
    characters = max(16, int((width - 40) / CHARACTER_WIDTH))
    column = layout.column(align=True)
    for number, line in enumerate(textwrap.wrap(text, characters) or [""]):
        column.label(text=line, icon=icon if number == 0 else 'BLANK1' if icon != 'NONE' else 'NONE')


def registered(properties: bpy.types.OperatorProperties | None) -> bpy.types.OperatorProperties:
    """An operator button's properties: Blender returns None only for an operator that is not registered
    (the stubs allow it), and the add-on's are while its panels draw."""
    assert properties is not None, "the add-on's operators are registered while its panels draw"
    return properties


def split_row(layout: bpy.types.UILayout, label: str) -> bpy.types.UILayout:
    """A row laid out like a property of a `use_property_split` layout with decorators: `label` in the
    label column, an empty decorator slot at the end; returns the value side."""
    row = layout.row()
    split = row.split(factor=0.4, align=True)
    label_side = split.row()
    label_side.alignment = 'RIGHT'
    label_side.label(text=label)
    value = split.row(align=True)
    row.label(text="", icon='BLANK1')
    return value


def shape_fields(shape: OMIShapeSettings) -> tuple[str, ...]:
    """The shape properties that apply to the shape's type (the only ones drawn)."""
    if shape.shape_type == 'BOX':
        return ("size",)
    if shape.shape_type == 'SPHERE':
        return ("radius",)
    if shape.shape_type in ROUND_SHAPES:
        return ("height", "radius_top", "radius_bottom")
    if shape.mesh_source == 'OBJECT':
        return ("mesh_source", "mesh_object")
    return ("mesh_source",)


def draw_shape(layout: bpy.types.UILayout, shape: OMIShapeSettings) -> None:
    """Shape type, the fields of that type, and the optional offset from the object's origin."""
    layout.prop(shape, "shape_type")
    column = layout.column(align=True)
    for name in shape_fields(shape):
        short_prop(column, shape, name)
    if shape.shape_type == 'BOX' and not all(side > 0.0 for side in shape.size):
        layout.label(text="Flat box: exported with a thickness", icon='ERROR')
    layout.prop(shape, "use_offset")
    if shape.use_offset:
        offset = layout.column(align=True)
        offset.prop(shape, "offset_location")
        offset.prop(shape, "offset_rotation")


def motion_fields(motion: OMIMotionSettings) -> tuple[str, ...]:
    """Motion properties that mean something for the motion type."""
    if motion.motion_type == 'STATIC':
        return ()
    if motion.motion_type == 'KINEMATIC':
        return ("linear_velocity", "angular_velocity")
    return ("mass", "gravity_factor", "linear_velocity", "angular_velocity", "infinite_mass", "center_of_mass",
            "inertia_diagonal", "infinite_inertia", "inertia_orientation")


def draw_motion(layout: bpy.types.UILayout, motion: OMIMotionSettings) -> None:
    """Motion type, mass and gravity; velocities and mass distribution have sub-panels of their own."""
    layout.prop(motion, "motion_type")
    for name in motion_fields(motion):
        if name == "mass":  # Blender's Rigid Body Mass once the object has a rigid body: one value, one home
            owner, prop = homes.mass_home(motion)
            layout.prop(owner, prop)
        elif name in _BODY_FIELDS:
            short_prop(layout, motion, name)


def draw_velocity(layout: bpy.types.UILayout, motion: OMIMotionSettings) -> None:
    """Initial linear (m/s) and angular (degrees per second) velocity, one X/Y/Z column each."""
    for name in motion_fields(motion):
        if name in _VELOCITY_FIELDS:
            short_prop(layout.column(align=True), motion, name)


def draw_mass_distribution(layout: bpy.types.UILayout, motion: OMIMotionSettings) -> None:
    """Infinite mass, center of mass, inertia and the axes of infinite inertia (KHR's 0, read from files and
    written to KHR); what the engine computes is said on the panel itself (a switch greys the center of mass,
    zero inertia is noted)."""
    for name in motion_fields(motion):
        if name in _MASS_DISTRIBUTION_FIELDS:
            if name == "center_of_mass":
                layout.prop(motion, "use_center_of_mass", text="Set Center")
            column = layout.column(align=True)
            column.active = name != "center_of_mass" or motion.use_center_of_mass  # off: greyed, engine computes
            short_prop(column, motion, name)
            if name == "inertia_diagonal":
                layout.label(text=INERTIA_NOTE, icon='INFO')


def draw_library_choice(layout: bpy.types.UILayout, settings: OMIColliderSettings | OMITriggerSettings, name: str,
                        scene_settings: OMISceneSettings, library: str, *, icon: Icon, text: str | None = None) -> None:
    """A name field that picks an entry of a scene library (materials or filters)."""
    if text is None:
        layout.prop_search(settings, name, scene_settings, library, icon=icon)
    else:
        layout.prop_search(settings, name, scene_settings, library, icon=icon, text=text)


def draw_collider(layout: bpy.types.UILayout, collider: OMIColliderSettings, scene_settings: OMISceneSettings) -> None:
    layout.prop(collider, "is_compound")
    if not collider.is_compound:
        draw_shape(layout, collider.shape)
    row = layout.row(align=True)
    draw_library_choice(row, collider, "physics_material", scene_settings, "physics_materials", icon='MATERIAL',
                        text="Material")
    row.operator("omi.material_new", text="", icon='ADD')
    material = scene_settings.physics_materials.get(collider.physics_material)
    if material is not None:  # the values of the material in use, editable here: no trip to the library
        column = layout.column(align=True)
        column.prop(material, "dynamic_friction", text="Friction")
        column.prop(material, "restitution", text="Bounciness")
    draw_library_choice(layout, collider, "collision_filter", scene_settings, "collision_filters", icon='FILTER',
                        text="Filter")


def draw_trigger(layout: bpy.types.UILayout, trigger: OMITriggerSettings) -> None:
    """Trigger shape, or for a compound trigger the list of its member objects."""
    layout.prop(trigger, "is_compound")
    if trigger.is_compound:
        row = layout.row()
        row.template_list("OMI_UL_trigger_nodes", "", trigger, "nodes", trigger, "nodes_active_index", rows=3)
        buttons = row.column(align=True)
        buttons.operator("omi.trigger_node_add", icon='ADD', text="")
        buttons.operator("omi.trigger_node_remove", icon='REMOVE', text="")
    else:
        draw_shape(layout, trigger.shape)


def draw_trigger_filter(layout: bpy.types.UILayout, trigger: OMITriggerSettings,
                        scene_settings: OMISceneSettings) -> None:
    draw_library_choice(layout, trigger, "collision_filter", scene_settings, "collision_filters", icon='FILTER',
                        text="Filter")


def limit_fields(limit: OMIJointLimit) -> tuple[str, ...]:
    """Limit properties that apply: the min/max of the limit's kind, stiffness only when soft."""
    suffix = "linear" if limit.kind == 'LINEAR' else "angular"
    fields = ["kind", "axis_x", "axis_y", "axis_z", "use_min"]
    if limit.use_min:
        fields.append(f"min_{suffix}")
    fields.append("use_max")
    if limit.use_max:
        fields.append(f"max_{suffix}")
    fields.append("use_stiffness")
    if limit.use_stiffness:
        fields.append("stiffness")
    fields.append("damping")
    return tuple(fields)


def draw_limit(layout: bpy.types.UILayout, limit: OMIJointLimit) -> None:
    """Kind, axes, then each bound as Blender's constraint panels do: a heading, a switch, the value."""
    fields = limit_fields(limit)
    layout.prop(limit, "kind")
    axes = layout.row(align=True, heading="Axes")
    for name in ("axis_x", "axis_y", "axis_z"):
        axes.prop(limit, name, toggle=True)
    for bound, heading in (("min", "Minimum"), ("max", "Maximum")):
        row = layout.row(align=True, heading=heading)
        row.prop(limit, f"use_{bound}", text="")
        value = next((name for name in fields if name.startswith(f"{bound}_")), None)
        if value is None:
            row.label(text="None")
        else:
            row.prop(limit, value, text="")
    layout.prop(limit, "use_stiffness")
    if "stiffness" in fields:
        layout.prop(limit, "stiffness")
    layout.prop(limit, "damping")


def drive_kind(drive: OMIJointDrive) -> str:
    """'SPRING' when the drive has a position target, 'MOTOR' when only a velocity target, else 'NONE'."""
    if drive.use_position_target:
        return 'SPRING'
    if drive.use_velocity_target:
        return 'MOTOR'
    return 'NONE'


def drive_fields(drive: OMIJointDrive) -> tuple[str, ...]:
    """Drive properties that apply to the drive's kind and type (linear or angular target)."""
    fields = ["drive_type", "mode", "axis", "use_position_target"]
    if drive.use_position_target:
        fields.append("position_target_linear" if drive.drive_type == 'LINEAR' else "position_target_angular")
        fields.append("stiffness")
    fields.append("use_velocity_target")
    if drive.use_velocity_target:
        fields.append("velocity_target")
    fields.append("damping")
    fields.append("use_max_force")
    if drive.use_max_force:
        fields.append("max_force")
    return tuple(fields)


def draw_drive(layout: bpy.types.UILayout, drive: OMIJointDrive) -> None:
    """Type, mode and axis; each target and the force cap as a heading with its switch and value."""
    fields = drive_fields(drive)
    layout.prop(drive, "drive_type")
    layout.prop(drive, "mode")
    layout.prop(drive, "axis", expand=True)
    position = next((name for name in fields if name.startswith("position_target_")), None)
    for switch, value, heading in (("use_position_target", position, "Position"),
                                   ("use_velocity_target", "velocity_target", "Velocity"),
                                   ("use_max_force", "max_force", "Max Force")):
        row = layout.row(align=True, heading=heading)
        row.prop(drive, switch, text="")
        if value in fields:
            row.prop(drive, value, text="")
        if switch == "use_position_target" and "stiffness" in fields:
            layout.prop(drive, "stiffness")
        if switch == "use_velocity_target":
            layout.prop(drive, "damping")


def joined_bodies(obj: bpy.types.Object) -> tuple[bpy.types.Object | None, bpy.types.Object | None]:
    """The two bodies a joint object joins: its own body and the connected object's (None where missing)."""
    return (motion_owner(obj, settings_parts),
            motion_owner(object_physics(obj).joint.connected_object, settings_parts))


def draw_joined_bodies(layout: bpy.types.UILayout, obj: bpy.types.Object) -> None:
    """Both bodies by name, each a button that selects it (the joint and anchor objects are only frames)."""
    for label, body in zip(("Body", "Other Body"), joined_bodies(obj), strict=True):
        value = split_row(layout, label)
        if body is None:
            value.label(text="No body", icon='ERROR')
        else:
            icon = _MOTION_ICONS[object_physics(body).motion.motion_type]
            registered(value.operator("omi.select_object", text=body.name, icon=icon)).name = body.name


def draw_joint(layout: bpy.types.UILayout, obj: bpy.types.Object) -> None:
    """The joined bodies, connection, preset, then the limits and drives lists with the active entry's fields."""
    joint = object_physics(obj).joint
    draw_joined_bodies(layout, obj)
    layout.label(text="Other Frame")  # its field the whole width: a value column cut "Crate3.a..."
    frame = layout.row()
    frame.use_property_split = frame.use_property_decorate = False
    frame.prop(joint, "connected_object", text="")
    layout.prop(joint, "enable_collision", text="Bodies Collide")
    layout.prop(joint, "preset")

    layout.label(text="Limits")
    row = layout.row()
    row.template_list("OMI_UL_joint_limits", "", joint, "limits", joint, "limits_active_index", rows=3)
    buttons = row.column(align=True)
    buttons.operator("omi.joint_limit_add", icon='ADD', text="")
    buttons.operator("omi.joint_limit_remove", icon='REMOVE', text="")
    if 0 <= joint.limits_active_index < len(joint.limits):
        draw_limit(layout.box(), joint.limits[joint.limits_active_index])

    layout.label(text="Drives")
    row = layout.row()
    row.template_list("OMI_UL_joint_drives", "", joint, "drives", joint, "drives_active_index", rows=2)
    buttons = row.column(align=True)
    registered(buttons.operator("omi.joint_drive_add", icon='ADD', text="")).kind = 'MOTOR'
    registered(buttons.operator("omi.joint_drive_add", icon='FORCE_HARMONIC', text="")).kind = 'SPRING'
    buttons.operator("omi.joint_drive_remove", icon='REMOVE', text="")
    if 0 <= joint.drives_active_index < len(joint.drives):
        draw_drive(layout.box(), joint.drives[joint.drives_active_index])


def draw_material(layout: bpy.types.UILayout, material: OMIPhysicsMaterial) -> None:
    layout.use_property_split = True
    layout.use_property_decorate = True  # frictions and restitution animate (KHR_animation_pointer)
    layout.label(text="Friction")
    column = layout.column(align=True)
    column.prop(material, "static_friction", text="Static")
    column.prop(material, "dynamic_friction", text="Dynamic")
    layout.prop(material, "restitution")
    layout.label(text="Combine")
    column = layout.column(align=True)
    column.prop(material, "friction_combine", text="Friction")
    column.prop(material, "restitution_combine", text="Bounce")


def draw_filter(layout: bpy.types.UILayout, collision_filter: OMICollisionFilter, ui_state: OMIAuthoringState) -> None:
    """Member systems, then the mask: the listed systems only when the mode uses a list.

    `ui_state` (WindowManager.omi_authoring) holds the lists' active rows, which filters do not store.
    """
    layout.label(text="Member Of")
    row = layout.row()
    row.template_list("OMI_UL_system_names", "members", collision_filter, "collision_systems",
                      ui_state, "member_system_index", rows=2)
    buttons = row.column(align=True)
    registered(buttons.operator("omi.filter_system_add", icon='ADD', text="")).listed = False
    registered(buttons.operator("omi.filter_system_remove", icon='REMOVE', text="")).listed = False
    layout.prop(collision_filter, "mode")
    if collision_filter.mode != 'ALL':
        row = layout.row()
        row.template_list("OMI_UL_system_names", "listed", collision_filter, "listed_systems",
                          ui_state, "listed_system_index", rows=2)
        buttons = row.column(align=True)
        registered(buttons.operator("omi.filter_system_add", icon='ADD', text="")).listed = True
        registered(buttons.operator("omi.filter_system_remove", icon='REMOVE', text="")).listed = True


def draw_library(layout: bpy.types.UILayout, scene_settings: OMISceneSettings, kind: str,
                 ui_state: OMIAuthoringState) -> None:
    """A scene library (kind 'MATERIAL' or 'FILTER'): list, add/preset/rename/remove, active entry."""
    collection, index_name, list_id = (
        ("physics_materials", "physics_materials_active_index", "OMI_UL_physics_materials")
        if kind == 'MATERIAL' else
        ("collision_filters", "collision_filters_active_index", "OMI_UL_collision_filters")
    )
    row = layout.row()
    row.template_list(list_id, "", scene_settings, collection, scene_settings, index_name, rows=3)
    buttons = row.column(align=True)
    registered(buttons.operator("omi.library_add", icon='ADD', text="")).kind = kind
    registered(buttons.operator_menu_enum("omi.library_add_preset", "preset", icon='PRESET', text="")).kind = kind
    registered(buttons.operator("omi.library_remove", icon='REMOVE', text="")).kind = kind
    registered(buttons.operator("omi.library_rename", icon='GREASEPENCIL', text="")).kind = kind
    entries = getattr(scene_settings, collection)
    index = getattr(scene_settings, index_name)
    if 0 <= index < len(entries):
        box = layout.box()
        if kind == 'MATERIAL':
            draw_material(box, entries[index])
        else:
            draw_filter(box, entries[index], ui_state)
