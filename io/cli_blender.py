"""The command line inside Blender: `import` and `export` run Blender's glTF operators with the add-on, and
the whole tool is registered as Blender's `blender --command omi_physics ...`.

The front end and every check before Blender starts are pure (io/omi/cli/front.py); this module is what
needs bpy. Blender prints freely while it works (C code too): that output is held back at the
file-descriptor level and shown only with --verbose, or by the crash guard's parent when Blender dies.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import bpy

from ..properties import scene_physics
from .omi.cli.guard import one_sentence
from .omi.cli.log_report import print_findings, report_log
from .omi.cli.resources import staged
from .omi.cli.results import EXIT_PROBLEMS, EXIT_USAGE, Result, plural, shown_severities
from .omi.cli.validate_file import validate_one
from .omi.dialects import builtin, registry  # noqa: F401 - builtin: the built-in units registered

COMMAND = "omi_physics"  # `blender --command omi_physics ...` (Blender wants an identifier: no dash)
ADDON_MODULE = __package__.rpartition(".")[0] if __package__ else ""  # bl_ext.<repository>.<id>, chosen by Blender
Records = list[tuple[int, str]]

_handle: list[Any] = []  # what register_cli_command returned, for unregister


def run(args: argparse.Namespace, enable: Callable[[], object]) -> int:
    """Run a checked `import` or `export` here; `enable` makes sure the add-on is enabled (reading the
    home file or a .blend must find its handlers and properties)."""
    return (_import if args.command == "import" else _export)(args, enable)


@contextlib.contextmanager
def _held_output(args: argparse.Namespace) -> Iterator[Records]:
    """The glTF add-on's log records while Blender works. Everything Blender prints meanwhile (the glTF
    log's timestamped console lines, "Read blend" and the like, written by C code too) is held back at the
    file-descriptor level (in --blender-log when given, so a parent sees it if Blender dies) and shown on
    stderr only with --verbose."""
    records: Records = []
    handler = logging.Handler(level=logging.DEBUG)
    handler.emit = lambda record: records.append((record.levelno, record.getMessage()))  # type: ignore[method-assign]  # the handler collects instead
    loggers = [logging.getLogger(name) for name in ("glTFImporter", "glTFImporter_errors")]
    for logger in loggers:
        logger.addHandler(handler)
    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(1), os.dup(2)]
    with open(args.blender_log, "a+b") if args.blender_log else tempfile.TemporaryFile() as held:
        start = held.tell()
        os.dup2(held.fileno(), 1)
        os.dup2(held.fileno(), 2)
        try:
            yield records
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            for descriptor, copy in zip((1, 2), saved, strict=True):
                os.dup2(copy, descriptor)
                os.close(copy)
            for logger in loggers:
                logger.removeHandler(handler)
            if args.verbose:
                held.seek(start)
                sys.stderr.write(held.read().decode("utf-8", "replace"))


def _run_operator(args: argparse.Namespace, operator: Callable[..., Any],
                  **options: Any) -> tuple[Records, int | None, str]:
    """(glTF log records, None, "") or (records, exit status, why) when Blender refused or failed."""
    with _held_output(args) as records:
        try:
            operator(**options)
        except TypeError as error:  # an unknown --gltf-option
            return records, EXIT_USAGE, f"error: {str(error).strip()}"
        except RuntimeError as error:
            return records, EXIT_PROBLEMS, one_sentence(str(error))
    return records, None, ""


def _file_operation(args: argparse.Namespace, operator: Callable[..., Any], filepath: Path,
                    **options: Any) -> str | None:
    """Open or save a .blend with Blender's output held back; None, or why it failed."""
    with _held_output(args):
        try:
            operator(filepath=str(filepath.resolve()), **options)
        except RuntimeError as error:
            return one_sentence(str(error))
    return None


def _refused(status: int, why: str, source: Path, verb: str) -> int:
    """Say why Blender's operator did not run (a usage error) or failed (a problem with the input)."""
    if status == EXIT_USAGE:
        print(why, file=sys.stderr)
    else:
        print(f"{source}: error: Blender could not {verb} it: {why}")
    return status


def _scene() -> bpy.types.Scene:
    scene = bpy.context.scene
    assert scene is not None, "Blender has a scene after reading a file"
    return scene


def _has_physics(obj: Any) -> bool:
    settings = getattr(obj, "omi_physics", None)
    return settings is not None and any((settings.use_motion, settings.use_collider, settings.use_trigger,
                                         settings.use_joint))


