"""The demo's exported files simulated by a second physics engine (Rapier, through tests/engine), reported
beside Blender's outcome: where each body ends up in both, and how far apart.

No bpy here: the Blender side comes in as the demo's recording (Blender axes), converted to glTF axes.
The engines are not expected to agree to the millimetre (contact softness, Bullet's margins, Blender's
missing gravity factor and velocities); the report shows the numbers, the demo's checks stay Blender's.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

ENGINE_DIR = Path(__file__).resolve().parent.parent / "tests" / "engine"
sys.path.insert(0, str(ENGINE_DIR))

import second_engine  # noqa: E402

Vec3 = tuple[float, float, float]


class Recording(Protocol):  # demo_measure.Recording, as far as this module reads it
    fps: float

    @property
    def count(self) -> int: ...

    tracks: dict


@dataclass
class EngineRun:
    """One file simulated by the second engine, beside Blender's final positions (glTF axes)."""

    file: str
    engine: str = ""
    unavailable: str | None = None
    seconds: float = 0.0
    rows: list[tuple[str, Vec3, Vec3]] = field(default_factory=list)  # name, Blender, second engine
    triggers: dict[str, list[str]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def gltf_axes(location) -> Vec3:
    x, y, z = (float(v) for v in location)
    return (x, z, -y)


def compare(paths: list[Path], recording: Recording, bodies: list[str]) -> list[EngineRun]:
    """Simulate each file for as long as Blender did and pair the final positions of `bodies`."""
    seconds = (recording.count - 1) / recording.fps
    runs = []
    for path in paths:
        run = EngineRun(path.name, seconds=seconds)
        try:
            result = second_engine.simulate(path, (seconds,), nodes=bodies)
        except (second_engine.EngineError, OSError) as error:
            run.unavailable = str(error)
            runs.append(run)
            continue
        run.engine, run.triggers, run.notes = result.engine, result.triggers, result.notes
        for name in bodies:
            blender = gltf_axes(recording.tracks[name].locations[-1])
            run.rows.append((name, blender, result.position(name, seconds)))
        runs.append(run)
    return runs


def _vec(value: Vec3) -> str:
    return "(" + ", ".join(f"{v:6.2f}" for v in value) + ")"


def summary_lines(runs: list[EngineRun]) -> list[str]:
    if not runs:
        return []
    lines = ["", "Second physics engine (the exported files read by tests/engine's own loader; glTF axes, Y up):"]
    for run in runs:
        if run.unavailable is not None:
            lines.append(f"  {run.file}: not simulated: {run.unavailable}")
            continue
        lines.append(f"  {run.file} in {run.engine}, {run.seconds:.1f} s: final position, Blender's beside it")
        for name, blender, other in run.rows:
            lines.append(f"    {name}: {_vec(other)}  Blender {_vec(blender)}  apart {math.dist(blender, other):.2f} m")
        entered = "; ".join(f"{trigger}: {', '.join(found) or 'nothing'}" for trigger, found in run.triggers.items())
        if entered:
            lines.append(f"    triggers entered: {entered}")
        lines += [f"    engine note: {note}" for note in run.notes]
    return lines
