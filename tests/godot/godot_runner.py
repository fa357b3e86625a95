"""Godot 4 run headless on glTF files: its own importer (GLTFDocument), then optionally its physics.

Godot is `godot` on PATH (inside the sid root, where the real-Blender job runs the suite), or, from the
host, Debian's Godot in the root named by OMI_GODOT_ROOT (scripts/godot.sh sets it), run through chroot
with the files copied into the root's /tmp. Godot's physics steps only inside a project, so every run gets
a throwaway project folder (project.godot: config_version=5 and an [application] name).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DUMPER = HERE / "dump_scene.gd"
# Godot's default project pulls at 9.8 m/s^2 and damps every body (linear and angular damp 0.1); Blender's
# import of an OMI file pulls at 9.81 and leaves bodies undamped, as the spec has no damping. The project
# takes Blender's values, so comparing the two simulations measures the file, not the two defaults (the
# `godot` export tells the artist about them).
PROJECT = ('config_version=5\n\n[application]\nconfig/name="omi-godot-tests"\n\n[physics]\n'
           '3d/default_gravity=9.81\n3d/default_linear_damp=0.0\n3d/default_angular_damp=0.0\n')
TIMEOUT = 120  # seconds for one Godot run (a few seconds normally)


def _root() -> Path | None:
    root = os.environ.get("OMI_GODOT_ROOT")
    return Path(root) if root else None


def unavailable_reason() -> str | None:
    """Why Godot cannot run here, or None."""
    root = _root()
    if root is not None:
        if not (root / "usr/bin/godot").exists():
            return f"OMI_GODOT_ROOT={root} holds no usr/bin/godot (scripts/godot.sh installs it)"
        if os.geteuid() != 0:
            return "running Godot inside OMI_GODOT_ROOT needs root (chroot)"
        return None
    if shutil.which("godot") is None:
        return "Godot 4 not found: scripts/godot.sh runs these tests with Debian sid's Godot (needs root)"
    return None


@dataclass
class GodotNode:
    """One node of the scene Godot built (positions in glTF axes, which are Godot's)."""

    data: dict[str, Any]

    def __getattr__(self, name: str) -> Any:
        try:
            return self.data[name]
        except KeyError:
            raise AttributeError(name) from None


class GodotScene:
    """Godot's dump: every node by path, and the node Godot made for each glTF node index."""

    def __init__(self, dump: dict[str, Any], key: str = "loaded") -> None:
        if "error" in dump:
            raise AssertionError(f"Godot could not load the file: {dump['error']}")
        self.nodes = {entry["path"]: GodotNode(entry) for entry in dump[key]}
        self.gltf_nodes: list[str | None] = dump.get("gltf_nodes", [])
        self.raw = dump

    def of(self, index: int) -> GodotNode | None:
        """The node Godot built for glTF node `index` (None: it built none)."""
        path = self.gltf_nodes[index] if 0 <= index < len(self.gltf_nodes) else None
        return self.nodes.get(path) if path is not None else None

    def below(self, path: str) -> list[GodotNode]:
        """The node at `path` and everything under it."""
        prefix = "" if path == "." else path + "/"
        return [node for key, node in self.nodes.items() if key == path or key.startswith(prefix)]

    def of_class(self, name: str) -> list[GodotNode]:
        return [node for node in self.nodes.values() if node.data["class"] == name]


def scratch_dir(prefix: str) -> Path:
    """A new folder Godot can see (inside the root's /tmp when it runs through chroot)."""
    root = _root()
    return Path(tempfile.mkdtemp(prefix=prefix, dir=str(root / "tmp") if root else None))


def inner_path(path: Path) -> Path:
    """A `scratch_dir` folder as Godot sees it."""
    return Path("/tmp") / path.name if _root() else path


def godot_command(arguments: list[str]) -> subprocess.CompletedProcess[str]:
    """`godot ARGUMENTS` (through chroot into the root when there is one)."""
    command = ["godot", *arguments]
    if _root() is not None:
        command = ["chroot", str(_root()), "/usr/bin/env", "-i", "HOME=/root", "PATH=/usr/bin:/bin", *command]
    return subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT, check=False)


def godot_script(script: Path, files: list[Path], args: list[str], outputs: Path, project: Path | None = None) -> str:
    """Run `script` in a throwaway project (or in `project`, a `scratch_dir` folder) with `files` beside it;
    `args` name files by their base name ("OUT/" names the output folder). What the run wrote there is
    copied into `outputs`; Godot's log."""
    reason = unavailable_reason()
    if reason is not None:
        raise RuntimeError(reason)
    base = scratch_dir("omi-godot-")
    try:
        if project is None:
            (base / "project").mkdir()
            (base / "project" / "project.godot").write_text(PROJECT)
        (base / "out").mkdir()
        for path in (script, *files):
            shutil.copy(path, base / path.name)
        inner = inner_path(base)  # the same folder as Godot sees it
        named = [str(inner / "out" / arg[4:]) if arg.startswith("OUT/") else
                 str(inner / arg) if (base / arg).exists() else arg for arg in args]
        where = inner_path(project) if project is not None else inner / "project"
        done = godot_command(["--headless", "--path", str(where), "--script", str(inner / script.name), "--", *named])
        outputs.mkdir(parents=True, exist_ok=True)
        for made in (base / "out").iterdir():
            if made.is_dir():
                shutil.copytree(made, outputs / made.name, dirs_exist_ok=True)
            else:
                shutil.copy(made, outputs / made.name)
        return done.stdout + done.stderr
    finally:
        shutil.rmtree(base, ignore_errors=True)


def run(path: Path, physics_frames: int = 0, beside: tuple[Path, ...] = (), project: Path | None = None,
        options: tuple[str, ...] = ()) -> dict[str, Any]:
    """Godot's dump of `path` (and, with frames, of the scene after that many physics frames at 60 Hz);
    `beside`: files the glTF refers to (its .bin); `project`: a prepared project (`omi_godot.project`, whose
    dumps register omi-godot's extensions); `options`: dump_scene.gd's further arguments."""
    outputs = Path(tempfile.mkdtemp(prefix="omi-godot-dump-"))
    args = [path.name, "OUT/dump.json", str(physics_frames), *(("omi",) if project is not None else ()), *options]
    try:
        log = godot_script(DUMPER, [path, *beside], args, outputs, project)
        out = outputs / "dump.json"
        if not out.exists():
            raise AssertionError(f"Godot wrote no dump:\n{log}")
        dump: dict[str, Any] = json.loads(out.read_text())
        dump["log"] = log
        return dump
    finally:
        shutil.rmtree(outputs, ignore_errors=True)
