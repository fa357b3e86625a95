"""OMI_seat: a place a character sits, given by three points in the node's frame (back, foot, knee) and the
angle between spine and thighs. Usually on a trigger body, so players can reach it; a vehicle body names
its pilot seat by node."""

from __future__ import annotations

import math
from dataclasses import dataclass

from ...dialects.fields import Field
from ...model import NOTHING_UNKNOWN, Unknown, Vec3
from .. import node_unit
from ..common import Segment, circle

NAME = "OMI_seat"
DEFAULT_ANGLE = math.pi / 2

FIELDS: tuple[Field, ...] = (
    Field("back", "back", "vector", size=3, what="seat back"),  # required, no default: always written
    Field("foot", "foot", "vector", size=3, what="seat foot"),
    Field("knee", "knee", "vector", size=3, what="seat knee"),
    Field("angle", "angle", default=DEFAULT_ANGLE, exclusive_minimum=0.0, what="seat angle"),
)


@dataclass(frozen=True)
class Seat:
    back: Vec3
    foot: Vec3
    knee: Vec3
    angle: float = DEFAULT_ANGLE
    unknown: Unknown = NOTHING_UNKNOWN


def _marks(value: Seat) -> list[Segment]:
    """The sitter's outline: back to knee to foot, a small cross at each point."""
    cross = [segment for point in (value.back, value.knee, value.foot)
             for axis in range(3) for segment in circle(point, 0.03, axis, (axis + 1) % 3, 4)]
    return [(value.back, value.knee), (value.knee, value.foot), *cross]


SPEC = node_unit.NodeUnitSpec(NAME, "seat", FIELDS, Seat, required=("back", "foot", "knee"),
                              engine_loss="seats (omi-godot reads them)", marks=_marks)
UNIT = node_unit.unit(SPEC)
