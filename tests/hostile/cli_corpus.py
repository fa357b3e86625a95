"""The hostile corpus of the command line (issue 27): command lines, folders and special files a hurried or
hostile user gives the tool. Pure Python, no bpy: `write_cli_corpus(folder, good)` lays out the files each
case needs (from one good glTF document) and returns the cases; tests/blender/scenarios/test_hostile_cli.py runs each
as a pipeline would (the real script in a child process, with a time bound) and checks its exit status,
the words its message must hold, that no traceback is printed and that no internal flag shows.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

KHR_FILE = Path(__file__).resolve().parent.parent / "data" / "khr" / "joints.gltf"
INTERNAL_FLAGS = ("--in-process", "--blender-log")


@dataclass
class CliCase:
    """One command line and what it must do."""

    argv: list[str]  # relative to the case's folder (its working directory)
    status: int  # the exit status it must end with
    words: tuple[str, ...] = ()  # what stdout + stderr must contain
    check: Callable[[Path], bool] | None = field(default=None, repr=False)  # the folder afterwards


def _write(path: Path, document: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document), encoding="utf-8")


def write_cli_corpus(folder: Path, good: dict[str, Any]) -> dict[str, CliCase]:
    """Lay out every case's files under `folder` (one subfolder each); the cases by name."""
    cases: dict[str, CliCase] = {}

    def case(name: str, built: CliCase) -> Path:
        cases[name] = built
        (folder / name).mkdir(parents=True, exist_ok=True)
        return folder / name

    here = case("folder_with_special_entries", CliCase(
        ["validate", "assets"], 0, ("assets/pipe.gltf: skipped: not a regular file but a FIFO",
                                    "assets/folder.gltf: skipped: not a regular file but a folder",
                                    "assets/gone.glb: skipped: a symbolic link to a missing file", "1 file, ")))
    _write(here / "assets" / "real.gltf", good)
    os.mkfifo(here / "assets" / "pipe.gltf")
    (here / "assets" / "folder.gltf").mkdir()
    (here / "assets" / "gone.glb").symlink_to(here / "assets" / "missing.glb")

    here = case("validate_a_fifo", CliCase(["validate", "pipe.gltf"], 2, ("pipe.gltf: error: cannot read: not a "
                                                                          "regular file but a FIFO",)))
    os.mkfifo(here / "pipe.gltf")

    for name, argv, words in (
            ("import_to_proc", ["import", "good.gltf", "--out", "/proc/omi_hostile.blend"], ("cannot write",)),
            ("import_out_through_a_file", ["import", "good.gltf", "--out", "a_file/x.blend"], ("in the way",)),
            ("export_option_the_tool_sets", ["export", "scene.blend", "--out", "x.glb", "--gltf-option",
                                             "export_format=GLB"], ("--gltf-option export_format is set by the tool",)),
            ("upgrade_out_dir_through_a_file", ["upgrade", "good.gltf", "--out-dir", "a_file/sub"],
             ("a part of its path is a file",)),
            ("convert_out_through_a_file", ["convert", "good.gltf", "--to", "KHR", "--out", "a_file/x.gltf"],
             ("in the way",)),
            ("validate_a_dashed_name_without_dashes", ["validate", "-v.gltf"], ("goes after '--'",)),
            ("wrong_spec_dir", ["validate", "good.gltf", "--spec-dir", "no/such/folder"], ("--spec-dir",)),
            ("json_named_glb", ["validate", "json.glb"], ("named .glb but not a GLB file", "name it .gltf"))):
        here = case(name, CliCase(argv, 2, words))
        _write(here / "good.gltf", good)
        _write(here / "json.glb", good)
        (here / "scene.blend").write_bytes(b"refused before Blender reads it")
        (here / "a_file").write_text("in the way", encoding="utf-8")

    here = case("import_a_dashed_name_after_dashes", CliCase(
        ["import", "--out", "d.blend", "--", "-v.gltf"], 0, ("-v.gltf -> d.blend",),
        check=lambda where: (where / "d.blend").is_file()))
    _write(here / "-v.gltf", good)

    original = KHR_FILE.read_bytes()
    here = case("upgrade_a_pure_khr_file", CliCase(
        ["upgrade", "khr.gltf", "--in-place"], 0, ("nothing to upgrade, left unchanged",),
        check=lambda where: (where / "khr.gltf").read_bytes() == original))
    (here / "khr.gltf").write_bytes(original)
    return cases
