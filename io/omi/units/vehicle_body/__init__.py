"""OMI_vehicle_body: a dynamic body that drives itself: activation inputs, gyroscope torque, maximum speed,
dampeners, throttle, and the node of its pilot seat (an OMI_seat node, usually below it).

Its rules: it sits beside a body with motion (the spec puts it on an OMI_physics_body node); the pilot
seat is a node holding a seat. An absent `linearDampeners` is true (its default changed in 2025-12); false
is written."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from ...dialects.fields import Field
from ...json_types import MISSING, Where, get, int_or, join, report, sequence_items
from ...model import NOTHING_UNKNOWN, ZERO3, NodeRef, Unknown, Vec3
from .. import node_unit
from ..common import Segment, arrow, value_of
from ..seat import NAME as SEAT

NAME = "OMI_vehicle_body"
NO_MAX_SPEED = -1.0  # negative: no maximum speed

FIELDS: tuple[Field, ...] = (
    Field("angular_activation", "angularActivation", "vector", ZERO3, size=3, what="angular activation"),
    Field("linear_activation", "linearActivation", "vector", ZERO3, size=3, what="linear activation"),
    Field("gyro_torque", "gyroTorque", "vector", ZERO3, size=3, what="gyro torque"),
    Field("max_speed", "maxSpeed", default=NO_MAX_SPEED, what="max speed"),
    Field("pilot_seat", "pilotSeat", "special"),
    Field("angular_dampeners", "angularDampeners", "bool", True),
    Field("linear_dampeners", "linearDampeners", "bool", True),
    Field("use_throttle", "useThrottle", "bool", False),
)


@dataclass(frozen=True)
class VehicleBody:
    angular_activation: Vec3 = ZERO3
    linear_activation: Vec3 = ZERO3
    gyro_torque: Vec3 = ZERO3
    max_speed: float = NO_MAX_SPEED
    pilot_seat: NodeRef = None  # the seat's node (glTF index in files, an object in Blender); None: no seat
    angular_dampeners: bool = True
    linear_dampeners: bool = True
    use_throttle: bool = False
    unknown: Unknown = NOTHING_UNKNOWN


def _read(raw: Mapping[str, Any], at: Where, context: node_unit.ReadContext) -> dict[str, Any]:
    value = get(raw, "pilotSeat")
    if value is MISSING or value == -1:
        return {"pilot_seat": None}
    count = len(sequence_items(get(context.gltf, "nodes")))
    seat = int_or(value, None, join(at, "pilotSeat"), context.doc.issues, minimum=0, maximum=count - 1,
                  what="pilot seat node")
    return {"pilot_seat": seat}


def _check(value: VehicleBody, index: int, at: Where, context: node_unit.ReadContext) -> VehicleBody:
    node = context.doc.nodes.get(index)
    if node is None or node.motion is None:
        context.findings.add(f"{NAME}:no_motion", at, "vehicle body on a node that is no body with motion (the spec "
                                                      "puts it beside OMI_physics_body's motion): kept as it is")
    if value.pilot_seat is not None and value_of(context.doc.nodes.get(value.pilot_seat), SEAT) is None:
        report(context.doc.issues, join(at, "pilotSeat"), f"pilot seat node {value.pilot_seat} holds no usable "
               f"{SEAT}: the vehicle has no pilot seat", "warning")
        return replace(value, pilot_seat=None)
    return value


def _write(value: VehicleBody, refs: Any, at: Where, issues: Any) -> dict[str, Any]:
    if value.pilot_seat is None:
        return {}
    index = refs.node(value.pilot_seat)
    if index is None:
        report(issues, join(at, "pilotSeat"), "the pilot seat is not exported: the vehicle is written without one",
               "warning")
        return {}
    return {"pilotSeat": index}


def _canonical(value: VehicleBody, paths: Mapping[int, str]) -> dict[str, Any]:
    seat = value.pilot_seat
    return {"pilotSeat": paths.get(seat, f"#{seat}") if isinstance(seat, int) else None}


def _marks(_value: VehicleBody) -> list[Segment]:
    return arrow((0.0, 0.0, 0.0), (0.0, 0.0, 1.0), 1.0)  # the vehicle's front


SPEC = node_unit.NodeUnitSpec(NAME, "vehicle body", FIELDS, VehicleBody, read_special=_read, check=_check,
                              write_special=_write, canonical_special=_canonical,
                              engine_loss="vehicle bodies (omi-godot reads them)", marks=_marks)
UNIT = node_unit.unit(SPEC)
