"""shortest_float32: Blender's float32 values written as the shortest decimal that is the same float32."""

from __future__ import annotations

import math
import struct
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from omi_core import json_types

FLOAT32 = struct.Struct("<f")


def as_float32(value: float) -> float:
    rounded: float = FLOAT32.unpack(FLOAT32.pack(value))[0]
    return rounded


def significant_digits(value: float) -> int:
    """Digits of the shortest decimal of a float (repr), leading and trailing zeros not counted."""
    mantissa = repr(abs(value)).lower().split("e")[0].replace(".", "").strip("0")
    return max(1, len(mantissa))


@pytest.fixture
def shortest() -> Any:
    return json_types.shortest_float32


@pytest.mark.parametrize(("decimal", "digits"), [(0.3, 1), (0.1, 1), (2.5, 2), (1e-7, 1), (123456.7, 7),
                                                 (0.123817444, 9), (-7.2154, 5)])
def test_a_float32_becomes_the_decimal_that_made_it(shortest: Any, decimal: float, digits: int) -> None:
    stored = as_float32(decimal)  # what Blender hands back, e.g. 0.30000001192092896 for 0.3
    assert shortest(stored) == decimal
    assert significant_digits(shortest(stored)) == digits
    assert as_float32(shortest(stored)) == stored


def test_values_that_are_not_float32_are_kept(shortest: Any) -> None:
    for value in (0.1, 1.0 / 3.0, 1e300, -1e-300, math.inf, -math.inf):
        assert shortest(value) == value
    assert math.isnan(shortest(math.nan))
    assert math.copysign(1.0, shortest(-0.0)) == -1.0
    assert shortest(3) == 3.0 and isinstance(shortest(3), float)


@pytest.mark.slow
@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_every_float32_round_trips_in_at_most_nine_digits(shortest: Any, bits: Any) -> None:
    (stored,) = struct.unpack("<f", struct.pack("<I", bits))
    if not math.isfinite(stored):
        return
    result = shortest(stored)
    assert FLOAT32.pack(result) == FLOAT32.pack(stored)
    assert significant_digits(result) <= 9
    shorter = float(f"{stored:.{max(1, significant_digits(result) - 1)}g}")
    assert significant_digits(result) <= 6 or FLOAT32.pack(shorter) != FLOAT32.pack(stored)
