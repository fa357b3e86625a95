"""UI lists for the scene libraries, joint limits and drives, compound trigger parts and problems."""

from __future__ import annotations

import math
from typing import Any, cast

import bpy

from ..io.blender.tables.markers import BONE_PART
from ..properties import object_physics
from ..properties.joint import OMIJointLimit
from .draw import Icon, drive_kind, registered

_SEVERITY_ICONS: dict[str, Icon] = {'ERROR': 'ERROR', 'WARNING': 'INFO', 'INFO': 'QUESTION'}


class OMI_UL_physics_materials(bpy.types.UIList):
    """Library materials; names change through the Rename button so references follow."""

    def draw_item(self, _context: bpy.types.Context | None, layout: bpy.types.UILayout, _data: Any, item: Any,
                  _icon: int | None, _active_data: Any, _active_property: str | None, _index: int | None = 0,
                  _flt_flag: int | None = 0) -> None:
        layout.label(text=item.name, icon='MATERIAL')


class OMI_UL_collision_filters(bpy.types.UIList):
    def draw_item(self, _context: bpy.types.Context | None, layout: bpy.types.UILayout, _data: Any, item: Any,
                  _icon: int | None, _active_data: Any, _active_property: str | None, _index: int | None = 0,
                  _flt_flag: int | None = 0) -> None:
        layout.label(text=item.name, icon='FILTER')


class OMI_UL_system_names(bpy.types.UIList):
    """Collision system names: edited in place (nothing refers to them by name)."""

    def draw_item(self, _context: bpy.types.Context | None, layout: bpy.types.UILayout, _data: Any, item: Any,
                  _icon: int | None, _active_data: Any, _active_property: str | None, _index: int | None = 0,
                  _flt_flag: int | None = 0) -> None:
        layout.prop(item, "name", text="", emboss=False, icon='OUTLINER_COLLECTION')


class OMI_UL_joint_limits(bpy.types.UIList):
    def draw_item(self, _context: bpy.types.Context | None, layout: bpy.types.UILayout, _data: Any, item: Any,
                  _icon: int | None, _active_data: Any, _active_property: str | None, _index: int | None = 0,
                  _flt_flag: int | None = 0) -> None:
        layout.label(text=limit_label(item), icon='CON_LOCLIMIT' if item.kind == 'LINEAR' else 'CON_ROTLIMIT')


def _is_ragdoll_joint(limit: OMIJointLimit) -> bool:
    joint = limit.id_data
    if not isinstance(joint, bpy.types.Object):
        return False
    connected = object_physics(joint).joint.connected_object
    return connected is not None and connected.get(BONE_PART) is not None


def limit_label(limit: OMIJointLimit) -> str:
    """'Swing X -30° to 30°', 'Linear XYZ fixed', 'Angular Z up to 45°': what the limit holds, its values shown
    without opening it (a ragdoll's turning limits named as Make Ragdoll names them)."""
    axes = "".join(axis for axis, used in zip("XYZ", (limit.axis_x, limit.axis_y, limit.axis_z), strict=True)
                   if used) or "-"
    name = f"{limit.kind.title()} {axes}"
    angular = limit.kind == 'ANGULAR'
    if angular and _is_ragdoll_joint(limit) and axes in ("X", "Y", "Z"):
        name = "Twist" if axes == "Z" else f"Swing {axes}"
    if limit_is_fixed(limit):
        return f"{name} fixed"
    suffix = "angular" if angular else "linear"

    def shown(value: float) -> str:
        return f"{math.degrees(value):.0f}°" if angular else f"{value:.2f} m"

    low, high = getattr(limit, f"min_{suffix}"), getattr(limit, f"max_{suffix}")
    if limit.use_min and limit.use_max:
        return f"{name} {shown(low)} to {shown(high)}"
    if limit.use_min:
        return f"{name} from {shown(low)}"
    return f"{name} up to {shown(high)}" if limit.use_max else f"{name} free"


def limit_is_fixed(limit: OMIJointLimit) -> bool:
    suffix = "linear" if limit.kind == 'LINEAR' else "angular"
    return (limit.use_min and limit.use_max
            and getattr(limit, f"min_{suffix}") == getattr(limit, f"max_{suffix}"))


