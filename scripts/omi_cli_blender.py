"""The command-line tool's Blender commands, `import` and `export`: Blender's glTF operators with the add-on.

Each runs in a child process by default (the same tool with `--in-process`), so that a crash inside Blender
still ends with a report: the parent prints what Blender printed before it died and says in one sentence
what happened. The front end (omi_physics_cli.py) loads the add-on's pure core as the package `omi_core`
before it imports this module.
"""

from __future__ import annotations

import argparse
import contextlib
import faulthandler
import json
import logging
import os
import re
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

from omi_core.cli.commands import spec_dir_problem
from omi_core.cli.log_report import print_findings, report_log
from omi_core.cli.resources import output_folder
from omi_core.cli.results import EXIT_PROBLEMS, EXIT_USAGE, plural, shown_severities
from omi_core.cli.upgrade_file import GLTF_SUFFIXES
from omi_core.cli.validate_file import fatal_structure, read_file, validate_one
from omi_core.dialects import builtin, registry  # noqa: F401 - builtin: the built-in units registered

SCRIPT = Path(__file__).resolve().parent / "omi_physics_cli.py"
CRASH_TAIL_LINES = 60  # of Blender's output, printed when it dies


def add_commands(commands: Any) -> None:
    """Add `import` and `export` to the front end's subparsers."""
    importer = commands.add_parser("import", help="import a glTF/GLB file into a new .blend (needs bpy)")
    importer.add_argument("file", metavar="FILE")
    importer.add_argument("--out", "-o", required=True, help="the .blend file to save")
    importer.add_argument("--no-rigid-bodies", action="store_true", help="do not create Blender rigid bodies")
    _blender_options(importer, verb="import")
    importer.set_defaults(run=cmd_import)

    exporter = commands.add_parser("export", help="export a .blend file to glTF/GLB (needs bpy)")
    exporter.add_argument("file", metavar="SCENE.blend")
    exporter.add_argument("--out", "-o", required=True, help="the .glb or .gltf file to write")
    exporter.add_argument("--format", choices=("glb", "gltf"), help="default: from the --out name")
    exporter.add_argument("--no-untagged-rigid-bodies", "--no-rigid-bodies", action="store_true",
                          help="leave out objects that have only a Blender rigid body (no OMI settings)")
    exporter.add_argument("--spec-dir", help="the OMI spec folder, to check the written file's schema")
    targets = [target.name.lower() for target in registry.targets()]
    exporter.add_argument("--target", "--dialect", dest="target", type=str.lower, default=targets[0], choices=targets,
                          help="what the physics is written for: "
                               + ", ".join(f"{target.name.lower()} ({target.label})" for target in registry.targets())
                               + "; --dialect is the old name")
    _blender_options(exporter, verb="export")
    exporter.set_defaults(run=cmd_export)


GLTF_OPTION_EXAMPLES = {"import": "merge_vertices=true", "export": "export_apply=true"}  # options of each operator
OWN_OPTIONS = {"import": ("filepath",), "export": ("filepath", "export_format")}  # set by the tool itself


def _blender_options(command: argparse.ArgumentParser, *, verb: str) -> None:
    command.add_argument("--no-physics", action="store_true", help=f"do not {verb} OMI physics")
    command.add_argument("--gltf-option", action="append", default=[], metavar="KEY=VALUE",
                         help=f"pass an option to Blender's glTF {verb}er (VALUE as JSON, e.g. "
                              f"{GLTF_OPTION_EXAMPLES[verb]})")
    command.add_argument("--verbose", "-v", action="store_true", help="also print notes and the glTF log")
    command.add_argument("--quiet", "-q", action="store_true", help="print errors only")
    command.add_argument("--in-process", action="store_true",
                         help="run Blender in this process (no crash report if Blender dies)")
    command.add_argument("--blender-log", help=argparse.SUPPRESS)  # where the child holds Blender's output


def _gltf_options(pairs: list[str], verb: str) -> dict[str, Any]:
    """--gltf-option KEY=VALUE pairs for the glTF operator; VALUE is JSON (true, 2, "x") or else a string.
    The options the tool sets itself are refused with the flag that sets them."""
    options: dict[str, Any] = {}
    for pair in pairs:
        key, separator, value = pair.partition("=")
        if not separator or not key:
            raise ValueError(f"--gltf-option {pair!r} is not KEY=VALUE")
        if key in OWN_OPTIONS[verb]:
            raise ValueError(f"--gltf-option {key} is set by the tool: use "
                             f"{'--out' if key == 'filepath' else '--format or the --out name'} instead")
        try:
            options[key] = json.loads(value)
        except json.JSONDecodeError:
            options[key] = value
    return options


# --- the crash guard ----------------------------------------------------------------------------------------

