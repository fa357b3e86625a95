"""The pure core `io/omi` under the one package name every test imports it by: `omi_core` (`import
omi_core.read.reader`), the name the command-line tool gives it too (scripts/omi_physics_cli.py).

Where bpy can be imported, `omi_core` is the enabled add-on's own core (`bl_ext.<repo>.omi_physics.io.omi`)
under that second name, module for module, so a test and the add-on share one registry and one set of
classes. Without bpy it is `io/omi` loaded by path (never with the checkout on sys.path: its io/ would shadow
Python's io). mypy finds the same package as a link named `omi_core` to io/omi (scripts/test.sh).
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
import sys
from pathlib import Path
from types import ModuleType

CORE_DIR = Path(__file__).resolve().parent.parent / "io" / "omi"
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


def _alias_addon_core() -> None:
    """Every module of the enabled add-on's core also under `omi_core.<name>` (the same module objects)."""
    import addon_loader

    addon_loader.enable()
    package = addon_loader.module("io.omi")
    sys.modules[CORE_PACKAGE] = package
    for found in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
        sys.modules[CORE_PACKAGE + found.name.removeprefix(package.__name__)] = \
            importlib.import_module(found.name)


def install() -> None:
    """Make `import omi_core...` work in this process (idempotent): the add-on's core, or io/omi by path."""
    if CORE_PACKAGE in sys.modules:
        return
    if importlib.util.find_spec("bpy") is not None:
        _alias_addon_core()
    else:
        load_package(CORE_DIR, CORE_PACKAGE)


def core(name: str) -> ModuleType:
    """A module of the core by its dotted name under the package, e.g. core('read.reader')."""
    install()
    return importlib.import_module(f"{CORE_PACKAGE}.{name}")
