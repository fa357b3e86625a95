"""Overlay lines of the extension units: what each unit's `marks` draws in its node's frame (a wheel's rim and
suspension travel, a thruster's push, a seat's back-knee-foot outline, a spawn point's ring and facing, a
vehicle's front), turned into Blender's axes and placed by the object's world matrix. The viewport names no
extension: the registry's units say what to draw."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

import bpy
import numpy as np
from mathutils import Vector

from ..io.blender.tables import axes
from ..io.omi.dialects import registry
from ..properties import units
from .collect import OverlayLines
from .geometry import LineBuffer

UNIT_COLOR = (1.0, 0.55, 0.1, 1.0)  # orange: parts of vehicles, seats and spawn points


def unit_lines(obj: bpy.types.Object, buffer: LineBuffer) -> int:
    """Add one object's unit marks to `buffer` (world space); how many units drew."""
    drawn = 0
    world = obj.matrix_world
    for name, value in units.values_from_object(obj).items():
        unit = registry.extension_unit(name)
        segments = unit.marks(value) if unit is not None and unit.marks is not None else []
        points = [world @ Vector(axes.vec_to_blender(point)) for segment in segments for point in segment]
        if points:
            buffer.add(np.array(points, np.float32).reshape(-1, 3), UNIT_COLOR)
            drawn += 1
    return drawn


def with_units(lines: OverlayLines, objects: Iterable[bpy.types.Object]) -> OverlayLines:
    """The overlay's lines with those of every extension unit's value among `objects` added."""
    buffer = LineBuffer()
    drawn = sum(unit_lines(obj, buffer) for obj in objects if units.has_values(obj))
    if not drawn:
        return lines
    positions, colors = buffer.arrays()
    return dataclasses.replace(lines, positions=np.concatenate([lines.positions, positions]),
                               colors=np.concatenate([lines.colors, colors]))
