"""OMI_vehicle_wheel's settings: size, suspension, steering, propulsion, braking and change rates; a wheel's
own physics material is kept as the file gave it (hidden JSON), written back unchanged."""

from __future__ import annotations

import json
from typing import Any

from bpy.props import StringProperty

from ..io.omi.dialects.fields import read_fields
from ..io.omi.model import PhysicsMaterial
from ..io.omi.units import vehicle_wheel
from ..io.omi.write.items import material_to_json
from .units import Binding, NodeResolver

SPECIAL = {"physics_material_json": StringProperty(options={'HIDDEN'})}


def _read(settings: Any) -> dict[str, Any]:
    try:
        material = json.loads(settings.physics_material_json) if settings.physics_material_json else None
    except ValueError:
        material = None
    if not isinstance(material, dict):
        return {"physics_material": None}
    return {"physics_material": PhysicsMaterial(**read_fields(vehicle_wheel.MATERIAL_FIELDS, material, "", None))}


def _write(value: vehicle_wheel.Wheel, settings: Any, _resolve: NodeResolver) -> None:
    material = value.physics_material
    settings.physics_material_json = "" if material is None else json.dumps(material_to_json(material))


BINDING = Binding(vehicle_wheel.NAME, "vehicle_wheel", "Wheel", vehicle_wheel.FIELDS, vehicle_wheel.Wheel,
                  special=SPECIAL, read_special=_read, write_special=_write)
