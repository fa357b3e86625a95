"""The extension units' settings in the Physics tab (a sub-panel of 'OMI Physics' per unit, its switch in the
header) and in the sidebar (the active object's units, and the buttons that make vehicles, seats and spawn
points). Panel classes are made per binding from `properties.units.BINDINGS`, so a unit needs no panel code of
its own; a unit's `panels/<unit>.py` may add rows below its settings with `add_rows`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import bpy

from ..io.omi.dialects import registry
from ..properties import units
from .base import PanelMixin

Rows = Callable[[bpy.types.UILayout, Any, bpy.types.Object], None]  # (layout, the unit's settings, object)
ROWS: dict[str, list[Rows]] = {}  # unit name -> extra rows, from the units' panel files
BUTTONS: tuple[tuple[str, str], ...] = (  # the units' operators (operators/<unit>.py), in the sidebar's order
    ("omi.make_vehicle", 'AUTO'), ("omi.make_seat", 'EVENT_S'), ("omi.add_spawn_point", 'ARMATURE_DATA'),
    ("omi.add_wheel", 'MESH_CIRCLE'), ("omi.add_thruster", 'FORCE_WIND'))


def add_rows(unit: str, rows: Rows) -> None:
    """Draw `rows` below the unit's settings (a unit's panel file calls this once)."""
    if rows not in ROWS.setdefault(unit, []):
        ROWS[unit].append(rows)


def draw_settings(layout: bpy.types.UILayout, binding: units.Binding, obj: bpy.types.Object) -> None:
    """One unit's settings: every field its tables declare, then its special ones and extra rows."""
    settings = units.settings_of(obj, binding)
    layout.use_property_split = True
    layout.use_property_decorate = True  # the keyframe dot: unit values animate (KHR_animation_pointer)
    column = layout.column()
    column.active = settings.enabled
    for spec in binding.fields:
        if spec.kind != "special" and spec.attr in settings.bl_rna.properties:
            column.prop(settings, spec.attr)
    for name in binding.special:
        if not settings.bl_rna.properties[name].is_hidden:
            column.prop(settings, name)
    for rows in ROWS.get(binding.unit, ()):
        rows(column, settings, obj)


class _UnitPanel(PanelMixin):
    binding: units.Binding

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return context.object is not None

    def draw_header(self, context: bpy.types.Context) -> None:
        obj = context.object
        assert obj is not None, "poll: an active object"
        self.layout.prop(units.settings_of(obj, self.binding), "enabled", text="")

    def draw(self, context: bpy.types.Context) -> None:
        obj = context.object
        assert obj is not None, "poll: an active object"
        draw_settings(self.layout, self.binding, obj)


class _Sidebar(PanelMixin):
    bl_space_type = 'VIEW_3D'
    bl_region_type = 'UI'
    bl_category = "Physics"


class VIEW3D_PT_omi_units(_Sidebar, bpy.types.Panel):
    """Sidebar > Physics > Vehicles & Seats: make them from the selection; the active object's units."""
    bl_label = "Vehicles & Seats"
    bl_options = {'DEFAULT_CLOSED'}

    def draw(self, context: bpy.types.Context) -> None:
        column = self.layout.column(align=True)
        for idname, icon in BUTTONS:
            column.operator(idname, icon=icon)  # type: ignore[arg-type]  # icons come from the units' operator files
        obj = context.active_object
        if obj is None:
            return
        for binding in units.BINDINGS:
            if units.settings_of(obj, binding).enabled:
                box = self.layout.box()
                box.label(text=binding.label)
                draw_settings(box, binding, obj)


_MADE: list[type] = []


def panel_class(binding: units.Binding) -> type:
    """The Physics tab's sub-panel of one unit."""
    attributes = {"bl_space_type": 'PROPERTIES', "bl_region_type": 'WINDOW', "bl_context": "physics",
                  "bl_parent_id": "PHYSICS_PT_omi", "bl_label": binding.label, "bl_options": {'DEFAULT_CLOSED'},
                  "binding": binding, "__doc__": f"Properties > Physics > OMI Physics > {binding.label}"}
    return type(f"PHYSICS_PT_omi_unit_{binding.attr}", (_UnitPanel, bpy.types.Panel), attributes)


def attach(binding: units.Binding) -> None:
    """Register one unit's panel (also after the add-on registered: a unit added later)."""
    cls = panel_class(binding)
    bpy.utils.register_class(cls)
    _MADE.append(cls)


def detach(binding: units.Binding) -> None:
    """Unregister one unit's panel."""
    for cls in [cls for cls in _MADE if getattr(cls, "binding", None) is binding]:
        bpy.utils.unregister_class(cls)
        _MADE.remove(cls)


def register_unit(unit: Any, binding: units.Binding) -> None:
    """A unit added while the add-on runs, in one call: its core unit in the registry, its settings and its panel
    (the built-in ones are registered by `io/omi/units.register_all` and `properties/unit_bindings`)."""
    registry.register(unit)
    units.attach(binding)
    attach(binding)


def unregister_unit(binding: units.Binding) -> None:
    detach(binding)
    units.detach(binding)
    registry.unregister(binding.unit)


def register() -> None:
    for binding in units.BINDINGS:
        attach(binding)
    bpy.utils.register_class(VIEW3D_PT_omi_units)


def unregister() -> None:
    bpy.utils.unregister_class(VIEW3D_PT_omi_units)
    while _MADE:
        bpy.utils.unregister_class(_MADE.pop())