def _import(args: argparse.Namespace, enable: Callable[[], object]) -> int:
    source, out = Path(args.file), Path(args.out)
    bpy.ops.wm.read_homefile(use_empty=True)
    enable()
    settings = scene_physics(_scene())
    settings.import_physics = not args.no_physics
    settings.import_rigid_bodies = not args.no_blender_rigid_bodies
    records, status, why = _run_operator(args, bpy.ops.import_scene.gltf, filepath=str(source.resolve()),
                                         **args.gltf_options)
    if status is not None:
        return _refused(status, why, source, "import")
    shown = shown_severities(args.quiet, args.verbose)
    checked: Result = {"issues": [], "errors": 0, "warnings": 0} if args.no_physics else \
        validate_one((str(source), None))
    print_findings(str(source), checked, shown)  # the verdict of `validate`, from the same checks
    errors, warnings = report_log(str(source), records, shown, checked["issues"])
    errors, warnings = errors + checked["errors"], warnings + checked["warnings"]
    failure = _file_operation(args, bpy.ops.wm.save_as_mainfile, out, check_existing=False)
    if failure is not None:
        print(f"error: cannot write {out}: {failure}", file=sys.stderr)
        return EXIT_USAGE
    objects = list(_scene().objects)
    tagged = sum(1 for obj in objects if _has_physics(obj))
    print(f"{source} -> {out}: {plural(len(objects), 'object')}, {tagged} with OMI physics, "
          f"{plural(errors, 'error')}, {plural(warnings, 'warning')}")
    return EXIT_PROBLEMS if errors else 0


def _export(args: argparse.Namespace, enable: Callable[[], object]) -> int:
    source, out = Path(args.file), Path(args.out)
    enable()  # before loading: the add-on's load handlers run for the file
    failure = _file_operation(args, bpy.ops.wm.open_mainfile, source)
    if failure is not None:
        print(f"{source}: error: cannot read: {failure}", file=sys.stderr)
        return EXIT_USAGE
    settings = scene_physics(_scene())
    settings.export_physics = not args.no_physics
    settings.export_rigid_bodies = not args.no_untagged_rigid_bodies
    settings.export_dialect = registry.target(args.target).name
    export_format = 'GLB' if args.format == "glb" else 'GLTF_SEPARATE'
    with staged(out) as stage:  # a failed or interrupted export leaves nothing half-written
        records, status, why = _run_operator(args, bpy.ops.export_scene.gltf, filepath=str(stage.path.resolve()),
                                             export_format=export_format, **args.gltf_options)
        if status is None:
            stage.commit()
    if status is not None:
        return _refused(status, why, source, "export")
    shown = shown_severities(args.quiet, args.verbose)
    errors, warnings = report_log(str(source), records, shown)
    written = validate_one((str(out), args.spec_dir))  # what was written must be valid OMI
    print_findings(str(out), written, shown)
    errors += written["errors"] + (written["status"] == "unreadable")
    print(f"{source} -> {out}: {plural(errors, 'error')}, {plural(warnings + written['warnings'], 'warning')}")
    return EXIT_PROBLEMS if errors else 0


# --- `blender --command omi_physics ...` -------------------------------------------------------------------

class _AddonHost:
    """Blender's own command line: the add-on is enabled already, and a guarded child is Blender again."""

    def child_command(self) -> list[str] | None:
        if not bpy.app.binary_path:  # the bpy module: no executable to start again
            return None
        return [bpy.app.binary_path, "--command", COMMAND]

    def run(self, args: argparse.Namespace) -> int:
        return run(args, _enable_self)


def _enable_self() -> None:
    preferences = bpy.context.preferences
    if preferences is None or ADDON_MODULE not in preferences.addons:
        bpy.ops.preferences.addon_enable(module=ADDON_MODULE)


def execute(argv: list[str]) -> int:
    """What Blender calls for `blender --command omi_physics ARGS`; usage errors exit 2, as in a shell."""
    from .omi.cli import front  # noqa: PLC0415 - the whole tool loads when a command runs, not with the add-on

    try:
        return front.main(list(argv), _AddonHost(), prog=f"blender --command {COMMAND}")
    except SystemExit as stop:  # argparse: --help, --version, a usage error
        return stop.code if isinstance(stop.code, int) else (0 if stop.code is None else EXIT_USAGE)


def register() -> None:
    _handle.append(bpy.utils.register_cli_command(COMMAND, execute))


def unregister() -> None:
    while _handle:
        bpy.utils.unregister_cli_command(_handle.pop())
