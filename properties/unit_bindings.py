"""The built-in extension units' Blender bindings, registered in this order (one line each)."""

from __future__ import annotations

from . import seat, spawn_point, units, vehicle_body, vehicle_hover_thruster, vehicle_thruster, vehicle_wheel

BUILT_IN: tuple[units.Binding, ...] = (
    seat.BINDING,
    spawn_point.BINDING,
    vehicle_body.BINDING,
    vehicle_wheel.BINDING,
    vehicle_thruster.BINDING,
    vehicle_hover_thruster.BINDING,
)


def register() -> None:
    for binding in BUILT_IN:
        units.attach(binding)


def unregister() -> None:
    for binding in reversed(BUILT_IN):
        units.detach(binding)