def run_guarded(argv: list[str], what: str) -> int:
    """Run the tool again in a child process with `--in-process`; if Blender kills it, print the end of
    what Blender printed and one sentence, and exit with status 1."""
    with tempfile.NamedTemporaryFile(prefix="omi_cli_blender_", suffix=".log", delete=False) as held:
        log_path = held.name
    try:
        child = subprocess.run(_child_command(_child_arguments(argv, log_path)), check=False)
        if child.returncode >= 0:
            return child.returncode
        output = Path(log_path).read_bytes().decode("utf-8", "replace").splitlines()
    finally:
        with contextlib.suppress(OSError):
            os.unlink(log_path)
    if output:
        print(f"Blender's last output (up to {CRASH_TAIL_LINES} lines):", file=sys.stderr)
        print("\n".join(output[-CRASH_TAIL_LINES:]), file=sys.stderr)
    print(f"error: Blender crashed ({_signal_name(-child.returncode)}) while {what}; nothing was written")
    return EXIT_PROBLEMS


def _child_arguments(argv: list[str], log_path: str) -> list[str]:
    """The user's command line with the child's own flags right after the command name: never after a `--`
    (which makes everything after it a file name), so they never show up in a usage message."""
    position = next((index for index, word in enumerate(argv) if word in ("import", "export")), -1) + 1
    return [*argv[:position], "--in-process", "--blender-log", log_path, *argv[position:]]


def _child_command(argv: list[str]) -> list[str]:
    """This Python again; inside a Blender executable (whose sys.executable has no bpy), Blender itself."""
    bpy = sys.modules.get("bpy")
    if bpy is not None and bpy.app.binary_path:
        sys.path.insert(0, str(SCRIPT.parent))  # addon_loader sits next to this script
        import addon_loader  # noqa: PLC0415

        return addon_loader.script_command(SCRIPT, *argv)
    return [sys.executable, str(SCRIPT), *argv]


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


# --- Blender in this process ---------------------------------------------------------------------------------

def _blender() -> tuple[ModuleType, ModuleType] | None:
    try:
        import bpy  # noqa: PLC0415 - only import/export need Blender
    except ImportError:
        print("error: the import and export commands need Blender's Python module (pip install bpy; see "
              "requirements.txt)", file=sys.stderr)
        return None
    sys.path.insert(0, str(SCRIPT.parent))  # addon_loader sits next to this script
    import addon_loader  # noqa: PLC0415

    return bpy, addon_loader


@contextlib.contextmanager
def _held_output(args: argparse.Namespace) -> Iterator[list[tuple[int, str]]]:
    """The glTF add-on's log records while Blender works. Everything Blender prints meanwhile (the glTF
    log's timestamped console lines, "Read blend" and the like, written by C code too) is held back at the
    file-descriptor level (in --blender-log when given, so a parent sees it if Blender dies) and shown on
    stderr only with --verbose."""
    records: list[tuple[int, str]] = []
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
                  **options: Any) -> tuple[list[tuple[int, str]], int | None, str]:
    """(glTF log records, None, "") or (records, exit status, why) when Blender refused or failed."""
    with _held_output(args) as records:
        try:
            operator(**options)
        except TypeError as error:  # an unknown --gltf-option
            return records, EXIT_USAGE, f"error: {str(error).strip()}"
        except RuntimeError as error:
            return records, EXIT_PROBLEMS, one_sentence(str(error))
    return records, None, ""


def one_sentence(message: str) -> str:
    """Why Blender's operator failed, from what it raised: the operator's RuntimeError carries the Python
    traceback of the importer that failed and a `Location:` line; only the exception line says why."""
    lines = [line.strip() for line in message.strip().splitlines()
             if line.strip() and not line.strip().startswith("Location:")]
    if not lines:
        return "no reason given"
    last = lines[-1].removeprefix("Error: ").removeprefix("Python: ")
    kind, separator, text = last.partition(": ")
    if separator and re.fullmatch(r"[\w.]*(Error|Exception)", kind):
        return text if kind in ("Exception", "ImportError", "RuntimeError") else \
            f"its glTF importer raised {kind} ({text})"
    return last


def _refused(status: int, why: str, source: Path, verb: str) -> int:
    """Say why Blender's operator did not run (a usage error) or failed (a problem with the input)."""
    if status == EXIT_USAGE:
        print(why, file=sys.stderr)
    else:
        print(f"{source}: error: Blender could not {verb} it: {why}")
    return status


def _start(args: argparse.Namespace, argv: list[str],
           what: str) -> tuple[dict[str, Any], ModuleType, ModuleType] | int:
    """(glTF operator options, bpy, addon_loader) to run Blender here; or the exit status of the guarded
    child that ran it, or of a usage error (checked here, before Blender starts: the options, and the
    output's folder, made when missing)."""
    try:
        options = _gltf_options(args.gltf_option, args.command)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE
    problem = output_folder(args.out)
    if problem is not None:
        print(f"error: {problem}", file=sys.stderr)
        return EXIT_USAGE
    if not args.in_process:
        return run_guarded(argv, what)
    blender = _blender()
    if blender is None:
        return EXIT_USAGE
    return options, *blender


def _has_physics(obj: Any) -> bool:
    settings = getattr(obj, "omi_physics", None)
    return settings is not None and any((settings.use_motion, settings.use_collider, settings.use_trigger,
                                         settings.use_joint))