class OMI_UL_joint_drives(bpy.types.UIList):
    def draw_item(self, _context: bpy.types.Context | None, layout: bpy.types.UILayout, _data: Any, item: Any,
                  _icon: int | None, _active_data: Any, _active_property: str | None, _index: int | None = 0,
                  _flt_flag: int | None = 0) -> None:
        layout.label(text=f"{drive_kind(item).title()} {item.drive_type.lower()} {item.axis}",
                     icon='FORCE_HARMONIC' if drive_kind(item) == 'SPRING' else 'FORCE_FORCE')


class OMI_UL_trigger_nodes(bpy.types.UIList):
    def draw_item(self, _context: bpy.types.Context | None, layout: bpy.types.UILayout, _data: Any, item: Any,
                  _icon: int | None, _active_data: Any, _active_property: str | None, _index: int | None = 0,
                  _flt_flag: int | None = 0) -> None:
        layout.prop(item, "target", text="", emboss=False)


class OMI_UL_problems(bpy.types.UIList):
    """Validation problems: severity icon, object name, message; the row's button selects the object."""

    def draw_item(self, _context: bpy.types.Context | None, layout: bpy.types.UILayout, _data: Any, item: Any,
                  _icon: int | None, _active_data: Any, _active_property: str | None, index: int | None = 0,
                  _flt_flag: int | None = 0) -> None:
        row = layout.row(align=True)
        row.label(text=item.name or "Scene", icon=_SEVERITY_ICONS.get(item.severity, 'INFO'))
        row.label(text=item.message)
        registered(row.operator("omi.select_problem", text="", icon='RESTRICT_SELECT_OFF', emboss=False)).index = index


_ROLE_ICONS: dict[str, Icon] = {'STATIC': 'LOCKED', 'KINEMATIC': 'ANIM', 'DYNAMIC': 'PHYSICS', 'COLLIDER': 'MESH_CUBE',
                               'TRIGGER': 'GHOST_ENABLED'}


def physics_role(obj: bpy.types.Object) -> str:
    """What the object is to the physics, as the list shows it: its body type, Trigger, Collider or Joint."""
    settings = object_physics(obj)
    if settings.use_motion:
        return settings.motion.motion_type
    if settings.use_collider:
        return 'COLLIDER'
    if settings.use_trigger:
        return 'TRIGGER'
    return 'JOINT' if settings.use_joint else ''


class OMI_UL_physics_objects(bpy.types.UIList):
    """Every object of the scene with physics settings (others are filtered out); click a row to select it.
    The filter options (the arrow below the list) filter by name and sort by name."""

    def draw_item(self, _context: bpy.types.Context | None, layout: bpy.types.UILayout, _data: Any, item: Any,
                  _icon: int | None, _active_data: Any, _active_property: str | None, _index: int | None = 0,
                  _flt_flag: int | None = 0) -> None:
        role = physics_role(item)
        icon = _ROLE_ICONS.get(role, 'CONSTRAINT')
        row = layout.row(align=True)
        row.label(text=item.name, icon=icon)
        row.label(text=role.title())

    def filter_items(self, _context: bpy.types.Context | None, data: Any,  # type: ignore[override]  # see below
                     property_name: str) -> tuple[list[int], list[int]]:
        # Blender takes any int sequences back; the stubs say None (4.2) or a pair of bpy_prop_array (newest).
        objects = getattr(data, property_name)
        helper = bpy.types.UI_UL_list
        # 4.2's stubs let the two helpers return None; they return their lists.
        flags = cast("list[int]", helper.filter_items_by_name(
            self.filter_name, self.bitflag_filter_item, objects, "name", reverse=self.use_filter_invert)) \
            if self.filter_name else [self.bitflag_filter_item] * len(objects)
        for index, obj in enumerate(objects):
            if not object_physics(obj).has_physics:
                flags[index] &= ~self.bitflag_filter_item
        order = cast("list[int]", helper.sort_items_by_name(objects, "name")) if self.use_filter_sort_alpha else []
        return flags, order


CLASSES: tuple[type, ...] = (
    OMI_UL_physics_materials, OMI_UL_collision_filters, OMI_UL_system_names, OMI_UL_joint_limits,
    OMI_UL_joint_drives, OMI_UL_trigger_nodes, OMI_UL_problems, OMI_UL_physics_objects,
)
