"""The built-in extension units' Blender bindings, registered in this order (one line each)."""

from __future__ import annotations

import bpy

from . import seat, spawn_point, units, vehicle_body, vehicle_hover_thruster, vehicle_thruster, vehicle_wheel

BUILT_IN: tuple[units.Binding, ...] = (
    seat.BINDING,
    spawn_point.BINDING,
    vehicle_body.BINDING,
    vehicle_wheel.BINDING,
    vehicle_thruster.BINDING,
    vehicle_hover_thruster.BINDING,
)


_HANDLERS = ((bpy.app.handlers.load_post, units.migrate_units_on_load),
             (bpy.app.handlers.save_pre, units.stamp_units_on_save))


def register() -> None:
    for binding in BUILT_IN:
        units.attach(binding)
    for handlers, handler in _HANDLERS:
        if handler not in handlers:
            handlers.append(handler)


def unregister() -> None:
    for handlers, handler in _HANDLERS:
        while handler in handlers:
            handlers.remove(handler)
    for binding in reversed(BUILT_IN):
        units.detach(binding)
