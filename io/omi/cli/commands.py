"""The command-line tool's pure commands, `validate`, `upgrade` and `convert`: their options, batches, output.

No bpy here; scripts/omi_physics_cli.py is the front end that adds `import` and `export` (which need Blender).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from ..checks import schema
from ..dialects import registry
from . import resources
from .batch import expand_paths, run_pool, useful_jobs
from .convert_file import convert_one
from .results import (
    EXIT_USAGE,
    NOT_CHECKED,
    Result,
    exit_status,
    issue_lines,
    plural,
    shown_severities,
    status_text,
    summary,
)
from .upgrade_file import upgrade_one
from .validate_file import validate_one


def add_commands(commands: Any) -> None:
    """Add `validate`, `upgrade` and `convert` to the front end's subparsers."""
    validate = commands.add_parser(
        "validate", help="check the physics (OMI and KHR) in glTF/GLB files against the specs",
        description="Check every rule of the physics extensions a file uses (OMI, with the fixes of ERRATA.md; "
                    "KHR_physics_rigid_bodies and KHR_implicit_shapes), their JSON schemas and the animation "
                    "channels into physics values. Prints `FILE: SEVERITY POINTER: message` lines and a summary "
                    "line.")
    validate.add_argument("files", nargs="+", metavar="FILE", help=".gltf/.glb files or folders holding them")
    validate.add_argument("--strict", action="store_true", help="warnings fail too (exit status 1)")
    batch_options(validate)
    validate.set_defaults(run=cmd_validate)

    upgrade = commands.add_parser("upgrade", help="rewrite legacy OMI physics in the current revision",
                                  description="Rewrite OMI_collider, body `type` enums, full-height capsules and "
                                              "the other old forms in the current revision; nothing outside the "
                                              "OMI extensions changes (a GLB's binary chunk stays byte for byte).")
    rewrite_options(upgrade, "write even when values had to be dropped")
    upgrade.set_defaults(run=cmd_upgrade)

    converter = commands.add_parser(
        "convert", help="rewrite the physics for another dialect or engine (OMI, KHR, both, Godot)",
        description="Rewrite a file's physics for a target: OMI (any OMI revision is read), KHR "
                    "(KHR_physics_rigid_bodies + KHR_implicit_shapes), both in one file, or Godot's layout; "
                    "nothing else changes. Refuses to write when a value cannot be held by the target (each "
                    "named with its pointer) unless --force.")
    target_option(converter, "--to", required=True, what="what to write")
    rewrite_options(converter, "write even when meaning is lost")
    converter.set_defaults(run=cmd_convert)


def target_option(command: argparse.ArgumentParser, *flags: str, what: str, required: bool = False,
                  old: str = "") -> None:
    """The export target's option (convert --to, export --target): names in lower case, any case accepted."""
    names = [target.name.lower() for target in registry.targets()]
    listed = ", ".join(f"{target.name.lower()} ({target.label})" for target in registry.targets())
    command.add_argument(*flags, dest=flags[0].lstrip("-"), type=str.lower, choices=names, required=required,
                         default=None if required else names[0], help=f"{what}: {listed}; any case{old}")


def rewrite_options(command: argparse.ArgumentParser, force_help: str) -> None:
    """The inputs and outputs of a command that rewrites files (upgrade, convert)."""
    command.add_argument("files", nargs="+", metavar="FILE", help=".gltf/.glb files or folders holding them")
    target = command.add_mutually_exclusive_group(required=True)
    target.add_argument("--out", "-o", help="the output file (one input only)")
    target.add_argument("--out-dir", help="write each output under this folder with its input's name")
    target.add_argument("--in-place", action="store_true", help="overwrite the input files")
    command.add_argument("--force", action="store_true", help=force_help)
    batch_options(command)


