"""The toy's core unit: a node-level `TOY_gadget` object with one number, `power` (default 1, at least 0),
which the Object Model lists (so it animates), and a loss line for engine targets whose core ignores it."""

from __future__ import annotations

from dataclasses import dataclass

import addon_loader

NAME = "TOY_gadget"
fields, model, node_unit = (addon_loader.module(f"io.omi.{name}") for name in ("dialects.fields", "model",
                                                                                 "units.node_unit"))

FIELDS = (fields.Field("power", "power", default=1.0, minimum=0.0, what="gadget power"),)


@dataclass(frozen=True)
class Gadget:
    power: float = 1.0
    unknown: model.Unknown = model.NOTHING_UNKNOWN


UNIT = node_unit.unit(node_unit.NodeUnitSpec(NAME, "gadget", FIELDS, Gadget, engine_loss="toy gadgets"))
