"""Sampler keys and pointers of physics channels that would change values without a word (issue #27): one
rule for validate and the import (io/omi/checks/animation_keys)."""

from __future__ import annotations

import math

from omi_core.checks import animation_keys
from omi_core.dialects import pointers
from present import present


def test_times_must_be_finite_non_negative_and_increasing() -> None:
    keys = animation_keys
    assert keys.time_problem([0.0, 0.5, 1.0]) is None
    assert "NaN" in present(keys.time_problem([0.0, math.nan, 1.0]))
    assert "negative" in present(keys.time_problem([-1.0, 0.0]))
    assert "do not increase (2 s, then 1 s)" in present(keys.time_problem([0.0, 2.0, 1.0]))
    assert "do not increase (1 s, then 1 s)" in present(keys.time_problem([0.0, 1.0, 1.0]))


def test_values_keep_the_bounds_of_the_value_they_animate() -> None:
    keys = animation_keys
    mass = present(pointers.match("/nodes/0/extensions/OMI_physics_body/motion/mass")).template
    gravity_factor = present(pointers.match("/nodes/0/extensions/OMI_physics_body/motion/gravityFactor")).template
    assert keys.value_problem(mass, [1.0, 2.0]) is None
    assert "NaN or infinite" in present(keys.value_problem(mass, [1.0, math.inf]))
    assert "below its minimum 0" in present(keys.value_problem(mass, [1.0, -2.0]))
    assert keys.value_problem(gravity_factor, [-1.0]) is None  # no minimum: a reversed gravity is fine


def test_pointers_that_are_no_json_pointers_are_named() -> None:
    keys = animation_keys
    target = {"path": "pointer", "extensions": {"KHR_animation_pointer": {"pointer": ""}}}
    fragment = {"path": "pointer", "extensions": {"KHR_animation_pointer": {
        "pointer": "#/nodes/0/extensions/OMI_physics_body/motion/mass"}}}
    fine = {"path": "pointer", "extensions": {"KHR_animation_pointer": {
        "pointer": "/nodes/0/extensions/OMI_physics_body/motion/mass"}}}
    gltf = {"animations": [{"channels": [{"sampler": 0, "target": t} for t in (target, fragment, fine)]}]}
    found = keys.malformed_pointers(gltf)
    assert [issue.pointer.split("/")[4] for issue in found] == ["0", "1"]
    assert "empty" in found[0].message and "'/nodes/0/extensions/OMI_physics_body/motion/mass'" in found[1].message


def test_cubic_spline_tangents_are_not_keyed_values() -> None:
    """A CUBICSPLINE output holds (in-tangent, value, out-tangent) per key; a zero tangent is no zero key."""
    keys = animation_keys
    rows = [(0.0,), (1.0,), (0.0,), (-3.0,), (2.5,), (0.0,)]
    assert keys.key_values(rows, "CUBICSPLINE") == [1.0, 2.5]
    assert keys.key_values(rows, "LINEAR") == [0.0, 1.0, 0.0, -3.0, 2.5, 0.0]
