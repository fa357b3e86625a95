"""Keys of an imported channel without a translation per key: the values that follow a channel, as an affine
function of its components, found from a few probes and checked before it is trusted.

Every translation between a file's value and what follows it is affine while the value stays within the
bounds its Object Model row's Field declares (axis swaps turn signs and components, a one-sided range flips,
Bullet turns signs, Blender measures from a rest pose). So the import translates the value at rest and
once per component nudged, and then each key is arithmetic; the map is used only where it predicts two
more translations exactly (the keys' lowest and highest components), and only for keys within the Field's
bounds: anything else (a clamp, a value the reader drops) still goes through the whole translation.

Pure Python: no bpy.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

Key = TypeVar("Key", bound=Hashable)


def within(field: Any, numbers: Sequence[float]) -> bool:
    """Whether every component is a value the reader takes as it is (`field`: the row's dialect Field)."""
    if field is None:
        return False
    for number in numbers:
        if not math.isfinite(number):
            return False
        if field.minimum is not None and number < field.minimum:
            return False
        if field.exclusive_minimum is not None and number <= field.exclusive_minimum:
            return False
        if field.kind == "infinity" and number < 0.0:
            return False
    return True


def _close(a: float, b: float) -> bool:
    return abs(a - b) <= 1e-5 * max(1.0, abs(a), abs(b))


def float32(value: float) -> float:
    """The value as Blender's float properties hold it."""
    return _FLOAT32.unpack(_FLOAT32.pack(value))[0] if math.isfinite(value) and abs(value) < 3.4e38 else value


_FLOAT32 = struct.Struct("<f")


@dataclass(frozen=True)
class LinearMap(Generic[Key]):
    """value(key) = offset[key] + sum over components c of slopes[key][c] * number[c], held as a float property
    holds it (float32), as the whole translation gives it."""

    offset: dict[Key, float]
    slopes: dict[Key, tuple[float, ...]]

    def at(self, numbers: Sequence[float]) -> dict[Key, float]:
        return {key: float32(offset + sum(slope * number for slope, number in zip(self.slopes[key], numbers,
                                                                                   strict=True)))
                for key, offset in self.offset.items()}

    def change(self, numbers: Sequence[float], tangent: Sequence[float]) -> dict[Key, float]:
        """How much each value moves when the channel moves from `numbers` by `tangent` (float32 values, as
        the whole translation measures it)."""
        here = self.at(numbers)
        there = self.at([number + step for number, step in zip(numbers, tangent, strict=True)])
        return {key: there[key] - value for key, value in here.items()}

    def predicts(self, numbers: Sequence[float], found: Mapping[Key, float]) -> bool:
        predicted = self.at(numbers)
        return all(key in found and _close(predicted[key], found[key]) for key in predicted)


def find(rest: Sequence[float], base: Mapping[Key, float], fed: Sequence[Key],
         translate: Callable[[Sequence[float]], Mapping[Key, float]], *, checks: Sequence[Sequence[float]],
         round_slopes: bool) -> LinearMap[Key] | None:
    """The affine map of the `fed` values around `rest` (`base`: their values there), from one translation per
    component nudged by 1 (`translate`: the values at a channel value), if it predicts the translations at
    `checks`; None when it does not. `round_slopes`: slopes are whole numbers (signs, permutations) whenever
    they are close to one, so that keys land on the values the whole translation gives."""
    rest = tuple(float(number) for number in rest)
    columns: list[Mapping[Key, float]] = []
    for component in range(len(rest)):
        nudged = list(rest)
        nudged[component] += 1.0
        columns.append(translate(nudged))
    slopes: dict[Key, tuple[float, ...]] = {}
    for key in fed:
        if key not in base or any(key not in column for column in columns):
            return None
        row = []
        for column in columns:
            slope = column[key] - base[key]
            if round_slopes and abs(slope - round(slope)) <= 1e-5 * max(1.0, abs(slope)):
                slope = float(round(slope))
            row.append(slope)
        slopes[key] = tuple(row)
    offsets = {}
    for key, slope_row in slopes.items():
        offset = base[key] - sum(slope * number for slope, number in zip(slope_row, rest, strict=True))
        # a value that is the channel's own (signed, swapped) is computed from it alone: exact, as translated
        offsets[key] = 0.0 if abs(offset) <= 1e-6 * max(1.0, abs(base[key])) else offset
    linear = LinearMap(offsets, slopes)
    return linear if all(linear.predicts(numbers, translate(numbers)) for numbers in checks) else None


def fit(rest: Sequence[float], base: Mapping[Key, float], fed: Sequence[Key],
        translate: Callable[[Sequence[float]], Mapping[Key, float]], *, field: Any,
        keys: Sequence[Sequence[float]]) -> LinearMap[Key] | None:
    """`find` for a channel's keys: checked at their lowest and highest components (those within `field`'s
    bounds); None when the rest value or no key is within them."""
    inside = [value for value in keys if within(field, value)]
    if not inside or not within(field, rest):
        return None
    low = [min(value[c] for value in inside) for c in range(len(rest))]
    high = [max(value[c] for value in inside) for c in range(len(rest))]
    return find(rest, base, fed, translate, checks=[low, high], round_slopes=True)
