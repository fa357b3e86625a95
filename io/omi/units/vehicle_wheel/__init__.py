"""OMI_vehicle_wheel: a wheel of a vehicle body: size, suspension, steering, propulsion and braking, each
with its change rate. The parameters live in the document-level `wheels` array, named by index from the
wheel's node (below the vehicle body). Files from before the 2026 rename (`maxForce`, `current*Ratio`) are
read as a legacy revision."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...dialects.fields import Field, read_fields
from ...dialects.omi import OMI
from ...dialects.unknown_keys import collect
from ...json_types import MISSING, ROOT, Where, get, int_or, join
from ...model import NOTHING_UNKNOWN, PhysicsMaterial, Unknown
from ...write.items import material_to_json
from .. import part_unit
from ..common import Segment, circle, rounded
from ..node_unit import ReadContext
from ..vehicle_body import NAME as VEHICLE_BODY

NAME = "OMI_vehicle_wheel"
MAX_ANGLE = 3.1415925  # the schema's maximum of an angle (a float32 pi, rounded down)
MATERIALS = "physicsMaterials"
MATERIAL_FIELDS = OMI.material_fields  # a wheel's own physics material, in its carrier's spelling

FIELDS: tuple[Field, ...] = (
    Field("braking_force", "brakingForce", default=-1.0, what="braking force"),
    Field("max_propulsion_force", "maxPropulsionForce", default=0.0, minimum=0.0, what="max propulsion force"),
    Field("max_steering_angle", "maxSteeringAngle", default=0.0, minimum=0.0, maximum=MAX_ANGLE,
          what="max steering angle"),
    Field("physics_material", "physicsMaterial", "special"),
    Field("propulsion_force_change_rate", "propulsionForceChangeRate", default=-1.0,
          what="propulsion force change rate"),
    Field("radius", "radius", default=0.25, exclusive_minimum=0.0, what="wheel radius"),
    Field("steering_change_rate", "steeringChangeRate", default=1.0, what="steering change rate"),
    Field("suspension_damping_compression", "suspensionDampingCompression", default=2000.0, exclusive_minimum=0.0,
          what="suspension damping compression"),
    Field("suspension_damping_rebound", "suspensionDampingRebound", default=2000.0, exclusive_minimum=0.0,
          what="suspension damping rebound"),
    Field("suspension_stiffness", "suspensionStiffness", default=20000.0, exclusive_minimum=0.0,
          what="suspension stiffness"),
    Field("suspension_travel", "suspensionTravel", default=0.25, minimum=0.0, what="suspension travel"),
    Field("target_propulsion_force_ratio", "targetPropulsionForceRatio", default=0.0,
          what="target propulsion force ratio"),
    Field("target_steering_ratio", "targetSteeringRatio", default=0.0, minimum=-1.0, maximum=1.0,
          what="target steering ratio"),
    Field("width", "width", default=0.125, exclusive_minimum=0.0, what="wheel width"),
)
RENAMES = {"maxForce": "maxPropulsionForce", "currentForceRatio": "targetPropulsionForceRatio",
           "currentSteeringRatio": "targetSteeringRatio"}


@dataclass(frozen=True)
class Wheel:
    braking_force: float = -1.0  # negative: the engine's default
    max_propulsion_force: float = 0.0
    max_steering_angle: float = 0.0
    physics_material: PhysicsMaterial | None = None
    propulsion_force_change_rate: float = -1.0  # negative: instant
    radius: float = 0.25
    steering_change_rate: float = 1.0
    suspension_damping_compression: float = 2000.0
    suspension_damping_rebound: float = 2000.0
    suspension_stiffness: float = 20000.0
    suspension_travel: float = 0.25
    target_propulsion_force_ratio: float = 0.0
    target_steering_ratio: float = 0.0
    width: float = 0.125
    unknown: Unknown = NOTHING_UNKNOWN  # of the wheels[] entry
    node_unknown: Unknown = NOTHING_UNKNOWN  # of the node's object beside `wheel`


def _read(raw: Mapping[str, Any], at: Where, context: ReadContext) -> dict[str, Any]:
    """The wheel's physics material, from the body extension's physicsMaterials array."""
    value = get(raw, "physicsMaterial")
    if value is MISSING or value == -1:
        return {"physics_material": None}
    home = OMI.homes[MATERIALS]
    items = get(get(get(context.gltf, "extensions"), home), MATERIALS)
    count = len(items) if isinstance(items, list) else 0
    where = join(at, "physicsMaterial")
    position = int_or(value, None, where, context.doc.issues, minimum=0, maximum=count - 1,
                      what="wheel physics material")
    if position is None or not isinstance(items, list) or not isinstance(items[position], Mapping):
        return {"physics_material": None}
    item = items[position]
    item_at = join(ROOT, "extensions", home, MATERIALS, position)
    fields = OMI.material_fields
    unknown = collect(fields, item, item_at, None, "physics material", dialect=OMI.name)
    return {"physics_material": PhysicsMaterial(**read_fields(fields, item, item_at, None), unknown=unknown)}


def _write(value: Wheel, refs: Any, _at: Where, _issues: Any) -> dict[str, Any]:
    if value.physics_material is None:
        return {}
    return {"physicsMaterial": refs.item(MATERIALS, material_to_json(value.physics_material))}


def _canonical(value: Wheel, _paths: Mapping[int, str]) -> dict[str, Any]:
    material = value.physics_material
    if material is None:
        return {"physicsMaterial": None}
    return {"physicsMaterial": {spec.key: rounded(getattr(material, spec.attr)) for spec in OMI.material_fields
                                if spec.kind != "name"}}


def _marks(value: Wheel) -> list[Segment]:
    """The wheel's rim (it rolls about X, in the YZ plane), its width, and its suspension travel (down)."""
    half = value.width / 2
    rims = [segment for x in (-half, half) for segment in circle((x, 0.0, 0.0), value.radius, 1, 2)]
    return [*rims, ((0.0, 0.0, 0.0), (0.0, -value.suspension_travel, 0.0))]


SPEC = part_unit.PartUnitSpec(NAME, "wheel", "wheels", "wheel", FIELDS, Wheel, VEHICLE_BODY, renames=RENAMES,
                              read_special=_read, write_special=_write, canonical_special=_canonical,
                              engine_loss="vehicle wheels (omi-godot reads them)", marks=_marks)
UNIT = part_unit.unit(SPEC)