def cmd_import(args: argparse.Namespace, argv: list[str]) -> int:
    source, out = Path(args.file), Path(args.out)
    if out.suffix.lower() != ".blend":
        print(f"error: --out must name a .blend file, not {out.name!r}", file=sys.stderr)
        return EXIT_USAGE
    parsed, problem = read_file(str(source))
    if parsed is None:
        print(f"{source}: error: {problem}", file=sys.stderr)
        return EXIT_USAGE
    fatal = fatal_structure(parsed, str(source))
    if fatal is not None:  # said before Blender starts, in one sentence
        print(f"{source}: error: Blender's glTF importer cannot open it: {fatal}")
        return EXIT_PROBLEMS
    started = _start(args, argv, f"importing {source}")
    if isinstance(started, int):
        return started
    options, bpy, loader = started
    bpy.ops.wm.read_homefile(use_empty=True)
    loader.enable()
    settings = bpy.context.scene.omi_physics
    settings.import_physics = not args.no_physics
    settings.import_rigid_bodies = not args.no_rigid_bodies
    records, status, why = _run_operator(args, bpy.ops.import_scene.gltf, filepath=str(source.resolve()), **options)
    if status is not None:
        return _refused(status, why, source, "import")
    shown = shown_severities(args.quiet, args.verbose)
    checked = {"issues": [], "errors": 0, "warnings": 0} if args.no_physics else validate_one((str(source), None))
    print_findings(str(source), checked, shown)  # the verdict of `validate`, from the same checks
    errors, warnings = report_log(str(source), records, shown, checked["issues"])
    errors, warnings = errors + checked["errors"], warnings + checked["warnings"]
    with _held_output(args):
        try:
            bpy.ops.wm.save_as_mainfile(filepath=str(out.resolve()), check_existing=False)
        except RuntimeError as error:
            failure: str | None = one_sentence(str(error))
        else:
            failure = None
    if failure is not None:
        print(f"error: cannot write {out}: {failure}", file=sys.stderr)
        return EXIT_USAGE
    objects = list(bpy.context.scene.objects)
    tagged = sum(1 for obj in objects if _has_physics(obj))
    print(f"{source} -> {out}: {plural(len(objects), 'object')}, {tagged} with OMI physics, "
          f"{plural(errors, 'error')}, {plural(warnings, 'warning')}")
    return EXIT_PROBLEMS if errors else 0


def cmd_export(args: argparse.Namespace, argv: list[str]) -> int:
    source, out = Path(args.file), Path(args.out)
    file_format = args.format or ("glb" if out.suffix.lower() == ".glb" else "gltf")
    if out.suffix.lower() not in GLTF_SUFFIXES or (out.suffix.lower() == ".glb") != (file_format == "glb"):
        print(f"error: --out {out.name!r} does not fit the format {file_format} (name it .{file_format})",
              file=sys.stderr)
        return EXIT_USAGE
    if not source.is_file():
        print(f"{source}: error: cannot read: no such file", file=sys.stderr)
        return EXIT_USAGE
    problem = spec_dir_problem(args.spec_dir)
    if problem is not None:
        print(problem, file=sys.stderr)
        return EXIT_USAGE
    started = _start(args, argv, f"exporting {source}")
    if isinstance(started, int):
        return started
    options, bpy, loader = started
    loader.enable()  # before loading: the add-on's load handlers run for the file
    with _held_output(args):
        try:
            bpy.ops.wm.open_mainfile(filepath=str(source.resolve()))
        except RuntimeError as error:
            failure: str | None = one_sentence(str(error))
        else:
            failure = None
    if failure is not None:
        print(f"{source}: error: cannot read: {failure}", file=sys.stderr)
        return EXIT_USAGE
    settings = bpy.context.scene.omi_physics
    settings.export_physics = not args.no_physics
    settings.export_rigid_bodies = not args.no_untagged_rigid_bodies
    settings.export_dialect = registry.target(args.target).name
    export_format = 'GLB' if file_format == "glb" else 'GLTF_SEPARATE'
    records, status, why = _run_operator(args, bpy.ops.export_scene.gltf, filepath=str(out.resolve()),
                                         export_format=export_format, **options)
    if status is not None:
        return _refused(status, why, source, "export")
    shown = shown_severities(args.quiet, args.verbose)
    errors, warnings = report_log(str(source), records, shown)
    written = validate_one((str(out), args.spec_dir))  # what was written must be valid OMI
    print_findings(str(out), written, shown)
    errors += written["errors"] + (written["status"] == "unreadable")
    print(f"{source} -> {out}: {plural(errors, 'error')}, {plural(warnings + written['warnings'], 'warning')}")
    return EXIT_PROBLEMS if errors else 0


def enable_crash_trace(args: argparse.Namespace) -> None:
    """In the guarded child: a crash writes the Python stack to Blender's held output for the parent."""
    if args.blender_log:
        faulthandler.enable()
