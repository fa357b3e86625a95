"""Which settings an imported channel keys, read from the Object Model table instead of found by moving the
value: for a pointer whose model value a setting holds one-to-one
(`io/blender/animation/settings.Held`: a body's motion values, a library material's, a collider's or
trigger's shape values, a joint drive's force limit, stiffness and damping), the settings
and the map from the channel's components to theirs come from the tables, with no document read.

The map is the one `linear_keys` would find by nudging (each setting component is a signed model component:
offset 0, slopes 0 or +-1), so keys, tangents and the keys left to the whole translation (outside the
Field's bounds) are made exactly as before. It is used only when the settings hold, at rest, the value the
map gives for the file's own value (`rest`), and when no switch moves the value elsewhere; otherwise
`keyframes` finds the settings by moving the value, as before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import bpy

from ....omi.animation import linear_keys
from ....omi.dialects import pointers, registry
from ....omi.write import channel_follow
from .. import settings

Key = tuple[Any, str, int]  # (datablock, RNA path, array index), as the import keys settings


def _groups(found: pointers.PointerMatch, document: Mapping[str, Any], objects: Mapping[int, bpy.types.Object],
            bl_scene: bpy.types.Scene) -> tuple[list[tuple[Any, str]], list[bpy.types.Object]] | None:
    """([(datablock, settings group path)], objects whose physics the value changes) of a matched pointer."""
    access = settings.layout().access
    part = found.template.part
    if part == "motion":
        obj = objects.get(found.index)
        return ([(obj, access.motion_group(obj))], [obj]) if obj is not None else None
    dialect = registry.dialect_of(found.template.extension).tables  # the spelling the pointer is in
    if part == "shape":  # every collider or trigger using the shape holds it, in its object's frame
        parts = [(objects[index], name) for index, name in channel_follow.item_parts(
            document, dialect, "shapes", found.index) if index in objects and name in ("collider", "trigger")]
        paths = [(obj, access.shape_group(obj, name, found.template.path[0])) for obj, name in parts]
        if not parts or any(path is None for _obj, path in paths):
            return None  # a compound, or a shape the import made another type (the whole translation decides)
        return [(obj, path) for obj, path in paths if path is not None], list(dict.fromkeys(obj for obj, _ in parts))
    if part == "drive":  # every joint object using the joint holds the drive at the same index
        users = [objects[index] for index in channel_follow.item_users(document, dialect, "physicsJoints",
                                                                        found.index) if index in objects]
        drives = [(obj, access.drive_group(obj, found.nested[0])) for obj in users]
        if not users or any(path is None for _obj, path in drives):
            return None
        return [(obj, path) for obj, path in drives if path is not None], users
    if part == "material":
        users = [objects[index] for index in channel_follow.item_users(document, dialect, "physicsMaterials",
                                                                        found.index) if index in objects]
        path = access.material_group(bl_scene, users)
        return ([(bl_scene, path)], users) if path is not None else None
    return None


def table_map(found: pointers.PointerMatch, rest: Sequence[float] | None, document: Mapping[str, Any],
              objects: Mapping[int, bpy.types.Object], bl_scene: bpy.types.Scene,
              ) -> tuple[list[bpy.types.Object], linear_keys.LinearMap[Key]] | None:
    """(objects touched, the map from the channel's value to its settings) when the tables give them."""
    entry = settings.layout().settings.get(found.template.model_value)
    if not isinstance(entry, settings.Held) or rest is None \
            or not linear_keys.within(found.template.field, rest):
        return None
    place = _groups(found, document, objects, bl_scene)
    if place is None:
        return None
    groups, touched = place
    width = len(rest)
    slopes: dict[Key, tuple[float, ...]] = {}
    for datablock, group_path in groups:
        group = datablock.path_resolve(group_path)
        if entry.needs and not getattr(group, entry.needs):
            return None
        switch: Any = getattr(group, entry.off_when) if entry.off_when else False
        if any(switch) if hasattr(switch, "__len__") else switch:
            return None
        slopes.update({(datablock, f"{group_path}.{entry.name}", position):
                       tuple(sign if column == component else 0.0 for column in range(width))
                       for position, (component, sign) in enumerate(entry.axes)})
    linear = linear_keys.LinearMap(dict.fromkeys(slopes, 0.0), slopes)
    expected = linear.at(rest)
    for (datablock, path, position), value in expected.items():
        current = datablock.path_resolve(path)
        if value != float(current[position] if hasattr(current, "__len__") else current):
            return None  # the settings hold something else at rest: the whole translation decides
    return touched, linear


def setting_numbers(struct: Any, id_data: Any, found: dict[Key, float]) -> None:
    """Every float/int/bool property below a settings PropertyGroup, by (datablock, RNA path, index)."""
    for prop in struct.bl_rna.properties:
        name = prop.identifier
        if name == "rna_type":
            continue
        if prop.type == 'POINTER':
            child = getattr(struct, name)
            if isinstance(child, bpy.types.PropertyGroup):
                setting_numbers(child, id_data, found)
        elif prop.type == 'COLLECTION':
            for item in getattr(struct, name):
                if isinstance(item, bpy.types.PropertyGroup):
                    setting_numbers(item, id_data, found)
        elif prop.type in ('FLOAT', 'INT', 'BOOLEAN'):
            value = getattr(struct, name)
            path = struct.path_from_id(name)
            if getattr(prop, "is_array", False) or hasattr(value, "__len__"):
                for index, number in enumerate(value):
                    found[(id_data, path, index)] = float(number)
            else:
                found[(id_data, path, 0)] = float(value)
