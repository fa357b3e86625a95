"""Fixtures of the pure core's tests: `io/omi` loaded by path as the package `omi_core`, without bpy.

The same package the command-line tool and `tests/schema_check.py` load (scripts/omi_physics_cli.py), so
these tests run in a plain Python with pytest, jsonschema and hypothesis (no Blender). Their fixtures
`omi`, `model`, `reader`, `writer` and `canonical` override the Blender-backed ones of tests/conftest.py.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

TESTS_DIR = Path(__file__).resolve().parent.parent
if str(TESTS_DIR) not in sys.path:
    sys.path.insert(0, str(TESTS_DIR))  # schema_check; tests/conftest.py is not loaded in a bpy-free run

from omi_core_loader import SPEC_DIR, core  # noqa: E402


@pytest.fixture(scope="session")
def omi() -> Callable[[str], ModuleType]:
    """Accessor in the add-on's spelling: omi('io.omi.model') is omi_core.model."""
    def module(name: str) -> ModuleType:
        prefix = "io.omi."
        assert name.startswith(prefix), f"the pure tests only reach io/omi, not {name}"
        return core(name[len(prefix):])
    return module


@pytest.fixture(scope="session")
def model() -> ModuleType:
    return core("model")


@pytest.fixture(scope="session")
def reader() -> ModuleType:
    return core("read.reader")


@pytest.fixture(scope="session")
def writer() -> ModuleType:
    return core("write.writer")


@pytest.fixture(scope="session")
def canonical() -> ModuleType:
    return core("checks.canonical")


@pytest.fixture(scope="session")
def spec_dir() -> Path:
    return SPEC_DIR
