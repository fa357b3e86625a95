"""omi_physics_cli: check, upgrade, convert, import and export glTF physics (OMI and KHR), for pipelines.

    python scripts/omi_physics_cli.py validate FILE_OR_DIR... [--json] [--strict] [--jobs N]
    python scripts/omi_physics_cli.py upgrade FILE... (--out FILE | --out-dir DIR | --in-place) [--force]
    python scripts/omi_physics_cli.py convert FILE... --to {omi,khr,both,godot}
                                      (--out FILE | --out-dir DIR | --in-place)
    python scripts/omi_physics_cli.py import FILE --out scene.blend [--no-physics] [--no-blender-rigid-bodies]
    python scripts/omi_physics_cli.py export scene.blend --out file.glb [--target {omi,khr,both,godot}]
                                      [--no-physics] [--no-untagged-rigid-bodies]
    (import/export: --in-process runs Blender in this process, without the crash guard's child process;
    a file whose name starts with "-" goes after "--": validate -- -v.gltf)

Exit status: 0 clean (warnings allowed unless --strict), 1 problems found, 2 usage or I/O error.

The tool lives in the add-on (io/omi/cli, and io/cli_blender.py for what needs Blender), which also
registers it as `blender --command omi_physics ...`. This file runs it in a plain Python: the pure core is
loaded by path as the package `omi_core` without bpy, so a pool of worker processes stays cheap (the checkout
itself never goes on sys.path: its io/ would shadow Python's io). `import` and `export` run in a child process
that a crash cannot take the report down with; that child imports bpy and enables the add-on (tests/addon_loader.py).
A run that imported bpy ends with os._exit, because the bpy 4.2 module can crash at interpreter exit after a
glTF export and the exit status must be the one chosen here.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

CHECKOUT = Path(__file__).resolve().parent.parent
SCRIPT = Path(__file__).resolve()
CORE_PACKAGE = "omi_core"
PROG = "omi_physics_cli"
COMMANDS = ("validate", "upgrade", "convert", "import", "export")


def core(name: str) -> ModuleType:
    """A module of the add-on's pure core, e.g. core('reader'), imported without Blender."""
    if CORE_PACKAGE not in sys.modules:
        init = CHECKOUT / "io" / "omi" / "__init__.py"
        spec = importlib.util.spec_from_file_location(CORE_PACKAGE, init, submodule_search_locations=[str(init.parent)])
        if spec is None or spec.loader is None:
            raise ImportError(f"cannot load the OMI core from {init.parent}")
        package = importlib.util.module_from_spec(spec)
        sys.modules[CORE_PACKAGE] = package
        spec.loader.exec_module(package)
    return importlib.import_module(f"{CORE_PACKAGE}.{name}")


def _addon_loader() -> ModuleType:
    tests = str(CHECKOUT / "tests")
    if tests not in sys.path:
        sys.path.insert(0, tests)
    return importlib.import_module("addon_loader")


class WheelHost:
    """`import` and `export` in a Python with the bpy module: the add-on installed from this checkout (or an
    installed copy) by addon_loader; a guarded child is this script again."""

    def child_command(self) -> list[str] | None:
        bpy = sys.modules.get("bpy")
        if bpy is not None and bpy.app.binary_path:  # inside a Blender executable: Blender runs the script
            return list(_addon_loader().script_command(SCRIPT))
        return [sys.executable, str(SCRIPT)]

    def run(self, args: argparse.Namespace) -> int:
        try:
            import bpy  # noqa: F401, PLC0415 - only import/export need Blender
        except ImportError:
            print("error: the import and export commands need Blender's Python module (pip install bpy; see "
                  "requirements.txt)", file=sys.stderr)
            return 2
        loader = _addon_loader()
        loader.enable()
        return int(loader.module("io.cli_blender").run(args, loader.enable))


def build_parser() -> argparse.ArgumentParser:
    return core("cli.front").build_parser(PROG)


def main(argv: list[str] | None = None) -> int:
    """Run one command; the exit status. Tests call this in-process."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    return int(core("cli.front").main(arguments, WheelHost(), PROG))


if __name__ == "__main__":
    try:
        status = main()
    except KeyboardInterrupt:  # before the front end runs (while Python loads it): nothing was written yet
        print(f"{PROG}: interrupted (Ctrl-C); no output was left half-written", file=sys.stderr)
        status = 130
    if "bpy" in sys.modules:  # bpy 4.2 may crash at interpreter exit: leave with the chosen status
        sys.stdout.flush()
        sys.stderr.flush()
        if "addon_loader" in sys.modules:
            sys.modules["addon_loader"].remove_repository_dirs()  # os._exit skips atexit
        os._exit(status)
    sys.exit(status)
