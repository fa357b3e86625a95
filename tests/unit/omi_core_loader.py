"""The pure core `io/omi` loaded by path as the package `omi_core`, without bpy and without the checkout on
sys.path (its io/ would shadow Python's io); the same package name the command-line tool uses."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

CORE_DIR = Path(__file__).resolve().parent.parent.parent / "io" / "omi"
CORE_PACKAGE = "omi_core"
TESTS_DATA = CORE_DIR.parent.parent / "tests" / "data"
SPEC_DIR = TESTS_DATA / "omi-spec"  # copies of the specs' texts, schemas and examples (tests/data/README.md)
KHR_DIR = TESTS_DATA / "khr-spec"
ORIGINALS = CORE_DIR.parent.parent.parent / "shared"  # the project's copies the above were taken from


def load_package(directory: Path, package: str) -> ModuleType:
    """The folder `directory` (a copy of io/omi) imported as the package `package`."""
    spec = importlib.util.spec_from_file_location(package, directory / "__init__.py",
                                                  submodule_search_locations=[str(directory)])
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[package] = module
    spec.loader.exec_module(module)
    return module


def core(name: str) -> ModuleType:
    """A module of io/omi, e.g. core('reader'), loaded once as omi_core.<name>."""
    if CORE_PACKAGE not in sys.modules:
        load_package(CORE_DIR, CORE_PACKAGE)
    return importlib.import_module(f"{CORE_PACKAGE}.{name}")
