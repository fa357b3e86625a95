"""F-curves of a datablock's active action on every supported Blender, and what a glTF sampler can carry.

Blender 4.4 moved an action's F-curves into layers, strips and channel bags (one per slot); 5.0 removed
`Action.fcurves`. `fcurves` finds them either way. The rest decides how a set of F-curves becomes glTF
sampler keys: STEP for constant keys, LINEAR for linear keys, CUBICSPLINE for Bézier keys whose handles
sit at a third of each interval (then the curve is a cubic in time, exactly a Hermite spline), and baked
samples for everything else (easing, other handle positions, modifiers). Times are seconds as the glTF
exporter and importer count them (`frame / (fps * fps_base)`, frame 0 at time 0).
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

import bpy

KeyInterpolation = Literal["CONSTANT", "LINEAR", "BEZIER"]  # a keyframe's, as a glTF sampler's maps to it

_HANDLE_TOLERANCE = 1e-3  # frames; Blender stores handle positions as float32


def fcurves(id_data: Any) -> list[bpy.types.FCurve]:
    """The F-curves of the datablock's active action (its own slot on 4.4+), or none."""
    animation: Any = getattr(id_data, "animation_data", None)
    action = getattr(animation, "action", None)
    if action is None:
        return []
    if hasattr(action, "layers") and hasattr(animation, "action_slot"):
        slot = animation.action_slot
        for layer in action.layers:
            for strip in layer.strips:
                channelbag = strip.channelbag(slot) if slot is not None else None
                if channelbag is not None:
                    return list(channelbag.fcurves)
        if not hasattr(action, "fcurves"):
            return []
    return list(getattr(action, "fcurves", ()))


def put(id_data: Any, path: str, index: int, value: float) -> None:
    """Set one number of a property (an element of an array property), as a keyframe stores it."""
    struct, name = _resolve(id_data, path)
    current = getattr(struct, name)
    if hasattr(current, "__len__"):
        kind = type(current[index])
        getattr(struct, name)[index] = kind(round(value)) if kind in (bool, int) else value
    else:
        kind = type(current)
        setattr(struct, name, kind(round(value)) if kind in (bool, int) else value)


def value(id_data: Any, path: str, index: int) -> float:
    """One number of a property (an element of an array property) as a float."""
    struct, name = _resolve(id_data, path)
    current = getattr(struct, name)
    return float(current[index] if hasattr(current, "__len__") else current)


def insert_keys(id_data: Any, path: str, index: int, points: list[tuple[float, float]]) -> bpy.types.FCurve | None:
    """Keyframes (frame, value) on one property, as `keyframe_insert` one by one makes them (a later point at a
    frame replaces an earlier one; the property keeps the last point's value), in time linear in their number:
    the first is inserted (it makes the action, its slot and the F-curve), the others added at once (inserting
    one by one copies the curve's keys each time). The F-curve, or None when there was none to add to."""
    struct, name = _resolve(id_data, path)
    current = getattr(struct, name)
    is_array = hasattr(current, "__len__")
    kind = type(current[index] if is_array else current)
    if not points:
        return None
    by_frame = dict(points)  # the last point at a frame wins, as on insertion
    ordered = sorted(by_frame.items())
    found = _curve(id_data, path, index if is_array else 0)
    if found is not None and len(found.keyframe_points):  # keys there already: insert among them
        for frame, value in ordered:
            put(id_data, path, index, value)
            id_data.keyframe_insert(path, index=index if is_array else -1, frame=frame)
    else:
        put(id_data, path, index, ordered[0][1])
        id_data.keyframe_insert(path, index=index if is_array else -1, frame=ordered[0][0])
        found = _curve(id_data, path, index if is_array else 0)
        if found is None:
            return None
        stored = [float(kind(round(v))) if kind in (bool, int) else v for _frame, v in ordered]
        found.keyframe_points.add(len(ordered) - 1)
        found.keyframe_points.foreach_set("co", [c for (frame, _v), value in zip(ordered, stored, strict=True)
                                                for c in (frame, value)])
        found.update()
    put(id_data, path, index, points[-1][1])
    return found


