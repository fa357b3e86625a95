"""What the tests compare of the add-on's settings: every value of a PropertyGroup tree as RNA reads it."""

from __future__ import annotations

from typing import Any

import bpy


def rna_values(struct: Any, kinds: set[str] | None = None) -> dict[str, Any]:
    """Every setting of a PropertyGroup tree as RNA reads it (IDs by name); `kinds` collects the kinds of those
    that differ from their defaults."""
    kinds = set() if kinds is None else kinds
    values: dict[str, Any] = {}
    for prop in struct.bl_rna.properties:
        name = prop.identifier
        if name == "rna_type":
            continue
        value = getattr(struct, name)
        if prop.type == 'COLLECTION':
            values[name] = [rna_values(item, kinds) for item in value]
        elif prop.type == 'POINTER' and isinstance(value, bpy.types.PropertyGroup):
            values[name] = rna_values(value, kinds)
        elif prop.type == 'POINTER':
            values[name] = None if value is None else value.name
            if value is not None:
                kinds.add("ID")
        elif getattr(prop, "is_array", False):
            values[name] = tuple(value)
            if values[name] != tuple(prop.default_array):
                kinds.add(prop.type + "[]")
        else:
            values[name] = value
            if value != prop.default:
                kinds.add(prop.type)
    return values
