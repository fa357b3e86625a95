"""OMI_vehicle_thruster: a thruster of a vehicle body, pushing along its node's +Z: maximum force, gimbal,
and their change rates. The parameters live in the document-level `thrusters` array, named by index from
the thruster's node (below the vehicle body). Files from before the 2026 rename (`current*Ratio`) are read
as a legacy revision."""

from __future__ import annotations

from dataclasses import dataclass

from ...dialects.fields import Field
from ...model import NOTHING_UNKNOWN, Unknown
from .. import part_unit
from ..common import arrow
from ..vehicle_body import NAME as VEHICLE_BODY
from ..vehicle_wheel import MAX_ANGLE

NAME = "OMI_vehicle_thruster"
NO_GIMBAL: tuple[float, float] = (0.0, 0.0)

FIELDS: tuple[Field, ...] = (
    Field("force_change_rate", "forceChangeRate", default=-1.0, what="force change rate"),
    Field("gimbal_change_rate", "gimbalChangeRate", default=1.0, what="gimbal change rate"),
    Field("linear_gimbal_adjust_ratio", "linearGimbalAdjustRatio", default=0.0, minimum=0.0, maximum=1.0,
          what="linear gimbal adjust ratio"),
    Field("max_force", "maxForce", minimum=0.0, what="thruster max force"),  # required, no default
    Field("max_gimbal", "maxGimbal", default=0.0, minimum=0.0, maximum=MAX_ANGLE, what="max gimbal"),
    Field("target_force_ratio", "targetForceRatio", default=0.0, minimum=0.0, what="target force ratio"),
    Field("target_gimbal_ratio", "targetGimbalRatio", "vector", NO_GIMBAL, size=2, minimum=-1.0, maximum=1.0,
          what="target gimbal ratio"),
)
RENAMES = {"currentForceRatio": "targetForceRatio", "currentGimbalRatio": "targetGimbalRatio"}


@dataclass(frozen=True)
class Thruster:
    force_change_rate: float = -1.0  # negative: instant
    gimbal_change_rate: float = 1.0
    linear_gimbal_adjust_ratio: float = 0.0
    max_force: float | None = 0.0  # required in files (None: absent, read as 0)
    max_gimbal: float = 0.0
    target_force_ratio: float = 0.0
    target_gimbal_ratio: tuple[float, ...] = NO_GIMBAL
    unknown: Unknown = NOTHING_UNKNOWN  # of the thrusters[] entry
    node_unknown: Unknown = NOTHING_UNKNOWN  # of the node's object beside `thruster`


SPEC = part_unit.PartUnitSpec(NAME, "thruster", "thrusters", "thruster", FIELDS, Thruster, VEHICLE_BODY,
                              renames=RENAMES, required=("maxForce",),
                              engine_loss="vehicle thrusters (omi-godot reads them)",
                              marks=lambda _value: arrow((0.0, 0.0, 0.0), (0.0, 0.0, 1.0), 0.5))  # pushes along +Z
UNIT = part_unit.unit(SPEC)
