"""Shared fixtures: the real bpy module with the add-on installed and enabled as Blender would.

Runs the same way under plain pytest with the bpy wheel and inside a full Blender (pytest-blender).
Where bpy can be imported the add-on is enabled while this file loads, so that the core's one package name
in the tests, `omi_core`, is the add-on's own core (tests/omi_core_loader.py); pytest-blender's outer pytest,
which has no bpy, loads this file too before it starts Blender, and gets io/omi by path.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from types import ModuleType

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT / "scripts"))  # never the repo root itself: io/ would shadow io
sys.path[1:1] = [str(REPO_ROOT / "scripts" / tools) for tools in ("demo", "ci")]  # the demo's and CI's tools
sys.path.insert(0, str(REPO_ROOT / "tests"))  # addon_loader (first: inside pytest-blender too)


# The support modules of the Blender tests and the pure core's tests (import_support, property_inputs, ...):
# the tests sit in folders that mirror the code (tests/unit/project/test_test_names.py) and import them by name.
sys.path[1:1] = [str(REPO_ROOT / "tests" / "blender"), str(REPO_ROOT / "tests" / "unit")]

import omi_core_loader  # noqa: E402

omi_core_loader.install()  # `import omi_core...` in every test: the add-on's own core where bpy is (enabled here)
SPEC_DIR = REPO_ROOT / "tests" / "data" / "omi-spec"  # the spec examples, copied (tests/data/README.md)


class _CheckoutIsNoTestPackage:
    """Collect the checkout's root as a plain folder, not as a Python package.

    The root holds the add-on's `__init__.py`, so pytest (8 and later) makes it a Package and imports that
    file: as a package named after the folder, or, when the folder's name is no Python identifier (a clone
    into `omi-blender-physics`), as a lone module whose relative imports fail for every test. The tests load
    the add-on through Blender instead (addon_loader). Registered as a plugin so it applies above tests/.
    """

    @pytest.hookimpl(tryfirst=True)
    def pytest_collect_directory(self, path: Path, parent: pytest.Collector) -> pytest.Collector | None:
        if path == REPO_ROOT:
            return pytest.Dir.from_parent(parent, path=path)
        return None


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(_CheckoutIsNoTestPackage(), "omi-checkout-is-no-test-package")


# Folders whose every test runs another program (Rapier under Node.js, Godot): `slow` (pyproject's markers);
# single slow tests and modules elsewhere carry the mark themselves.
SLOW_FOLDERS = ("engine", "godot")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.parent.name in SLOW_FOLDERS and item.path.parent.parent.name == "tests":
            item.add_marker(pytest.mark.slow)


def pytest_terminal_summary(terminalreporter) -> None:
    """Say which copy of the add-on the tests ran on (the checkout, or an installed zip)."""
    if "addon_loader" in sys.modules:
        terminalreporter.write_line(f"OMI add-on tested: {sys.modules['addon_loader'].location()}")


@pytest.fixture(scope="session")
def omi_addon() -> ModuleType:
    """The enabled add-on package (bl_ext.<repo>.omi_physics)."""
    import addon_loader

    return addon_loader.enable()


@pytest.fixture(scope="session")
def omi(omi_addon: ModuleType):
    """Accessor for the add-on's modules: omi('io.omi.model')."""
    import addon_loader

    return addon_loader.module


@pytest.fixture(scope="session")
def model() -> ModuleType:
    return omi_core_loader.core("model")


@pytest.fixture(scope="session")
def reader() -> ModuleType:
    return omi_core_loader.core("read.reader")


@pytest.fixture(scope="session")
def writer() -> ModuleType:
    return omi_core_loader.core("write.writer")


@pytest.fixture(scope="session")
def canonical() -> ModuleType:
    return omi_core_loader.core("checks.canonical")


@pytest.fixture(scope="session")
def markers(omi):
    return omi("io.blender.tables.markers")


@pytest.fixture(scope="session")
def rigid_body(omi):
    return omi("io.blender.builder.rigid_body")


@pytest.fixture(scope="session")
def rigid_body_plan(omi):
    return omi("io.blender.builder.plan")


@pytest.fixture(scope="session")
def spec_dir() -> Path:
    return SPEC_DIR


@pytest.fixture
def clean_scene():
    """An empty scene (factory settings kept, add-on stays enabled)."""
    import bpy

    bpy.ops.wm.read_homefile(use_empty=True)
    return bpy.context.scene


# --- Blender 4.2 LTS exit crash -------------------------------------------------------------------
# The bpy 4.2 module segfaults while the interpreter shuts down once an add-on has been enabled and a
# glTF export has run (reproduced with Blender's own io_anim_bvh enabled and no add-on of ours).
# Every test has finished and been reported by then, so on 4.2 the session ends with os._exit and
# pytest's own exit status instead of letting that crash turn a green run red.
_exit_status: list[int] = []


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    _exit_status.append(int(exitstatus))


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    bpy = sys.modules.get("bpy")  # absent in pytest-blender's outer pytest
    if bpy is not None and bpy.app.version < (4, 3, 0) and _exit_status:
        if "addon_loader" in sys.modules:
            sys.modules["addon_loader"].remove_repository_dirs()  # os._exit skips atexit
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(_exit_status[-1])
