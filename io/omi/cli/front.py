"""The command line's front end: one parser for every command, and where each command runs.

`validate`, `upgrade` and `convert` run here, without Blender. `import` and `export` are checked here, then
run by a host that has Blender: Blender's own command line (`blender --command omi_physics ...`, registered
by the add-on) or scripts/omi_physics_cli.py in a Python with the bpy module. By default Blender runs in a
child process (the crash guard); `--in-process` runs it in this one.
"""

from __future__ import annotations

import argparse
import faulthandler
import sys
import tomllib
from pathlib import Path
from typing import Protocol

from . import commands, guard, scene_commands
from .results import EXIT_INTERRUPTED

COMMANDS = ("validate", "upgrade", "convert", "import", "export")
MANIFEST = Path(__file__).resolve().parents[3] / "blender_manifest.toml"
EXIT_TEXT = "exit status: 0 clean (warnings allowed unless --strict), 1 problems found, 2 usage or I/O error"


class BlenderHost(Protocol):
    """What runs `import` and `export`."""

    def child_command(self) -> list[str] | None:
        """The command that runs this tool in a child process, its arguments to follow; None to run Blender
        in this process."""

    def run(self, args: argparse.Namespace) -> int:
        """Run the checked `import` or `export` with Blender in this process; the exit status."""


def version() -> str:
    """The add-on's version, from its manifest (the one place it is written)."""
    try:
        return str(tomllib.loads(MANIFEST.read_text(encoding="utf-8"))["version"])
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return "unknown"


def build_parser(prog: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog, epilog=EXIT_TEXT,
        description="Check, upgrade, convert, import and export glTF physics (OMI and KHR) for pipelines.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    commands.add_commands(subparsers)
    scene_commands.add_commands(subparsers)
    return parser


def main(argv: list[str], host: BlenderHost, prog: str) -> int:
    """Run one command line; the exit status."""
    try:
        args = build_parser(prog).parse_args(argv)
    except SystemExit as stop:
        dashed = [word for word in argv if word.startswith("-") and word.lower().endswith((".gltf", ".glb"))]
        if stop.code == 2 and dashed:
            command = next((word for word in argv if word in COMMANDS), "COMMAND")
            print(f"hint: a file whose name starts with '-' goes after '--', as in: "
                  f"{prog} {command} [options] -- {dashed[0]}", file=sys.stderr)
        raise
    try:
        return _run(args, argv, host)
    except KeyboardInterrupt:
        if args.command in scene_commands.SCENE_COMMANDS:
            guard.remove_unfinished(args.out)
        print(f"{prog} {args.command}: interrupted (Ctrl-C); no output was left half-written", file=sys.stderr)
        return EXIT_INTERRUPTED


def _run(args: argparse.Namespace, argv: list[str], host: BlenderHost) -> int:
    if args.command not in scene_commands.SCENE_COMMANDS:
        return int(args.run(args))
    status = scene_commands.preflight(args)
    if status is not None:
        return status
    if not args.in_process:
        child = host.child_command()
        if child is not None:
            return guard.run_guarded([*child, *argv], len(child), f"{args.command}ing {args.file}")
    if args.blender_log:  # the guarded child: a crash writes the Python stack to the output the parent reads
        faulthandler.enable()
    return host.run(args)