def batch_options(command: argparse.ArgumentParser) -> None:
    """The options of every command that takes several files."""
    command.add_argument("--jobs", "-j", type=int, help="worker processes for several files (default: the "
                                                             "CPU count, when the files are big enough to gain)")
    command.add_argument("--json", action="store_true", help="print one JSON document instead of text lines")
    command.add_argument("--spec-dir", help="the OMI spec folder with the OMI schemas (default: $OMI_SPEC_DIR, "
                                            "else the copy the add-on carries, io/omi/schemas; the KHR schemas: "
                                            "$OMI_KHR_SPEC_DIR, else the add-on's copy)")
    command.add_argument("--no-progress", action="store_true", help="no progress lines on stderr")
    command.add_argument("--quiet", "-q", action="store_true", help="print errors only")
    command.add_argument("--verbose", "-v", action="store_true", help="also print notes (info)")


def spec_dir_problem(spec_dir: str | None) -> str | None:
    """A `--spec-dir` the user gave must hold the OMI schemas (a usage error otherwise); None when it does
    or when none was given (the add-on's own copy, io/omi/schemas, is used)."""
    if spec_dir is None or schema.find_spec_dir(spec_dir) is not None:
        return None
    wanted = ", ".join(f"{name}/schema" for name in schema.CURRENT_DIRS)
    return f"error: --spec-dir {spec_dir}: no OMI schemas there (it should hold {wanted})"


def schema_note(spec_dir: str | None, quiet: bool) -> dict[str, Any]:
    """Load the schemas once, before any worker starts (forked workers inherit them); say once if absent."""
    reason = schema.unavailable_reason(spec_dir)
    if reason is None:
        schema.validators(spec_dir)
    elif not quiet:
        print(f"note: schemas not checked, rules only: {reason}", file=sys.stderr)
    found = schema.find_spec_dir(spec_dir)
    return {"checked": reason is None, "reason": reason, "specDir": str(found) if found else None}


def say_skipped(skipped: list[tuple[str, str]]) -> None:
    """Name each folder entry with a glTF name that is not a file to read."""
    for path, kind in skipped:
        print(f"{path}: skipped: {kind}", file=sys.stderr)


def _progress(args: argparse.Namespace, position: int, total: int, result: Result) -> None:
    if total > 1 and not args.no_progress:
        print(f"[{position}/{total}] {result['file']}: {status_text(result)}", file=sys.stderr, flush=True)


def cmd_validate(args: argparse.Namespace) -> int:
    problem = spec_dir_problem(args.spec_dir)
    if problem is not None:
        print(problem, file=sys.stderr)
        return EXIT_USAGE
    skipped: list[tuple[str, str]] = []
    files = [file for file, _name in expand_paths(args.files, skipped)]
    say_skipped(skipped)
    if not files:
        print("error: no .gltf or .glb files to validate", file=sys.stderr)
        return EXIT_USAGE
    schemas = schema_note(args.spec_dir, args.quiet)
    shown = shown_severities(args.quiet, args.verbose)
    results = []
    tasks = [(file, args.spec_dir) for file in files]
    for position, result in enumerate(run_pool(validate_one, tasks, useful_jobs(files, args.jobs)), 1):
        results.append(result)
        if not args.json:
            for line in issue_lines(result["file"], result, shown):
                print(line, flush=True)
        _progress(args, position, len(files), result)
    line, totals = summary(results)
    if args.json:
        print(json.dumps({"tool": "omi_physics_cli validate", "schemas": schemas, "files": results,
                          "summary": totals}, indent=1))
        print(line, file=sys.stderr)
    else:
        print(line)
    return exit_status(results, args.strict)


def _upgrade_targets(args: argparse.Namespace, named: list[tuple[str, Path]]) -> list[str] | None:
    """Where each input goes, or None after saying why the options do not fit."""
    if args.out is not None:
        if len(named) != 1:
            print("error: --out takes one input file; use --out-dir or --in-place for several", file=sys.stderr)
            return None
        targets = [args.out]
    elif args.out_dir is None:
        return [file for file, _name in named]
    else:
        targets = [str(Path(args.out_dir) / name) for _file, name in named]
    if len(set(targets)) != len(targets):
        print("error: two input files have the same name; --out-dir would write one over the other",
              file=sys.stderr)
        return None
    for target in dict.fromkeys(targets):  # a missing output folder is made, as for every command
        problem = resources.output_folder(target)
        if problem is not None:
            print(f"error: {problem}", file=sys.stderr)
            return None
    return targets


