"""Writing settings groups so that they store only what differs from the declared defaults.

A PropertyGroup keeps each value as an ID property of its owner; a property never written reads as its
declared default (as everywhere in Blender). An import that wrote every value would give each object 15-19
ID properties that Blender copies on every evaluation of the object, most of them equal to the defaults.
`store` leaves out a write whose value equals the declared default when the group holds no value for that
property yet (the result reads the same), and does not create a settings group that would hold nothing
but defaults. A value the group already holds is always written, so rewriting existing settings behaves
exactly as plain assignments.

While an import writes (`edits.paused`), a group that holds nothing yet takes its values as ID properties
(`id_values`), without RNA's update machinery per assignment: its properties' update callbacks only note
edits, which the pause silences, except those `_Layout.updates` names, which are called as RNA would call
them, after the value and in the same order. A group holding values, a property with its own getter or
setter, and any value `id_values` cannot express are assigned through RNA as before.

Consequence for the future: the stored files depend on the declared defaults, so a change of a default
needs a migration step (`migrate.py`, with a new `SETTINGS_VERSION`) that writes the old default into
the groups of files saved before the change.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

import bpy

from . import id_values
from .edits import EDITED, notes_only

# A value for `store`: a property's value, or (a dict) the values of the settings group a pointer holds.
# A value equals its default by `==`: vectors are given as tuples (the defaults' form), floats compare exactly
# (a default that is no float32, such as 0.1, never matches: that only costs a stored value).
Values = dict[str, Any]


@dataclass
class _Layout:
    """One PropertyGroup type's declared defaults and the settings groups its pointers hold, read from RNA."""

    defaults: dict[str, Any] = field(default_factory=dict)
    groups: dict[str, _Layout] = field(default_factory=dict)
    held: frozenset[str] = frozenset()  # its properties held elsewhere (`HELD_ELSEWHERE`)
    converters: dict[str, id_values.Converter] = field(default_factory=dict)  # its properties as ID properties
    updates: dict[str, Callable[[Any, Any], None]] = field(default_factory=dict)  # their callbacks that do more


_LAYOUTS: dict[type, _Layout] = {}  # plain data only: RNA structs are freed when the add-on unregisters


_NUMBERS = (bpy.types.BoolProperty, bpy.types.IntProperty, bpy.types.FloatProperty)


# Declared with these, a property's value is not (only) its ID property: always assigned through RNA. (A
# pointer's `poll` only filters what the interface offers: an assignment never asks it.)
_OWN_ACCESS = frozenset({"get", "set", "get_transform", "set_transform"})


def _declared(struct: bpy.types.Struct) -> dict[str, dict[str, Any]]:
    """The keywords each property of a PropertyGroup was declared with (none known: left out)."""
    cls = bpy.types.PropertyGroup.bl_rna_get_subclass_py(struct.identifier)
    annotations: dict[str, Any] = {}
    for klass in reversed(cls.__mro__ if cls is not None else ()):
        annotations.update(vars(klass).get("__annotations__", {}))
    found = {name: getattr(deferred, "keywords", None) for name, deferred in annotations.items()}
    return {name: keywords for name, keywords in found.items() if isinstance(keywords, dict)}


def _read_converter(layout: _Layout, prop: bpy.types.Property, keywords: dict[str, Any] | None) -> None:
    """Note how the property's value is held when its ID property alone holds it (`id_values`)."""
    if keywords is None or not _OWN_ACCESS.isdisjoint(keywords):
        return
    convert = id_values.converter(prop)
    if convert is None:
        return
    name = prop.identifier
    layout.converters[name] = convert
    update = keywords.get("update")
    if update is not None and not notes_only(update):
        layout.updates[name] = update


def _read_layout(struct: bpy.types.Struct) -> _Layout:
    layout = _Layout()
    declared = _declared(struct)
    for prop in struct.properties:
        name = prop.identifier
        if prop.type == 'COLLECTION' or name == "rna_type":
            continue
        _read_converter(layout, prop, declared.get(name))
        if isinstance(prop, bpy.types.PointerProperty):
            layout.defaults[name] = None
            target = prop.fixed_type
            if target is not None and target.base is not None and target.base.identifier == "PropertyGroup":
                layout.groups[name] = _read_layout(target)
        elif isinstance(prop, _NUMBERS) and prop.is_array:
            # The newest stubs type default_array as a bpy_prop_array of nothing (not iterable).
            layout.defaults[name] = tuple(prop.default_array)  # type: ignore[arg-type]  # see above
        elif isinstance(prop, (*_NUMBERS, bpy.types.StringProperty, bpy.types.EnumProperty)):
            layout.defaults[name] = prop.default
    return layout


