"""OMI_vehicle_hover_thruster: a hover thruster of a vehicle body, pushing along its node's +Z with a force
that grows near the ground (hover energy / distance): hover energy, gimbal, and their change rates. The
parameters live in the document-level `hoverThrusters` array, named by index from the thruster's node
(below the vehicle body). Files from before the 2026 rename (`current*Ratio`) are read as a legacy revision."""

from __future__ import annotations

from dataclasses import dataclass

from ...dialects.fields import Field
from ...model import NOTHING_UNKNOWN, Unknown
from .. import part_unit
from ..common import arrow
from ..vehicle_body import NAME as VEHICLE_BODY
from ..vehicle_thruster import NO_GIMBAL
from ..vehicle_wheel import MAX_ANGLE

NAME = "OMI_vehicle_hover_thruster"

FIELDS: tuple[Field, ...] = (
    Field("gimbal_change_rate", "gimbalChangeRate", default=1.0, what="gimbal change rate"),
    Field("hover_energy_change_rate", "hoverEnergyChangeRate", default=-1.0, what="hover energy change rate"),
    Field("linear_gimbal_adjust_ratio", "linearGimbalAdjustRatio", default=0.5, minimum=0.0, maximum=1.0,
          what="linear gimbal adjust ratio"),
    Field("max_gimbal", "maxGimbal", default=0.0, minimum=0.0, maximum=MAX_ANGLE, what="max gimbal"),
    Field("max_hover_energy", "maxHoverEnergy", minimum=0.0, what="max hover energy"),  # required, no default
    Field("target_hover_ratio", "targetHoverRatio", default=0.0, minimum=0.0, what="target hover ratio"),
    Field("target_gimbal_ratio", "targetGimbalRatio", "vector", NO_GIMBAL, size=2, minimum=-1.0, maximum=1.0,
          what="target gimbal ratio"),
)
RENAMES = {"currentHoverRatio": "targetHoverRatio", "currentGimbalRatio": "targetGimbalRatio"}


@dataclass(frozen=True)
class HoverThruster:
    gimbal_change_rate: float = 1.0
    hover_energy_change_rate: float = -1.0  # negative: instant
    linear_gimbal_adjust_ratio: float = 0.5
    max_gimbal: float = 0.0
    max_hover_energy: float | None = 0.0  # required in files (None: absent, read as 0)
    target_hover_ratio: float = 0.0
    target_gimbal_ratio: tuple[float, ...] = NO_GIMBAL
    unknown: Unknown = NOTHING_UNKNOWN  # of the hoverThrusters[] entry
    node_unknown: Unknown = NOTHING_UNKNOWN  # of the node's object beside `hoverThruster`


SPEC = part_unit.PartUnitSpec(NAME, "hover thruster", "hoverThrusters", "hoverThruster", FIELDS, HoverThruster,
                              VEHICLE_BODY, renames=RENAMES, required=("maxHoverEnergy",),
                              engine_loss="vehicle hover thrusters (omi-godot reads them)",
                              marks=lambda _value: arrow((0.0, 0.0, 0.0), (0.0, 0.0, 1.0), 0.5))  # pushes along +Z
UNIT = part_unit.unit(SPEC)
