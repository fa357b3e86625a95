"""omi_physics_cli: check, upgrade, import and export OMI physics in glTF files, for pipelines.

    python scripts/omi_physics_cli.py validate FILE_OR_DIR... [--json] [--strict] [--jobs N]
    python scripts/omi_physics_cli.py upgrade FILE... (--out FILE | --out-dir DIR | --in-place) [--force]
    python scripts/omi_physics_cli.py convert FILE... --to {OMI,KHR} (--out FILE | --out-dir DIR | --in-place)
    python scripts/omi_physics_cli.py import FILE --out scene.blend [--no-physics] [--no-rigid-bodies]
    python scripts/omi_physics_cli.py export scene.blend --out file.glb [--target {omi,godot,khr,both}]
                                      [--no-physics] [--no-untagged-rigid-bodies]
    (import/export: --in-process runs Blender in this process, without the crash guard's child process;
    a file whose name starts with "-" goes after "--": validate -- -v.gltf)

Exit status: 0 clean (warnings allowed unless --strict), 1 problems found, 2 usage or I/O error.

This file is only the front end. `validate` and `upgrade` live in the add-on's pure core (io/omi/cli/commands.py),
loaded by path as the package `omi_core` without bpy, so a pool of worker processes stays cheap; the checkout
itself never goes on sys.path (its io/ would shadow Python's io). `import` and `export` (omi_cli_blender.py, next
to this file) run Blender's glTF operators with the add-on enabled, in a child process that a crash cannot take
the report down with. A run that imported bpy ends with os._exit, because the bpy 4.2 module can crash at
interpreter exit after a glTF export and the exit status must be the one chosen here.
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
CORE_PACKAGE = "omi_core"
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


def _blender_commands() -> ModuleType:
    core("cli.results")  # omi_cli_blender imports from omi_core
    if str(Path(__file__).resolve().parent) not in sys.path:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
    return importlib.import_module("omi_cli_blender")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="omi_physics_cli", description=(__doc__ or "").split("\n\n")[0],
                                     epilog="exit status: 0 clean (warnings allowed unless --strict), 1 problems "
                                            "found, 2 usage or I/O error")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    core("cli.commands").add_commands(commands)
    _blender_commands().add_commands(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command; the exit status. Tests call this in-process."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    try:
        args = build_parser().parse_args(arguments)
    except SystemExit as stop:
        dashed = [word for word in arguments if word.startswith("-") and word.lower().endswith((".gltf", ".glb"))]
        if stop.code == 2 and dashed:
            command = next((word for word in arguments if word in COMMANDS), "COMMAND")
            print(f"hint: a file whose name starts with '-' goes after '--', as in: "
                  f"omi_physics_cli {command} [options] -- {dashed[0]}", file=sys.stderr)
        raise
    if args.command in ("import", "export"):
        _blender_commands().enable_crash_trace(args)
        return int(args.run(args, arguments))
    return int(args.run(args))


if __name__ == "__main__":
    status = main()
    if "bpy" in sys.modules:  # bpy 4.2 may crash at interpreter exit: leave with the chosen status
        sys.stdout.flush()
        sys.stderr.flush()
        if "addon_loader" in sys.modules:
            sys.modules["addon_loader"].remove_repository_dirs()  # os._exit skips atexit
        os._exit(status)
    sys.exit(status)
