"""OMI_vehicle_thruster's settings: a thruster's force, gimbal and change rates (pushes along the node's +Z in
the file's frame)."""

from __future__ import annotations

from ..io.omi.units import vehicle_thruster
from .units import Binding

BINDING = Binding(vehicle_thruster.NAME, "vehicle_thruster", "Thruster", vehicle_thruster.FIELDS,
                  vehicle_thruster.Thruster)
