"""A setting's value as the ID property Blender's RNA would store for it, so that many settings can be written
without RNA's per-assignment work.

An assignment through RNA (`group.name = value`) runs Blender's update machinery each time: the property's
update callback, a depsgraph tag, notifiers. On an import that writes thousands of settings into objects it
has just made, that machinery costs more than the values. Written as an ID property (`group[name] = held`)
a value reads back through RNA exactly as if assigned: RNA reads a bool from an int, an enum from its item's
integer value, a float (array) from doubles or floats, an ID pointer from the ID. A `converter` also does
what an RNA assignment does to a value: it rounds floats to single precision and clamps to the hard range.
What a converter cannot say the same way (another kind, a string with a NUL, a value RNA would refuse) is
CANNOT, and the caller assigns through RNA.

Item access on a PropertyGroup reaches its own storage on every supported Blender; on the ID it does not
(4.2 keeps `obj["omi_physics"]` among the ID's own properties, 5.0 and later among its system properties,
`obj.bl_system_properties_get()`, where `obj["omi_physics"]` raises), so the writes go through the groups.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from typing import Any

import bpy

CANNOT = object()  # a converter's answer for a value only an RNA assignment stores right

Converter = Callable[[Any], Any]  # a value -> its ID property, or CANNOT


def converter(prop: bpy.types.Property) -> Converter | None:
    """How the property's values are held (None: only an RNA assignment writes it)."""
    kind = prop.type
    if kind in ('BOOLEAN', 'FLOAT'):  # no integer setting is written by an import (none checked)
        return _numbers(prop)
    if kind == 'STRING':
        if prop.subtype == 'BYTE_STRING' or prop.length_max:  # type: ignore[attr-defined]  # a string property
            return None
        return lambda value: value if type(value) is str and "\0" not in value else CANNOT  # RNA cuts at a NUL
    if kind == 'ENUM':
        items = {item.identifier: item.value for item in prop.enum_items}  # type: ignore[attr-defined]  # enum
        if prop.is_enum_flag or not items:  # type: ignore[attr-defined]  # no items: chosen by a function
            return None
        return lambda value: items.get(value, CANNOT) if type(value) is str else CANNOT
    if kind == 'POINTER':
        target = prop.fixed_type  # type: ignore[attr-defined]  # a pointer property
        id_type = getattr(bpy.types, target.identifier, None) if target is not None else None
        if isinstance(id_type, type) and issubclass(id_type, bpy.types.ID):
            return lambda value: value if isinstance(value, id_type) else CANNOT
    return None


def _numbers(prop: bpy.types.Property) -> Converter | None:
    if prop.is_array and prop.array_dimensions[1]:  # type: ignore[attr-defined]  # a number property
        return None  # a multi-dimensional array
    length = prop.array_length if prop.is_array else 0  # type: ignore[attr-defined]  # see above
    one = _bool if prop.type == 'BOOLEAN' else _float(prop.hard_min, prop.hard_max)  # type: ignore[attr-defined]  # ditto
    if not length:
        return one
    single = prop.type == 'FLOAT'

    def convert(value: Any) -> Any:
        if not isinstance(value, tuple | list) or len(value) != length:
            return CANNOT
        numbers = [one(item) for item in value]
        if CANNOT in numbers:
            return CANNOT
        return array('f', numbers) if single else numbers  # floats kept single, as RNA keeps them

    return convert


def _bool(value: Any) -> Any:
    return int(value) if type(value) is bool else CANNOT


def _clamped(value: float, low: float, high: float) -> float:
    """RNA's clamp to the hard range (a NaN passes, as in Blender)."""
    if value < low:
        return low
    if value > high:
        return high
    return value


def _float(low: float, high: float) -> Converter:
    def convert(value: Any) -> Any:
        if type(value) is not float and type(value) is not int:
            return CANNOT
        try:
            single = array('f', (value,))[0]  # single precision first, as RNA stores it
        except OverflowError:  # an int beyond every float: RNA refuses it too
            return CANNOT
        return _clamped(single, low, high)

    return convert
