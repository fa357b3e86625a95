"""OMI_vehicle_body's settings: activation, gyro torque, max speed, dampeners, throttle and the pilot seat
(an object holding a seat)."""

from __future__ import annotations

from typing import Any

import bpy
from bpy.props import PointerProperty

from ..io.omi.units import vehicle_body
from .units import Binding, NodeResolver

SPECIAL = {"pilot_seat": PointerProperty(type=bpy.types.Object, name="Pilot Seat",
                                         description="The object of the seat the pilot sits in (it holds a seat)")}


def _read(settings: Any) -> dict[str, Any]:
    return {"pilot_seat": settings.pilot_seat}


def _write(value: vehicle_body.VehicleBody, settings: Any, resolve: NodeResolver) -> None:
    seat = value.pilot_seat
    settings.pilot_seat = resolve(seat) if isinstance(seat, int) else seat


BINDING = Binding(vehicle_body.NAME, "vehicle_body", "Vehicle Body", vehicle_body.FIELDS, vehicle_body.VehicleBody,
                  special=SPECIAL, read_special=_read, write_special=_write)
