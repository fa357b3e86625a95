"""The form Blender's glTF exporter gives JSON before writing it, reached in place.

The exporter rebuilds the whole document twice (`__fix_json`): whole-number floats become integers
(`2.0` is written `2`), None values and empty objects and arrays are left out, and `extras` is kept as it
is. Since Blender 5.2 an extension may ask to be let through untouched (`passthrough_extension_data`);
its JSON must then already have that form, or the file would change with the Blender version.
"""

from __future__ import annotations

from typing import Any


def settle(value: Any) -> bool:
    """Turn the whole-number floats inside `value` (dicts and lists) into integers, in place; False when
    it holds anything else the exporter would change (a None, an empty object or array), which is then
    left for the exporter's passes."""
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
            elif (kind is dict or kind is list) and not (item and settle(item)):
                return False
        return True
    if isinstance(value, list):
        for index, item in enumerate(value):
            kind = type(item)
            if kind is float:
                if item.is_integer():
                    value[index] = int(item)
            elif (kind is dict or kind is list) and not settle(item):
                return False
        return True
    return True
