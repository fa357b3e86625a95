"""The Blender binding of the extension units (io/omi/units): one typed PropertyGroup per unit, made from
the unit's Field tables (keys, defaults and bounds have their one home there), hung below
`Object.omi_physics.units.<attr>`, and the two directions between it and the unit's model value.

A unit's `properties/<unit>.py` declares its `Binding` (the tables, the value class, a label, and hooks for
what the tables cannot say: a node reference, a string); `BINDINGS` lists them, one line each, and every
layer above (import, export, panels, operators) iterates it, never naming an extension. Values are stored
in the file's frame (glTF: Y up), as the model holds them.

Extensions of a node that no unit or dialect reads are kept verbatim here too (`kept_extensions_json`, a
hidden string a file cannot set through extras) and written back by the export where the object still is.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import bpy
from bpy.app.handlers import persistent
from bpy.props import BoolProperty, FloatProperty, FloatVectorProperty, IntProperty, PointerProperty, StringProperty

from ..io.omi.dialects.fields import Field
from ..io.omi.model import NOTHING_UNKNOWN
from ..io.omi.unit_values import NO_UNIT_VALUES, UnitValues
from .convert_common import kept

NodeResolver = Callable[[Any], "bpy.types.Object | None"]


@dataclass(frozen=True)
class Binding:
    """One unit's settings: `attr` below `omi_physics.units`, the PropertyGroup made from `fields`, and the
    hooks for its special fields (`special`: attr -> Blender property; `read_special(settings)` -> model
    values, `write_special(value, settings, resolve_node)`)."""

    unit: str  # the glTF extension name
    attr: str
    label: str
    fields: tuple[Field, ...]
    make: Callable[..., Any]
    special: Mapping[str, Any] = field(default_factory=dict)
    read_special: Callable[[Any], dict[str, Any]] | None = None
    write_special: Callable[[Any, Any, NodeResolver], None] | None = None
    points: tuple[str, ...] = ()  # 3-vector settings that are points in the node's frame (viewport gizmos move them)
    version: int = 1  # the layout of its settings; a new one needs a `migrate` step from the older ones
    migrate: Callable[[Any, int], None] | None = None  # (settings, stored version): the steps up to `version`
    settings: list[type[bpy.types.PropertyGroup]] = field(default_factory=list, compare=False)

    @property
    def group(self) -> type[bpy.types.PropertyGroup]:
        """The PropertyGroup class (made on first use)."""
        if not self.settings:
            self.settings.append(_settings_class(self))
        return self.settings[0]


FLOAT_LIMIT = 3.402823e38  # Blender's float property range when none is given


def _property(spec: Field) -> Any:
    label = (spec.what or spec.attr.replace("_", " ")).capitalize()
    low = spec.minimum if spec.minimum is not None else spec.exclusive_minimum
    low = -FLOAT_LIMIT if low is None else low
    high = FLOAT_LIMIT if spec.maximum is None else spec.maximum
    if spec.kind == "number":
        return FloatProperty(name=label, default=float(spec.default or 0.0), min=low, max=high)
    if spec.kind == "vector":
        default = tuple(spec.default) if spec.default is not None else (0.0,) * spec.size
        return FloatVectorProperty(name=label, size=spec.size, default=default, min=low, max=high,
                                   subtype='XYZ' if spec.size == 3 else 'NONE')
    if spec.kind == "bool":
        return BoolProperty(name=label, default=bool(spec.default))
    return None


def _settings_class(binding: Binding) -> type[bpy.types.PropertyGroup]:
    annotations: dict[str, Any] = {
        "enabled": BoolProperty(name=binding.label, description=f"This object holds {binding.unit}", default=False),
        "version": IntProperty(default=binding.version, options={'HIDDEN'}),
        "unknown_json": StringProperty(options={'HIDDEN'}),  # the file's keys the unit does not read
        "node_unknown_json": StringProperty(options={'HIDDEN'}),  # a part node's own object's
    }
    for spec in binding.fields:
        made = _property(spec) if spec.kind != "special" else None
        if made is not None:
            annotations[spec.attr] = made
    annotations.update(binding.special)
    name = "OMIUnit" + "".join(word.capitalize() for word in binding.attr.split("_")) + "Settings"
    return type(name, (bpy.types.PropertyGroup,), {"__annotations__": annotations, "__doc__": binding.label})


def _plain(value: Any) -> Any:
    return tuple(value) if hasattr(value, "__len__") and not isinstance(value, str) else value


def to_model(binding: Binding, settings: Any) -> Any:
    """The unit's value of enabled settings, else None."""
    if not settings.enabled:
        return None
    values = {spec.attr: _plain(getattr(settings, spec.attr)) for spec in binding.fields
              if spec.kind != "special" and spec.attr in settings.bl_rna.properties}
    if binding.read_special is not None:
        values.update(binding.read_special(settings))
    held = {item.name for item in dataclasses.fields(binding.make)} if dataclasses.is_dataclass(binding.make) else set()
    if "node_unknown" in held:
        values["node_unknown"] = kept(settings.node_unknown_json)
    return binding.make(**values, unknown=kept(settings.unknown_json))


