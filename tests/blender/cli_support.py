"""Command-line test support: run scripts/omi_physics_cli.py in this process through main(argv) (or in a
subprocess, for the smoke tests), build glTF/GLB files."""

from __future__ import annotations

import contextlib
import io
import json
import os
import struct
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import addon_loader
from glb_support import glb_bytes  # noqa: F401 - the blender tests take it from here too

REPO_ROOT = Path(__file__).resolve().parents[2]
CLI = REPO_ROOT / "scripts" / "omi_physics_cli.py"
OMI_NAMES = ("OMI_physics_shape", "OMI_physics_body", "OMI_physics_joint", "OMI_collider")


@dataclass
class CliRun:
    """What one run of the tool returned and printed."""

    returncode: int
    stdout: str
    stderr: str


def run_cli(*args: object, env: dict[str, str] | None = None) -> CliRun:
    """The tool's main(argv) in this process, its printing captured. `import` and `export` run Blender here
    too when given `--in-process` (see blender_cli); pools of workers fork this process."""
    import omi_physics_cli

    out, err = io.StringIO(), io.StringIO()
    saved = {key: os.environ.get(key) for key in (env or {})}
    os.environ.update(env or {})
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                status = omi_physics_cli.main([str(arg) for arg in args])
            except SystemExit as stop:  # argparse refusing the command line
                status = stop.code if isinstance(stop.code, int) else 2
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    return CliRun(status, out.getvalue(), err.getvalue())


def blender_cli(*args: object) -> CliRun:
    """`import`/`export` with Blender in this process (the crash guard's child path, without the child)."""
    return run_cli(*args, "--in-process")


def run_cli_subprocess(*args: object, env: dict[str, str] | None = None, timeout: float = 120,
                       cwd: Path | None = None) -> subprocess.CompletedProcess:
    """The tool run as a pipeline would run it: `import`/`export` with a Python that has bpy (this test's, or
    Blender itself inside a Blender executable), the pure commands with this test's plain Python."""
    environment = {**os.environ, **(env or {})}
    needs_bpy = bool(args) and str(args[0]) in ("import", "export")
    command = addon_loader.script_command(CLI, *args) if needs_bpy else [sys.executable, str(CLI), *map(str, args)]
    return subprocess.run(command, capture_output=True, text=True, env=environment, timeout=timeout, check=False,
                          cwd=cwd)


def write_gltf(path: Path, document: Any) -> Path:
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    return path


def glb_chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    """Every chunk of a GLB, read by hand: (type, data)."""
    magic, version, length = struct.unpack_from("<4sII", data, 0)
    assert (magic, version, length) == (b"glTF", 2, len(data))
    chunks, offset = [], 12
    while offset < length:
        size, kind = struct.unpack_from("<I4s", data, offset)
        chunks.append((kind, data[offset + 8:offset + 8 + size]))
        offset += 8 + size
    assert offset == length
    return chunks


def without_omi(document: dict) -> dict:
    """The document with every OMI extension (document- and node-level, and in the extension lists) removed."""
    result = json.loads(json.dumps(document))
    for holder in [result, *result.get("nodes", [])]:
        for name in OMI_NAMES:
            holder.get("extensions", {}).pop(name, None)
        if holder.get("extensions") == {}:
            del holder["extensions"]  # an emptied or added `extensions` object is no non-OMI difference
    for key in ("extensionsUsed", "extensionsRequired"):
        if key in result:
            result[key] = [name for name in result[key] if name not in OMI_NAMES]
            if not result[key]:
                del result[key]
    return result


def lines(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.strip()]
