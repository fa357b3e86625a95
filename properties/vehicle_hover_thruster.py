"""OMI_vehicle_hover_thruster's settings: a hover thruster's energy, gimbal and change rates."""

from __future__ import annotations

from ..io.omi.units import vehicle_hover_thruster
from .units import Binding

BINDING = Binding(vehicle_hover_thruster.NAME, "vehicle_hover_thruster", "Hover Thruster",
                  vehicle_hover_thruster.FIELDS, vehicle_hover_thruster.HoverThruster)
