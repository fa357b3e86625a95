"""The toy's settings: a PropertyGroup made from its Field table."""

from __future__ import annotations

import addon_loader

from . import unit

BINDING = addon_loader.module("properties.units").Binding(unit.NAME, "toy_gadget", "Toy Gadget", unit.FIELDS,
                                                         unit.Gadget)