def _layout(group: bpy.types.PropertyGroup) -> _Layout:
    layout = _LAYOUTS.get(type(group))
    if layout is None:
        # A PropertyGroup's bl_rna is its Struct (the stubs type every bl_rna as BlenderRNA).
        layout = _LAYOUTS[type(group)] = _read_layout(cast(bpy.types.Struct, group.bl_rna))
        layout.held = HELD_ELSEWHERE.get(type(group).__name__, frozenset())
    return layout


def _changed(values: Values, layout: _Layout) -> dict[str, Any]:
    """The entries of `values` that differ from the defaults (groups: those holding such an entry)."""
    changed: dict[str, Any] = {}
    defaults = layout.defaults
    for name, value in values.items():
        if type(value) is dict:
            inner = _changed(value, layout.groups[name])
            if inner:
                changed[name] = inner
        elif value != defaults[name]:
            changed[name] = value
    return changed


def _put(group: bpy.types.PropertyGroup, name: str, value: Any, layout: _Layout) -> bool:
    """Write one value as its ID property and call its own update callback, as RNA would; False when
    `id_values` cannot express it."""
    convert = layout.converters.get(name)
    held = id_values.CANNOT if convert is None else convert(value)
    if held is id_values.CANNOT:
        return False
    group[name] = held
    update = layout.updates.get(name)
    if update is not None:
        update(group, bpy.context)
    return True


def _assign(group: bpy.types.PropertyGroup, name: str, value: Any, layout: _Layout, direct: bool) -> None:
    """One value: as its ID property where `direct` allows (`_put`), else through RNA."""
    if not (direct and _put(group, name, value, layout)):
        setattr(group, name, value)


def _fresh(values: Values, layout: _Layout) -> dict[str, Any] | None:
    """The values that differ from the defaults (`_changed`) as one ID property group; None when one of them
    has no ID property of its own (`id_values`) or an update callback that does more than note the edit."""
    fresh: dict[str, Any] = {}
    defaults, converters, updates = layout.defaults, layout.converters, layout.updates
    for name, value in values.items():
        if type(value) is dict:
            inner = _fresh(value, layout.groups[name])
            if inner is None:
                return None
            if inner:
                fresh[name] = inner
        elif value != defaults[name]:
            convert = converters.get(name)
            held = id_values.CANNOT if convert is None or name in updates else convert(value)
            if held is id_values.CANNOT:
                return None
            fresh[name] = held
    return fresh


def _write(group: bpy.types.PropertyGroup, values: Values, layout: _Layout) -> None:
    """Write every value into a group that holds none of them (as ID properties while an import writes)."""
    direct = EDITED.paused
    for name, value in values.items():
        if type(value) is dict:
            inner = layout.groups[name]
            fresh = _fresh(value, inner) if direct else None
            if fresh is not None:
                group[name] = fresh
            else:
                _write(getattr(group, name), value, inner)
        else:
            _assign(group, name, value, layout, direct)


# Properties whose value lives elsewhere once it can (`homes`: a body's mass in its Blender rigid body): with
# no value stored they read that home, not their default, so a default written there is written.
HELD_ELSEWHERE: dict[str, frozenset[str]] = {"OMIMotionSettings": frozenset({"mass"})}


def _reads_other(group: bpy.types.PropertyGroup, name: str, value: Any) -> bool:
    """Whether a property held elsewhere reads another value than `value` (others read their default)."""
    if name not in HELD_ELSEWHERE.get(type(group).__name__, ()):
        return False
    now = getattr(group, name)
    return (tuple(now) if hasattr(now, "__len__") and not isinstance(now, str) else now) != value


def store(group: bpy.types.PropertyGroup, values: Values) -> None:
    """Write `values` (in their order: update callbacks see the same sequence as plain assignments) into a
    settings group, leaving out defaults the group holds no value for (see the module docstring)."""
    layout = _layout(group)
    defaults, held = layout.defaults, layout.held
    direct = EDITED.paused and not group.keys()  # an import's fresh group: values as ID properties
    for name, value in values.items():
        if type(value) is dict:
            store_group(group, name, value, layout.groups[name])
        elif value != defaults[name] or group.get(name) is not None \
                or (name in held and _reads_other(group, name, value)):
            _assign(group, name, value, layout, direct)  # not the default, stored already, or held elsewhere


def store_group(owner: bpy.types.PropertyGroup, name: str, values: Values, layout: _Layout | None = None) -> None:
    """`store` into the settings group `owner.<name>`; a group not stored yet is only made when a value
    differs from its default (reading `owner.<name>` would make it)."""
    if owner.get(name) is not None:  # stored already
        store(getattr(owner, name), values)
        return
    layout = layout if layout is not None else _layout(owner).groups[name]
    fresh = _fresh(values, layout) if EDITED.paused else None
    if fresh is not None:
        if fresh:
            owner[name] = fresh
        return
    changed = _changed(values, layout)
    if changed:
        _write(getattr(owner, name), changed, layout)
