"""Fixtures of the pure core's tests: `io/omi` as the package `omi_core` (tests/omi_core_loader.py), so these
tests run in a plain Python with pytest, jsonschema and hypothesis (no Blender). Their fixture `omi` overrides
the Blender-backed one of tests/conftest.py: it reaches only the core.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

TESTS_DIR = Path(__file__).resolve().parent.parent
if str(TESTS_DIR) not in sys.path:
    sys.path.insert(0, str(TESTS_DIR))  # omi_core_loader, schema_check (tests/conftest.py puts it there too)

import omi_core_loader  # noqa: E402

omi_core_loader.install()


@pytest.fixture(scope="session")
def omi() -> Callable[[str], ModuleType]:
    """Accessor in the add-on's spelling: omi('io.omi.model') is omi_core.model."""
    def module(name: str) -> ModuleType:
        prefix = "io.omi."
        assert name.startswith(prefix), f"the pure tests only reach io/omi, not {name}"
        return importlib.import_module(f"{omi_core_loader.CORE_PACKAGE}.{name.removeprefix(prefix)}")
    return module
