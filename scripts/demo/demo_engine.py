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

ENGINE_DIR = Path(__file__).resolve().parents[2] / "tests" / "engine"
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
    accepted: set[str] = field(default_factory=set)  # bodies whose gap the file's combine modes explain
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
            run.reasons, run.accepted = _reasons(path, apart, recording, result, times=times,
                                                 names=[*bodies, *others])
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
             names: list[str]) -> tuple[dict[str, str], set[str]]:
    """Why each body in `apart` ends more than GAP from Blender's, measured; and the bodies whose gap is
    accepted: Rapier with Bullet's combine rule ends within GAP of Blender, so the gap is the file's combine
    modes, which Blender's Bullet cannot follow (docs/guide.md, What Blender cannot express)."""
    try:
        bullet = second_engine.simulate(path, (times[-1],), nodes=apart, combine=BULLET_RULE)
    except (second_engine.EngineError, OSError):
        bullet = None
    reasons, accepted = {}, set()
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
        text = f"the paths part at {times[index]:.2f} s, nearest origins {near}"
        if bullet is not None:
            blender = gltf_axes(recording.tracks[name].locations[-1])
            left = math.dist(blender, bullet.position(name, times[-1]))
            text += (f"; with Bullet's combine rule ({BULLET_RULE} friction and restitution, where the file says "
                     f"otherwise) Rapier ends {left:.2f} m from Blender")
            if left <= GAP:
                accepted.add(name)
        reasons[name] = text
    return reasons, accepted


def _number(value: float, spec: str) -> str:
    """`value` formatted, never as a negative zero ("-0.00" reads as a direction that is not there)."""
    text = format(value, spec)
    return text.replace("-", " ") if float(text) == 0.0 else text


def _vec(value: Vec3) -> str:
    return "(" + ", ".join(_number(v, "6.2f") for v in value) + ")"


def same_outcome(run: EngineRun, other: EngineRun) -> bool:
    """Whether two files ended the same in the second engine (every body within 1 mm, the same triggers)."""
    return (run.unavailable is None and other.unavailable is None and run.triggers == other.triggers
            and [row[0] for row in run.rows] == [row[0] for row in other.rows]
            and all(math.dist(mine[2], theirs[2]) < 1e-3 for mine, theirs in zip(run.rows, other.rows, strict=True)))


def summary_lines(runs: list[EngineRun]) -> list[str]:
    """Each file's outcome once: a file that ended as an earlier one did says so in one line."""
    if not runs:
        return []
    lines = ["", "Second physics engine (the exported files read by tests/engine's own loader; glTF axes, Y up):"]
    shown: list[EngineRun] = []
    for run in runs:
        if run.unavailable is not None:
            lines.append(f"  {run.file}: not simulated: {run.unavailable}")
            continue
        twin = next((earlier for earlier in shown if same_outcome(run, earlier)), None)
        if twin is not None:
            lines.append(f"  {run.file} in {run.engine}: ends as {twin.file} does (every body within 1 mm)")
            continue
        shown.append(run)
        lines.append(f"  {run.file} in {run.engine}, {run.seconds:.1f} s: final position, Blender's beside it")
        for name, blender, other in run.rows:
            lines.append(f"    {name}: {_vec(other)}  Blender {_vec(blender)}  apart {math.dist(blender, other):.2f} m")
            if name in run.reasons:
                verdict = ("accepted: the file's combine modes, which Blender's Bullet cannot follow"
                           if name in run.accepted else "not explained: a contact the engines resolve differently")
                lines.append(f"      {verdict} ({run.reasons[name]})")
        entered = "; ".join(f"{trigger}: {', '.join(found) or 'nothing'}" for trigger, found in run.triggers.items())
        if entered:
            lines.append(f"    triggers entered: {entered}")
        lines += [f"    engine note: {note}" for note in run.notes]
    return lines


def verdict(runs: list[EngineRun]) -> str:
    """One line for the demo's result: how far the second engine agrees, and which gaps are accepted."""
    simulated = [run for run in runs if run.unavailable is None]
    if not simulated:
        return "the second engine did not run" if runs else "no second engine"
    gaps = sorted({name for run in simulated for name in run.reasons})
    unexplained = sorted({name for run in simulated for name in run.reasons if name not in run.accepted})
    if not gaps:
        return f"the second engine ends every body within {GAP * 100:.0f} cm of Blender"
    if not unexplained:
        return (f"the second engine ends every body within {GAP * 100:.0f} cm of Blender but {', '.join(gaps)}: "
                "accepted, the file's combine modes (Blender multiplies friction and restitution)")
    return (f"the second engine ends {', '.join(unexplained)} more than {GAP * 100:.0f} cm from Blender, "
            "not explained (see above); the checks are Blender's")
