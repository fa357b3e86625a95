"""The form Blender's glTF exporter gives JSON before writing it, reached in place.

The exporter rebuilds the whole document twice (`__fix_json`): whole-number floats become integers
(`2.0` is written `2`), None values and empty objects and arrays are left out, and `extras` is kept as it
is. Since Blender 5.2 an extension may ask to be let through untouched (`passthrough_extension_data`);
its JSON must then already have that form, or the file would change with the Blender version.
"""

from __future__ import annotations

from typing import Any


def settle(value: Any, settled: set[int] | None = None) -> bool:
    """Turn the whole-number floats inside `value` (dicts and lists) into integers, in place; False when
    it holds anything else the exporter would change (a None, an empty object or array), which is then
    left for the exporter's passes.

    `settled`: the ids of containers settled already in this pass, skipped (nodes share their bodies'
    values); the caller keeps them all alive meanwhile."""
    if settled is not None:
        if id(value) in settled:
            return True
        if not _settle(value, settled):
            return False
        settled.add(id(value))
        return True
    return _settle(value, settled)


def _settle(value: Any, settled: set[int] | None) -> bool:
    if isinstance(value, dict):
        for key, item in value.items():
            kind = type(item)
            if item is None:
                return False
            if key == "extras":
                continue  # kept as it is, even empty
            if kind is float:
                if item.is_integer():
                    value[key] = int(item)
            elif (kind is dict or kind is list) and not (item and settle(item, settled)):
                return False
        return True
    if isinstance(value, list):
        for index, item in enumerate(value):
            kind = type(item)
            if kind is float:
                if item.is_integer():
                    value[index] = int(item)
            elif (kind is dict or kind is list) and not settle(item, settled):
                return False
        return True
    return True
