"""The frames the demo's contact sheet shows, each with a caption naming what happens in it, and the trigger's
glow while the ball is inside it. Chosen from what was measured, so a caption never says what did not happen."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import bpy
import demo_scene
import numpy as np
from demo_result import DemoResult

SHEET_FRAMES = 6
GLOW_COLOUR = (1.0, 0.25, 0.9, 1.0)
GLOW_STRENGTH = 3.0
DOOR_OPENING = math.radians(45.0)  # the frame the door passes this angle shows it opening
NEAR_END = 0.05  # metres: the ball has arrived once it is this close to where it ends


@dataclass(frozen=True)
class KeyFrame:
    frame: int
    caption: str


def key_frames(result: DemoResult, count: int = SHEET_FRAMES) -> list[KeyFrame]:
    """The start, the door opening, the ball leaving the ramp, the ball in the trigger, the ball arriving
    where it ends, and the end; evenly spaced frames fill up when an event did not happen."""
    recording, found = result.recording, result.measurements
    assert recording is not None, "key frames come after the simulation"
    last = recording.count - 1
    ball = recording.tracks[demo_scene.ROLES.ball].locations
    events: dict[int, str] = {0: "start: the ball on the ramp"}
    if found.door is not None:
        opening = np.flatnonzero(np.abs(found.door.angles) > DOOR_OPENING)
        if opening.size:
            events.setdefault(int(opening[0]), "the motor swings the door open")
    off_ramp = np.flatnonzero(ball[:, 0] > demo_scene.RAMP_FOOT_X)
    if off_ramp.size:
        events.setdefault(int(off_ramp[0]), "the ball leaves the ramp")
    if found.trigger_overlaps:
        events.setdefault(found.trigger_overlaps[len(found.trigger_overlaps) // 2],
                          "the ball in the trigger, which glows")
    arrived = np.flatnonzero(np.linalg.norm(ball - ball[-1], axis=1) < NEAR_END)
    if arrived.size and 0 < int(arrived[0]) < last:
        through = ball[-1][0] > demo_scene.DOOR_X + 1.0
        events.setdefault(int(arrived[0]), "through the door to the backstop" if through else "the ball stops")
    events.setdefault(last, "the end")
    for index in np.linspace(0, last, count + 2).astype(int)[1:-1]:
        if len(events) >= count:
            break
        if all(abs(int(index) - other) > last // (2 * count) for other in events):
            events[int(index)] = "on the way"
    chosen = [*sorted(events)[:count - 1], last] if len(events) > count else sorted(events)
    return [KeyFrame(recording.frame(index), _caption(result, index, events[index])) for index in chosen]


def _caption(result: DemoResult, index: int, event: str) -> str:
    """The time, the event, and how far the door is open (the one moving part a still frame cannot date)."""
    recording, door = result.recording, result.measurements.door
    assert recording is not None
    text = f"{recording.seconds(index):.1f} s: {event}"
    if door is not None:
        text += f" (door open {abs(math.degrees(door.angles[index])):.0f} deg)"
    return text


def _principled(obj: bpy.types.Object) -> bpy.types.Node | None:
    material = obj.active_material
    if material is None or material.node_tree is None:
        return None
    return next((node for node in material.node_tree.nodes if node.type == 'BSDF_PRINCIPLED'), None)


def trigger_glow(scene: bpy.types.Scene, result: DemoResult) -> Callable[[int], None]:
    """A before-render step that lights the trigger zone up on the frames where it overlaps the ball."""
    principled = _principled(scene.objects[demo_scene.ROLES.trigger])
    assert result.recording is not None
    overlapping = {result.recording.frame(index) for index in result.measurements.trigger_overlaps}

    def glow(frame: int) -> None:
        if principled is not None:
            principled.inputs["Emission Color"].default_value = GLOW_COLOUR
            principled.inputs["Emission Strength"].default_value = GLOW_STRENGTH if frame in overlapping else 0.0

    return glow