def from_model(binding: Binding, value: Any, settings: Any, resolve_node: NodeResolver) -> None:
    """Write a unit's model value into its settings (enabled)."""
    settings.enabled = True
    for spec in binding.fields:
        if spec.kind != "special" and spec.attr in settings.bl_rna.properties:
            current = getattr(value, spec.attr)
            setattr(settings, spec.attr, current if current is not None else getattr(settings, spec.attr))
    if binding.write_special is not None:
        binding.write_special(value, settings, resolve_node)
    settings.unknown_json = getattr(value, "unknown", NOTHING_UNKNOWN).text
    settings.node_unknown_json = getattr(value, "node_unknown", NOTHING_UNKNOWN).text


class OMIUnitSettings(bpy.types.PropertyGroup):
    """Every extension unit's settings of one object (one pointer per binding, added at register)."""

    kept_extensions_json: StringProperty(options={'HIDDEN'})  # node extensions no unit reads, verbatim


BINDINGS: list[Binding] = []


def units_of(obj: bpy.types.Object) -> Any:
    return obj.omi_physics.units  # type: ignore[attr-defined]  # added by register


def settings_of(obj: bpy.types.Object, binding: Binding) -> Any:
    return getattr(units_of(obj), binding.attr)


def settings_path(unit: str) -> str:
    """The RNA path, from its object, of a unit's settings (`unit`: its extension name), for drivers and keys."""
    binding = next(binding for binding in BINDINGS if binding.unit == unit)
    return f"omi_physics.units.{binding.attr}"


def attach(binding: Binding) -> None:
    """Register one binding's PropertyGroup and hang it below `units` (also after the add-on registered)."""
    if binding not in BINDINGS:
        BINDINGS.append(binding)
    group = binding.group
    if not getattr(group, "is_registered", False):
        bpy.utils.register_class(group)
    setattr(OMIUnitSettings, binding.attr, PointerProperty(type=group))


def detach(binding: Binding) -> None:
    if hasattr(OMIUnitSettings, binding.attr):
        delattr(OMIUnitSettings, binding.attr)
    if getattr(binding.group, "is_registered", False):
        bpy.utils.unregister_class(binding.group)
    if binding in BINDINGS:
        BINDINGS.remove(binding)


def values_from_object(obj: bpy.types.Object) -> UnitValues:
    """The object's enabled unit settings as model values."""
    container = getattr(getattr(obj, "omi_physics", None), "units", None)
    if container is None or not container.keys():  # nothing ever stored: the common object, one lookup
        return NO_UNIT_VALUES
    found = {}
    for binding in BINDINGS:
        value = to_model(binding, getattr(container, binding.attr))
        if value is not None:
            found[binding.unit] = value
    return UnitValues(found) if found else NO_UNIT_VALUES


def _stores_units(obj: bpy.types.Object) -> bool:
    """Whether the object's settings store a units group (reading `units` would make an empty one)."""
    physics = getattr(obj, "omi_physics", None)
    return physics is not None and physics.get("units") is not None


def apply_values(values: Mapping[str, Any], obj: bpy.types.Object, resolve_node: NodeResolver) -> None:
    """Write a node's unit values into the object's settings; the units it does not hold are disabled
    (nothing stored is nothing enabled: an import of plain bodies makes no empty groups)."""
    if not values and not _stores_units(obj):
        return
    container = units_of(obj)
    for binding in BINDINGS:
        settings = getattr(container, binding.attr)
        value = values.get(binding.unit)
        if value is not None:
            from_model(binding, value, settings, resolve_node)
        elif settings.enabled:
            settings.enabled = False


@persistent
def migrate_units_on_load(_filepath: str = "") -> None:
    """load_post: each unit's settings stored by an older layout go through the unit's `migrate` step. Only
    settings a file stored are read (`keys()`: what was written), so objects without them cost one lookup."""
    for obj in bpy.data.objects:
        container = getattr(getattr(obj, "omi_physics", None), "units", None)
        if obj.library is not None or container is None or not container.keys():
            continue
        for binding in BINDINGS:
            group = getattr(container, binding.attr, None)
            if group is None or not group.keys():
                continue
            version = group.get("version", 1)
            if not isinstance(version, int) or version >= binding.version:
                continue
            if binding.migrate is not None:
                binding.migrate(group, version)
            group.version = binding.version


@persistent
def stamp_units_on_save(_filepath: str = "") -> None:
    """save_pre: write each unit's layout version where it was never written (new settings hold the current
    layout; an absent version reads as 1 on load)."""
    for obj in bpy.data.objects:
        container = getattr(getattr(obj, "omi_physics", None), "units", None)
        if obj.library is not None or container is None or not container.keys():
            continue
        for binding in BINDINGS:
            group = getattr(container, binding.attr, None)
            if group is not None and group.keys() and group.get("version") is None:
                group["version"] = binding.version


def has_values(obj: bpy.types.Object) -> bool:
    container = getattr(getattr(obj, "omi_physics", None), "units", None)
    return container is not None and bool(container.keys()) and (
        any(getattr(container, b.attr).enabled for b in BINDINGS) or bool(container.kept_extensions_json))


def kept_extensions(obj: bpy.types.Object) -> dict[str, Any]:
    """The node extensions kept verbatim from an imported file."""
    container = getattr(getattr(obj, "omi_physics", None), "units", None)
    text = container.kept_extensions_json if container is not None else ""
    try:
        found = json.loads(text) if text else {}
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}


def keep_extensions(obj: bpy.types.Object, extensions: Mapping[str, Any]) -> None:
    text = json.dumps(dict(extensions), separators=(",", ":")) if extensions else ""
    if text or _stores_units(obj):
        units_of(obj).kept_extensions_json = text
