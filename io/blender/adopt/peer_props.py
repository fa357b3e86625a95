"""The stored settings of the other Blender glTF-physics add-ons, read without them installed.

An artist switching to this add-on brings .blend files whose objects carry another add-on's PropertyGroup
values: ZycaR's OMI add-on (`Object.omi_physics_props`) and the KHR spec author's exporter
(`Object.khr_physics_extra_props`, `Object.khr_physics_extra_constraint_props`). Blender keeps an
unregistered add-on's values as ID properties: on the object itself up to 4.x, in its system properties
(`bl_system_properties_get()`) from 5.0. Only values that differ from a default are stored; enum values are
stored as the item's number. This module only reads: the peers' values are never changed, so the artist can
go back.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import bpy

ZYCAR = "ZycaR OMI"
EOIN = "KHR (eoin)"
ZYCAR_GROUP = "omi_physics_props"
EOIN_GROUP = "khr_physics_extra_props"
EOIN_CONSTRAINT_GROUP = "khr_physics_extra_constraint_props"

# Enum items by stored number: the peers declare their items without numbers, so Blender numbers them in order.
ZYCAR_BODY_TYPES = ("static", "kinematic", "dynamic")
ZYCAR_SHAPE_TYPES = ("box", "sphere", "cylinder", "capsule", "convex", "trimesh", "none")
ZYCAR_AXES = ("X", "Y", "Z")
EOIN_COMBINE_MODES = ("average", "minimum", "maximum", "multiply")
EOIN_DRIVE_MODES = ("force", "acceleration")


def stored_group(id_data: bpy.types.ID, name: str) -> dict[str, Any]:
    """The values stored for PropertyGroup pointer `name` on a datablock, as plain Python ({} when none)."""
    system = getattr(id_data, "bl_system_properties_get", None)
    holder: Any = system() if system is not None else id_data
    if holder is None:
        return {}
    group = holder.get(name)
    to_dict = getattr(group, "to_dict", None)
    values = to_dict() if to_dict is not None else None
    return values if isinstance(values, dict) else {}


def choice(values: Mapping[str, Any], key: str, items: tuple[str, ...], default: str) -> str:
    """An enum value stored as its item's number (an unknown number reads as the default)."""
    number = values.get(key)
    return items[number] if isinstance(number, int) and 0 <= number < len(items) else default


def number(values: Mapping[str, Any], key: str, default: float) -> float:
    value = values.get(key, default)
    return float(value) if isinstance(value, int | float) else default


def vector(values: Mapping[str, Any], key: str, default: tuple[float, ...]) -> tuple[float, ...]:
    value = values.get(key)
    if not isinstance(value, list | tuple) or len(value) != len(default):
        return default
    return tuple(float(item) if isinstance(item, int | float) else fallback for item, fallback in zip(value, default,
                                                                                                       strict=True))


def flag(values: Mapping[str, Any], key: str) -> bool:
    return bool(values.get(key, False))


@dataclass(frozen=True)
class PeerSettings:
    """One object's stored peer settings that mean something to an export (defaults alone do not)."""

    obj: bpy.types.Object
    peer: str


def zycar_values(obj: bpy.types.Object) -> dict[str, Any]:
    """ZycaR's settings of an object when its master switch (Is Collision) is on, else {}."""
    values = stored_group(obj, ZYCAR_GROUP)
    return values if flag(values, "is_collision") else {}


# eoin's values that change nothing when left at these (its PropertyGroup's defaults)
_EOIN_DEFAULTS: dict[str, Any] = {
    "non_renderable": 0, "is_trigger": 0, "gravity_factor": 1.0, "linear_velocity": [0.0, 0.0, 0.0],
    "angular_velocity": [0.0, 0.0, 0.0], "infinite_mass": 0, "enable_inertia_override": 0,
    "enable_com_override": 0, "friction_combine": 0, "restitution_combine": 0, "cone_capsule_override": 0,
}


def eoin_values(obj: bpy.types.Object) -> dict[str, Any]:
    """eoin's extra settings of an object with a Blender rigid body, when any differs from its default."""
    if obj.rigid_body is None:
        return {}
    values = stored_group(obj, EOIN_GROUP)
    return values if any(key in _EOIN_DEFAULTS and values[key] != _EOIN_DEFAULTS[key] for key in values) else {}


def eoin_constraint_values(obj: bpy.types.Object) -> dict[str, Any]:
    """eoin's joint drives on a rigid body constraint object, when any drive is on."""
    if obj.rigid_body_constraint is None:
        return {}
    values = stored_group(obj, EOIN_CONSTRAINT_GROUP)
    return values if any(key.startswith("use_") and value for key, value in values.items()) else {}


def _holds_any(obj: bpy.types.Object) -> bool:
    """Whether any peer group is stored on the object: one look, where most objects of a scene hold none."""
    system = getattr(obj, "bl_system_properties_get", None)
    holder: Any = system() if system is not None else obj
    return holder is not None and (ZYCAR_GROUP in holder or EOIN_GROUP in holder or EOIN_CONSTRAINT_GROUP in holder)


def found(objects: Iterable[bpy.types.Object],
          holds_no_peers: Callable[[bpy.types.Object], bool] | None = None) -> list[PeerSettings]:
    """Every object with peer settings worth adopting, in the order given; `holds_no_peers` (a caller that
    knows it) says of an object that it stores no other add-on's settings, so it is not looked at again."""
    result = []
    for obj in objects:
        if (holds_no_peers is not None and holds_no_peers(obj)) or not _holds_any(obj):
            continue
        if zycar_values(obj):
            result.append(PeerSettings(obj, ZYCAR))
        elif eoin_values(obj) or eoin_constraint_values(obj):
            result.append(PeerSettings(obj, EOIN))
    return result