def keyframes_with_slopes(key: tuple[Any, str, int], keys: list[tuple[float, float, float, float]],
                         interpolation: KeyInterpolation) -> None:
    """Keyframes (frame, value, incoming slope, outgoing slope) on one property, Bézier handles from slopes."""
    id_data, path, index = key
    curve = insert_keys(id_data, path, index, [(frame, value) for frame, value, _in, _out in keys])
    if curve is None:
        return
    by_frame = {frame: (frame, value, incoming, outgoing) for frame, value, incoming, outgoing in keys}
    ordered = [by_frame[frame] for frame in sorted(by_frame)]
    points = list(curve.keyframe_points)
    for position, point in enumerate(points):
        point.interpolation = interpolation
        if interpolation != 'BEZIER':
            continue
        frame, value, incoming, outgoing = ordered[position] if position < len(ordered) else \
            (point.co[0], point.co[1], 0.0, 0.0)
        point.handle_left_type = point.handle_right_type = 'FREE'
        if position > 0:
            third = (frame - points[position - 1].co[0]) / 3.0
            point.handle_left = (frame - third, value - incoming * third)
        if position < len(points) - 1:
            third = (points[position + 1].co[0] - frame) / 3.0
            point.handle_right = (frame + third, value + outgoing * third)


def _curve(id_data: Any, path: str, index: int) -> bpy.types.FCurve | None:
    return next((curve for curve in fcurves(id_data) if curve.data_path == path and curve.array_index == index),
                None)


def fps(scene: bpy.types.Scene) -> float:
    """Frames per second as the glTF add-on converts frames to seconds and back."""
    return scene.render.fps * scene.render.fps_base


def _resolve(id_data: Any, data_path: str) -> tuple[Any, str]:
    """(owner struct, property name) of an RNA path such as `rigid_body.mass`."""
    if "." in data_path and not data_path.endswith("]"):
        head, name = data_path.rsplit(".", 1)
        return id_data.path_resolve(head), name
    return id_data, data_path


@dataclass(frozen=True)
class Channel:
    """One animated number: an F-curve and the datablock it animates."""

    id_data: Any
    fcurve: bpy.types.FCurve

    @property
    def key(self) -> tuple[int, str, int]:
        return (id(self.id_data.original if hasattr(self.id_data, "original") else self.id_data),
                self.fcurve.data_path, self.fcurve.array_index)

    def current(self) -> float:
        owner, name = _resolve(self.id_data, self.fcurve.data_path)
        value = getattr(owner, name)
        return float(value[self.fcurve.array_index] if hasattr(value, "__len__") else value)

    def put(self, value: float) -> None:
        """Set the animated property (bool and int properties take the rounded value)."""
        owner, name = _resolve(self.id_data, self.fcurve.data_path)
        current = getattr(owner, name)
        if hasattr(current, "__len__"):
            element = current[self.fcurve.array_index]
            current[self.fcurve.array_index] = type(element)(round(value)) if isinstance(element, bool | int) else value
        else:
            setattr(owner, name, type(current)(round(value)) if isinstance(current, bool | int) else value)

    def frames(self) -> list[float]:
        return [point.co[0] for point in self.fcurve.keyframe_points]


def numeric(channel: Channel) -> bool:
    """True when the F-curve drives a number or a bool (not an enum, a string or a missing property)."""
    try:
        owner, name = _resolve(channel.id_data, channel.fcurve.data_path)
        prop = owner.bl_rna.properties[name]
    except (KeyError, ValueError, AttributeError):
        return False
    return prop.type in ('FLOAT', 'INT', 'BOOLEAN')


@contextlib.contextmanager
def held(channels: Iterable[Channel]) -> Iterator[None]:
    """Put back every channel's property value on exit, whatever was set meanwhile."""
    saved = [(channel, channel.current()) for channel in channels]
    try:
        yield
    finally:
        for channel, value in reversed(saved):
            channel.put(value)


