"""Whether Godot 4 runs here. Without it tests/godot/conftest.py leaves the folder's other test files out, and
this test's skip says why, once, for all of them."""

from __future__ import annotations

import godot_runner
import pytest


def test_godot_runs_here():
    reason = godot_runner.unavailable_reason()
    if reason is not None:
        pytest.skip(f"{reason}; every test in tests/godot left out")
    assert godot_runner.unavailable_reason() is None
