"""The extension units: one package per glTF extension the add-on reads and writes beyond the dialects'
own (vehicles, seats, spawn points), each registered by one line of `register_all`.

A unit package holds its model part (frozen dataclasses), Field tables (keys, defaults, bounds), rules and
the hooks its tables cannot say; `node_unit` and `part_unit` build its reader, writer, Object Model rows,
canonical form and schema check from those. The Blender side binds each unit in `properties/`, `panels/`
and `operators/` by its name in the registry. Order matters where a unit's rules look at another's values:
a seat is read before the vehicle body that names it, a body before its wheels and thrusters.
"""

from __future__ import annotations

from ..dialects import registry
from . import seat, spawn_point, vehicle_body, vehicle_hover_thruster, vehicle_thruster, vehicle_wheel


def register_all() -> None:
    """Register every built-in extension unit (again: replaced, so calling it twice is harmless)."""
    registry.register(seat.UNIT)
    registry.register(spawn_point.UNIT)
    registry.register(vehicle_body.UNIT)
    registry.register(vehicle_wheel.UNIT)
    registry.register(vehicle_thruster.UNIT)
    registry.register(vehicle_hover_thruster.UNIT)


def legacy_names() -> tuple[tuple[str, str, dict[str, str]], ...]:
    """(extension, document-level array, {legacy key: current key}) of each unit whose keys were renamed
    (for a target whose reader still reads the legacy keys)."""
    specs = (vehicle_wheel.SPEC, vehicle_thruster.SPEC, vehicle_hover_thruster.SPEC)
    return tuple((spec.name, spec.array, dict(spec.renames)) for spec in specs if spec.renames)