def _outside_folder(named: list[tuple[str, Path]], out_dir: Path) -> list[tuple[str, Path]]:
    """The inputs that are not under the output folder: one inside the input folder holds the outputs of an
    earlier run, which a second run would convert again into out/out/. Said in one line."""
    folder = out_dir.resolve()
    kept = [(file, name) for file, name in named if not Path(file).parent.resolve().is_relative_to(folder)]
    if len(kept) != len(named):
        print(f"{out_dir}: skipped {plural(len(named) - len(kept), 'file')} inside the output folder (outputs of an "
              "earlier run)", file=sys.stderr)
    return kept


def cmd_upgrade(args: argparse.Namespace) -> int:
    return _rewrite(args, "upgrade")


def cmd_convert(args: argparse.Namespace) -> int:
    return _rewrite(args, "convert")


def _done_text(command: str, args: argparse.Namespace, result: Result) -> str:
    """What happened to one file, after its arrow."""
    if result["status"] == "unchanged":
        return "nothing to upgrade, left unchanged"
    if result["status"] == "copied":
        return "nothing to upgrade, copied unchanged"
    if result["status"] != "written" and resources.refused(result):
        return "NOT written (it names files outside its folder: refused, even with --force)"
    if result["status"] != "written":
        return "NOT written (errors above; --force writes anyway)"
    if command == "convert":
        return f"converted from {result['converted'][0]} to {registry.target(args.to).label}"
    if result["converted"]:
        return f"upgraded from {', '.join(result['converted'])}"
    return "upgraded (forms ERRATA tolerates)"


def _rewrite(args: argparse.Namespace, command: str) -> int:
    """upgrade or convert: each file rewritten to its target, what happened said per file and in a summary."""
    problem = spec_dir_problem(args.spec_dir)
    if problem is not None:
        print(problem, file=sys.stderr)
        return EXIT_USAGE
    skipped: list[tuple[str, str]] = []
    named = expand_paths(args.files, skipped)
    say_skipped(skipped)
    if args.out_dir is not None:
        named = _outside_folder(named, Path(args.out_dir))
    files = [file for file, _name in named]
    if not files:
        print(f"error: no .gltf or .glb files to {command}", file=sys.stderr)
        return EXIT_USAGE
    targets = _upgrade_targets(args, named)
    if targets is None:
        return EXIT_USAGE
    schema_note(args.spec_dir, args.quiet)
    shown = shown_severities(args.quiet, args.verbose)
    pairs = zip(files, targets, strict=True)
    chosen = [] if command == "upgrade" else [registry.target(args.to).name]
    tasks: list[Any] = [(source, target, *chosen, args.force, args.spec_dir) for source, target in pairs]
    results = []
    work = upgrade_one if command == "upgrade" else convert_one
    for position, result in enumerate(run_pool(work, tasks, useful_jobs(files, args.jobs)), 1):
        results.append(result)
        lines = issue_lines(result["file"], result, shown)
        if result["status"] not in NOT_CHECKED and not args.quiet:
            done = _done_text(command, args, result)
            lines.append(f"{result['file']} -> {result['out']}: {done}")
        if lines and not args.json:
            print("\n".join(lines), flush=True)
        _progress(args, position, len(files), result)
    written = sum(1 for r in results if r["status"] in ("written", "copied"))
    line, totals = summary(results, f"{written} written")
    if args.json:
        print(json.dumps({"tool": f"omi_physics_cli {command}", "files": results, "summary": {**totals,
                                                                                            "written": written}},
                         indent=1))
        print(line, file=sys.stderr)
    else:
        print(line)
    return exit_status(results, strict=False)