def set_frame(channels: Iterable[Channel], frame: float) -> None:
    """Every channel's property at its F-curve's value at `frame` (the action's own evaluation)."""
    for channel in channels:
        channel.put(channel.fcurve.evaluate(frame))


@dataclass(frozen=True)
class Plan:
    """How a group of F-curves feeding one glTF value is sampled."""

    interpolation: str  # 'STEP', 'LINEAR' or 'CUBICSPLINE'
    frames: tuple[float, ...]
    baked: bool = False


def _simple(fcurve: bpy.types.FCurve) -> bool:
    return not fcurve.modifiers and fcurve.extrapolation == 'CONSTANT'


def _thirds(fcurve: bpy.types.FCurve) -> bool:
    """Every Bézier segment's handles at a third of its interval: the curve is a cubic in time."""
    points = fcurve.keyframe_points
    for left, right in zip(points, list(points)[1:], strict=False):
        third = (right.co[0] - left.co[0]) / 3.0
        if left.interpolation == 'BEZIER' and (
                abs(left.handle_right[0] - left.co[0] - third) > _HANDLE_TOLERANCE
                or abs(right.co[0] - right.handle_left[0] - third) > _HANDLE_TOLERANCE):
            return False
    return True


def plan(fcurve_group: Iterable[bpy.types.FCurve], *, cubic: bool = True) -> Plan:
    """The sampler for values fed by these F-curves (interpolation of all keys but each curve's last);
    without `cubic` (an engine that rejects CUBICSPLINE), Bézier keys are sampled LINEAR at every frame."""
    curves = list(fcurve_group)
    frames = sorted({point.co[0] for curve in curves for point in curve.keyframe_points})
    kinds = {point.interpolation for curve in curves for point in list(curve.keyframe_points)[:-1]}
    same_keys = all([point.co[0] for point in curve.keyframe_points] == frames for curve in curves)
    if all(_simple(curve) for curve in curves) and frames:
        if kinds <= {'CONSTANT'}:
            return Plan('STEP', tuple(frames))
        if kinds <= {'LINEAR'}:
            return Plan('LINEAR', tuple(frames))
        if cubic and kinds <= {'BEZIER', 'LINEAR'} and same_keys and all(_thirds(curve) for curve in curves):
            return Plan('CUBICSPLINE', tuple(frames))
    first, last = (frames[0], frames[-1]) if frames else (0.0, 0.0)
    baked = tuple(float(frame) for frame in range(math.floor(first), math.ceil(last) + 1))
    return Plan('LINEAR', baked or (first,), baked=True)


def slopes(fcurve: bpy.types.FCurve, frame: float) -> tuple[float, float]:
    """(incoming, outgoing) slope in value per frame at a key of a CUBICSPLINE plan (0 past the ends)."""
    points = list(fcurve.keyframe_points)
    for position, point in enumerate(points):
        if abs(point.co[0] - frame) > _HANDLE_TOLERANCE:
            continue
        incoming = outgoing = 0.0
        if position > 0:
            before = points[position - 1]
            if before.interpolation == 'LINEAR':
                incoming = (point.co[1] - before.co[1]) / (point.co[0] - before.co[0])
            elif before.interpolation == 'BEZIER' and point.co[0] != point.handle_left[0]:
                incoming = (point.co[1] - point.handle_left[1]) / (point.co[0] - point.handle_left[0])
        if position < len(points) - 1:
            after = points[position + 1]
            if point.interpolation == 'LINEAR':
                outgoing = (after.co[1] - point.co[1]) / (after.co[0] - point.co[0])
            elif point.interpolation == 'BEZIER' and point.handle_right[0] != point.co[0]:
                outgoing = (point.handle_right[1] - point.co[1]) / (point.handle_right[0] - point.co[0])
        return incoming, outgoing
    return 0.0, 0.0
