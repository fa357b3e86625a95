"""The demo's exported files simulated by a second physics engine (Rapier, through tests/engine), reported
beside Blender's outcome: where each body ends up in both, and how far apart.

No bpy here: the Blender side comes in as the demo's recording (Blender axes), converted to glTF axes.
The engines are not expected to agree to the millimetre (contact softness, Bullet's margins, Blender's
missing gravity factor); the report shows the numbers, the demo's checks stay Blender's. Every body that
ends more than `GAP` apart gets its reason, measured: when the two paths part and which body is nearest
then (the contact the engines resolve differently), and whether Rapier with Bullet's combine rule (it
multiplies friction and restitution, whatever the file's combine modes say) ends where Blender does.
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
GAP = 0.05  # metres: a final gap above this between the engines is explained
SAMPLE_FRAMES = 2  # the second engine reports every this many frames (each report is JSON: fewer is faster)
BULLET_RULE = "multiply"  # how Bullet combines two bodies' friction and restitution (io/blender/tables/bullet.py)


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
    reasons: dict[str, str] = field(default_factory=dict)  # body -> why the engines end more than GAP apart
    triggers: dict[str, list[str]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)


def gltf_axes(location) -> Vec3:
    x, y, z = (float(v) for v in location)
    return (x, z, -y)


def compare(paths: list[Path], recording: Recording, bodies: list[str]) -> list[EngineRun]:
    """Simulate each file for as long as Blender did and pair the final positions of `bodies`; explain each
    gap above `GAP`."""
    seconds = (recording.count - 1) / recording.fps
    times = [index / recording.fps for index in range(0, recording.count, SAMPLE_FRAMES)]
    if times[-1] != seconds:
        times.append(seconds)
    runs = []
    for path in paths:
        run = EngineRun(path.name, seconds=seconds)
        others = [name for name in _collider_nodes(path) if name in recording.tracks and name not in bodies]
        try:
            result = second_engine.simulate(path, times, nodes=[*bodies, *others])
        except (second_engine.EngineError, OSError) as error:
            run.unavailable = str(error)
            runs.append(run)
            continue
        run.engine, run.triggers, run.notes = result.engine, result.triggers, result.notes
        for name in bodies:
            blender = gltf_axes(recording.tracks[name].locations[-1])
            run.rows.append((name, blender, result.position(name, times[-1])))
        apart = [name for name, blender, other in run.rows if math.dist(blender, other) > GAP]
        if apart:
            run.reasons = _reasons(path, apart, recording, result, times=times, names=[*bodies, *others])
        runs.append(run)
    return runs


def _collider_nodes(path: Path) -> list[str]:
    """Names of the file's nodes with a collider or motion (either dialect), in file order."""
    document = second_engine.read_json(path)
    found = []
    for node in document.get("nodes", []):
        extensions = node.get("extensions", {})
        body = extensions.get("OMI_physics_body") or extensions.get("KHR_physics_rigid_bodies") or {}
        if ("collider" in body or "motion" in body) and node.get("name"):
            found.append(node["name"])
    return found


def _reasons(path: Path, apart: list[str], recording: Recording, result, *, times: list[float],
             names: list[str]) -> dict[str, str]:
    """Why each body in `apart` ends more than GAP from Blender's, measured."""
    try:
        bullet = second_engine.simulate(path, (times[-1],), nodes=apart, combine=BULLET_RULE)
    except (second_engine.EngineError, OSError):
        bullet = None
    reasons = {}
    for name in apart:
        gaps = [math.dist(gltf_axes(recording.tracks[name].locations[round(time * recording.fps)]),
                          result.position(name, time)) for time in times]
        index = len(gaps) - 1  # the start of the last stretch more than GAP apart: where the paths part for good
        while index > 0 and gaps[index - 1] > GAP:
            index -= 1
        where = result.position(name, times[index])
        nearest = sorted((math.dist(where, result.position(other, times[index])), other)
                         for other in names if other != name)[:2]
        near = " and ".join(f"{other} ({distance:.2f} m)" for distance, other in nearest)
        text = (f"the paths part at {times[index]:.2f} s, nearest origins {near}: a contact the engines resolve "
                "differently")
        if bullet is not None:
            blender = gltf_axes(recording.tracks[name].locations[-1])
            left = math.dist(blender, bullet.position(name, times[-1]))
            verdict = ": the combine modes are the gap" if left <= GAP else ""
            text += (f"; with Bullet's combine rule ({BULLET_RULE} friction and restitution, where the file says "
                     f"otherwise) Rapier ends {left:.2f} m from Blender{verdict}")
        reasons[name] = text
    return reasons


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
            if name in run.reasons:
                lines.append(f"      why: {run.reasons[name]}")
        entered = "; ".join(f"{trigger}: {', '.join(found) or 'nothing'}" for trigger, found in run.triggers.items())
        if entered:
            lines.append(f"    triggers entered: {entered}")
        lines += [f"    engine note: {note}" for note in run.notes]
    return lines
