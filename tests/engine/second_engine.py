"""Run a glTF file's physics in another engine (Rapier, or Havok as Babylon.js runs it, through Node.js) and
read where bodies end up.

    result = simulate("scene.glb", times=(0.5, 2.0))
    result.position("Crate", 2.0)          # glTF axes (+Y up), metres
    final_positions("scene.glb", 2.0)      # {body name: (x, y, z)}
    simulate("scene.glb", engine="havok")  # the @babylonjs/havok WASM, through havok_simulate.mjs

The engines are `simulate.mjs` (Rapier) and `havok_simulate.mjs` next to this file; `npm ci --prefix
tests/engine` installs both (scripts/setup.sh does that when Node.js is present). No bpy here: the demo and
the tests both use it.
"""

from __future__ import annotations

import json
import shutil
import struct
import subprocess
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

ENGINE_DIR = Path(__file__).resolve().parent
SCRIPT = ENGINE_DIR / "simulate.mjs"
PACKAGE_DIR = ENGINE_DIR / "node_modules" / "@dimforge" / "rapier3d-compat"
ENGINES = {"rapier": (SCRIPT, PACKAGE_DIR, "Rapier"),
           "havok": (ENGINE_DIR / "havok_simulate.mjs", ENGINE_DIR / "node_modules" / "@babylonjs" / "havok", "Havok")}
STEPS_PER_SECOND = 240  # Blender's default: 24 frames per second with 10 substeps each


class EngineError(RuntimeError):
    """The engine refused the file or could not run."""


def node_executable() -> str | None:
    return shutil.which("node")


def install() -> str | None:
    """`npm ci` the engine from package-lock.json when it is missing; the failure's text, or None."""
    npm = shutil.which("npm")
    if all(package.is_dir() for _, package, _ in ENGINES.values()) or npm is None:
        return None
    done = subprocess.run([npm, "ci", "--prefix", str(ENGINE_DIR), "--no-audit", "--no-fund"],
                          capture_output=True, text=True, timeout=600, check=False)
    return None if done.returncode == 0 else f"npm ci failed: {done.stderr.strip()[-2000:]}"


def unavailable_reason(engine: str = "rapier") -> str | None:
    """Why the engine cannot run here, or None when it can."""
    _script, package, label = ENGINES[engine]
    if node_executable() is None:
        return f"Node.js is not installed: the other physics engine ({label}, from npm) runs on it"
    if not package.is_dir():
        return f"{label} is not installed: run `npm ci --prefix {ENGINE_DIR}` (scripts/setup.sh does)"
    return None


@dataclass
class Pose:
    translation: tuple[float, float, float]
    rotation: tuple[float, float, float, float]  # glTF order: x, y, z, w


@dataclass
class EngineResult:
    """What the engine reported: poses per requested time, trigger entries, and its notes."""

    engine: str
    dialect: str
    bodies: dict[str, dict]
    frames: dict[float, dict[str, Pose]]
    triggers: dict[str, list[str]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def pose(self, name: str, time: float) -> Pose:
        return self.frames[time][name]

    def position(self, name: str, time: float) -> tuple[float, float, float]:
        return self.pose(name, time).translation

    def final_positions(self) -> dict[str, tuple[float, float, float]]:
        last = max(self.frames)
        return {name: pose.translation for name, pose in self.frames[last].items()}


def simulate(path: Path | str, times: Sequence[float] = (1.0,), *, rate: int = STEPS_PER_SECOND,
             dialect: str | None = None, nodes: Iterable[str] = (), gravity: Sequence[float] | None = None,
             combine: str | None = None, timeout: float = 600.0, engine: str = "rapier") -> EngineResult:
    """Simulate the file from its initial state and report the bodies (and `nodes`) at each time (s).
    `combine`: every material combines friction and restitution this way (Bullet's rule: "multiply").
    Either engine's answer is the same to the bit from run to run; only the wall time depends on the
    machine's load (loading Rapier alone takes about 2 s of CPU), hence the wide `timeout`, which fails as an
    EngineError. Havok plays no gravity volume or animation channel (its notes say so)."""
    reason = unavailable_reason(engine)
    if reason is not None:
        raise EngineError(reason)
    script, _package, label = ENGINES[engine]
    command = [node_executable() or "node", str(script), str(path), "--rate", str(rate),
               "--times", ",".join(repr(float(t)) for t in times)]
    if dialect:
        command += ["--dialect", dialect]
    names = list(nodes)
    if names:
        command += ["--nodes", ",".join(names)]
    if gravity is not None:
        command += ["--gravity", ",".join(repr(float(g)) for g in gravity)]
    if combine is not None:
        command += ["--combine", combine]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired as late:
        raise EngineError(f"{Path(path).name}: {label} gave no answer within {timeout:g} s (a loaded machine?)") \
            from late
    if done.returncode != 0:
        raise EngineError(f"{Path(path).name}: {done.stderr.strip() or done.stdout.strip()}")
    report = json.loads(done.stdout)
    frames = {
        float(frame["time"]): {name: Pose(tuple(pose["translation"]), tuple(pose["rotation"]))
                               for name, pose in frame["nodes"].items()}
        for frame in report["frames"]
    }
    return EngineResult(report["engine"], report["dialect"], report["bodies"], frames, report["triggers"],
                        report["notes"])


def read_json(path: Path | str) -> dict:
    """The glTF JSON of a .gltf or .glb file."""
    data = Path(path).read_bytes()
    if data[:4] == b"glTF":
        length = struct.unpack_from("<I", data, 12)[0]
        return json.loads(data[20:20 + length])
    return json.loads(data)


def final_positions(path: Path | str, seconds: float, **options) -> dict[str, tuple[float, float, float]]:
    """Where each body is after `seconds` of simulation (glTF axes)."""
    return simulate(path, (seconds,), **options).final_positions()
