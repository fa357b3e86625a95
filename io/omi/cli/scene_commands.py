"""The options of `import` and `export` and the checks made before Blender starts.

Everything here is pure: the command line is read and its usage errors said without loading Blender, so a
wrong option costs no Blender start-up and the crash guard's parent process never imports bpy. Blender's
side (io/cli_blender.py) runs the glTF operators with what these checks leave in the arguments.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from . import commands as commands_module
from .commands import spec_dir_problem
from .resources import output_folder, outside_uris
from .results import EXIT_PROBLEMS, EXIT_USAGE
from .upgrade_file import GLTF_SUFFIXES
from .validate_file import fatal_structure, read_file

SCENE_COMMANDS = ("import", "export")
GLTF_OPTION_EXAMPLES = {"import": "merge_vertices=true", "export": "export_apply=true"}  # options of each operator
OWN_OPTIONS = {"import": ("filepath",), "export": ("filepath", "export_format")}  # set by the tool itself


def add_commands(commands: Any) -> None:
    """Add `import` and `export` to the front end's subparsers."""
    importer = commands.add_parser(
        "import", help="import a glTF/GLB file into a new .blend (needs Blender)",
        description="Import a glTF/GLB file with Blender's glTF importer and this add-on into an empty scene, "
                    "build Blender rigid bodies and constraints from its physics (OMI or KHR), and save the "
                    "scene as a .blend. Prints what `validate` finds in the file, what the import reports, and "
                    "a summary line.")
    importer.add_argument("file", metavar="FILE", help="the .gltf or .glb file to import")
    importer.add_argument("--out", "-o", required=True, help="the .blend file to save")
    importer.add_argument("--no-blender-rigid-bodies", action="store_true",
                          help="keep the physics as the add-on's settings only: build no Blender rigid bodies "
                               "or constraints")
    importer.add_argument("--no-rigid-bodies", dest="no_blender_rigid_bodies", action="store_true",
                          help=argparse.SUPPRESS)  # the old name
    _blender_options(importer, verb="import", physics="import no physics (OMI or KHR): a plain glTF import")

    exporter = commands.add_parser(
        "export", help="export a .blend file to glTF/GLB with physics for a target (needs Blender)",
        description="Open a .blend and export it with Blender's glTF exporter and this add-on, the physics "
                    "written for --target; the written file is then checked as `validate` checks it. Prints "
                    "what the export reports, what `validate` finds in the written file, and a summary line.")
    exporter.add_argument("file", metavar="SCENE.blend", help="the .blend file to export")
    exporter.add_argument("--out", "-o", required=True, help="the .glb or .gltf file to write")
    exporter.add_argument("--format", choices=("glb", "gltf"), help="default: from the --out name")
    exporter.add_argument("--no-untagged-rigid-bodies", action="store_true",
                          help="leave out objects that have only a Blender rigid body (none of the add-on's "
                               "physics settings)")
    exporter.add_argument("--no-rigid-bodies", dest="no_untagged_rigid_bodies", action="store_true",
                          help=argparse.SUPPRESS)  # the old name
    exporter.add_argument("--spec-dir", help="the OMI spec folder, to check the written file's schema")
    commands_module.target_option(exporter, "--target", "--dialect", what="what the physics is written for",
                                  old="; --dialect is the old name")
    _blender_options(exporter, verb="export", physics="write no physics, whatever --target says: a plain glTF "
                                                      "export")


def _blender_options(command: argparse.ArgumentParser, *, verb: str, physics: str) -> None:
    command.add_argument("--no-physics", action="store_true", help=physics)
    command.add_argument("--gltf-option", action="append", default=[], metavar="KEY=VALUE",
                         help=f"pass an option to Blender's glTF {verb}er (VALUE as JSON, e.g. "
                              f"{GLTF_OPTION_EXAMPLES[verb]})")
    command.add_argument("--verbose", "-v", action="store_true", help="also print notes and the glTF log")
    command.add_argument("--quiet", "-q", action="store_true", help="print errors only")
    command.add_argument("--in-process", action="store_true",
                         help="run Blender in this process (no crash report if Blender dies)")
    command.add_argument("--blender-log", help=argparse.SUPPRESS)  # where the child holds Blender's output


def gltf_options(pairs: list[str], verb: str) -> dict[str, Any]:
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


def preflight(args: argparse.Namespace) -> int | None:
    """Say a usage error or a file Blender cannot open before Blender starts; its exit status, or None when
    Blender may run. Leaves the glTF operator's options in `args.gltf_options` and the export's format in
    `args.format`."""
    check = _import_problem if args.command == "import" else _export_problem
    status = check(args)
    if status is not None:
        return status
    try:
        args.gltf_options = gltf_options(args.gltf_option, args.command)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE
    problem = output_folder(args.out)
    if problem is not None:
        print(f"error: {problem}", file=sys.stderr)
        return EXIT_USAGE
    return None


def _import_problem(args: argparse.Namespace) -> int | None:
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
    refused = outside_uris(parsed.document, source)  # Blender's importer would read them: refused before it runs
    if refused:
        print("\n".join(f"{source}: error {item['pointer']}: {item['message']}" for item in refused))
        return EXIT_PROBLEMS
    return None


def _export_problem(args: argparse.Namespace) -> int | None:
    source, out = Path(args.file), Path(args.out)
    args.format = args.format or ("glb" if out.suffix.lower() == ".glb" else "gltf")
    if out.suffix.lower() not in GLTF_SUFFIXES:
        print(f"error: --out {out.name!r} is no glTF file name: name it .glb (one binary file) or .gltf (JSON "
              "with a .bin beside it)", file=sys.stderr)
        return EXIT_USAGE
    if (out.suffix.lower() == ".glb") != (args.format == "glb"):
        print(f"error: --out {out.name!r} does not fit --format {args.format} (name it .{args.format})",
              file=sys.stderr)
        return EXIT_USAGE
    if not source.is_file():
        print(f"{source}: error: cannot read: no such file", file=sys.stderr)
        return EXIT_USAGE
    problem = spec_dir_problem(args.spec_dir)
    if problem is not None:
        print(problem, file=sys.stderr)
        return EXIT_USAGE
    return None
