"""OMI_spawn_point's settings: title, team and group (at most 128 characters each)."""

from __future__ import annotations

from typing import Any

from bpy.props import StringProperty

from ..io.omi.units import spawn_point
from .units import Binding, NodeResolver

SPECIAL = {spec.attr: StringProperty(name=spec.key.capitalize(), maxlen=spawn_point.MAX_LENGTH)
           for spec in spawn_point.FIELDS}


def _read(settings: Any) -> dict[str, Any]:
    return {spec.attr: str(getattr(settings, spec.attr)) for spec in spawn_point.FIELDS}


def _write(value: spawn_point.SpawnPoint, settings: Any, _resolve: NodeResolver) -> None:
    for spec in spawn_point.FIELDS:
        setattr(settings, spec.attr, getattr(value, spec.attr))


BINDING = Binding(spawn_point.NAME, "spawn_point", "Spawn Point", spawn_point.FIELDS, spawn_point.SpawnPoint,
                  special=SPECIAL, read_special=_read, write_special=_write)
