"""OMI_spawn_point: a place where characters appear, facing the node's +Z, with an optional title, team
and group (strings of at most 128 characters). It has no Object Model rows."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...dialects.fields import Field
from ...json_types import Where, get, join, report, str_or
from ...model import NOTHING_UNKNOWN, Unknown
from .. import node_unit
from ..common import Segment, arrow, circle

NAME = "OMI_spawn_point"
MAX_LENGTH = 128  # the schema's maxLength of each string

FIELDS: tuple[Field, ...] = (
    Field("title", "title", "special"), Field("team", "team", "special"), Field("group", "group", "special"))


@dataclass(frozen=True)
class SpawnPoint:
    title: str = ""
    team: str = ""
    group: str = ""
    unknown: Unknown = NOTHING_UNKNOWN


def _read(raw: Mapping[str, Any], at: Where, context: node_unit.ReadContext) -> dict[str, Any]:
    values = {}
    for spec in FIELDS:
        text = str_or(get(raw, spec.key), "", join(at, spec.key), context.doc.issues, spec.key)
        if len(text) > MAX_LENGTH:
            report(context.doc.issues, join(at, spec.key), f"spawn point {spec.key} has {len(text)} characters, "
                   f"more than the schema's {MAX_LENGTH}: cut to {MAX_LENGTH}", "warning")
            text = text[:MAX_LENGTH]
        values[spec.attr] = text
    return values


def _write(value: SpawnPoint, _refs: Any, _at: Where, _issues: Any) -> dict[str, Any]:
    return {spec.key: getattr(value, spec.attr)[:MAX_LENGTH] for spec in FIELDS if getattr(value, spec.attr)}


def _canonical(value: SpawnPoint, _paths: Mapping[int, str]) -> dict[str, Any]:
    return {spec.key: getattr(value, spec.attr) for spec in FIELDS}


def _marks(_value: SpawnPoint) -> list[Segment]:
    """A ring where characters stand and an arrow where they face (+Z)."""
    return [*circle((0.0, 0.0, 0.0), 0.3, 0, 2), *arrow((0.0, 0.0, 0.0), (0.0, 0.0, 1.0), 0.5)]


SPEC = node_unit.NodeUnitSpec(NAME, "spawn point", FIELDS, SpawnPoint, read_special=_read, write_special=_write,
                              canonical_special=_canonical, engine_loss="spawn points (omi-godot keeps them as "
                              "metadata)", animated=False, marks=_marks)
UNIT = node_unit.unit(SPEC)
