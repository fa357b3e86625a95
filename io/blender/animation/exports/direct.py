"""Export of keyed settings that hold their Object Model value one-to-one (`settings.Held`):
the pointer an F-curve feeds is read from the tables, and the value at each key is arithmetic on the
F-curve's value, with no derive-and-write of the object's physics per F-curve or per key.

The arithmetic is the still export's, step by step: the setting holds the F-curve's value clamped to the
property's range as a float32 (`Channel.put`), the model value is that float32 through the axis change as
its shortest decimal (`properties/convert`: pg_float, pg_vec), and CUBICSPLINE tangents are measured as
`sample` measures them. A mapping is used only when the value the table predicts at rest is the value the
still export wrote there (`rest`), and a key only when every value stays within its Field's bounds; anything
else (a switch that moves the value elsewhere, a key the writer would not write) goes through the whole
translation in `sample`, as before. A Blender property that holds a setting's value (the settings' mass is
Blender's Rigid Body Mass: a keyframe from the add-on's panel keys it) maps as that setting.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ....omi.animation import linear_keys
from ....omi.dialects import pointers
from ....omi.json_types import shortest_float32
from .. import curves
from .. import settings as animated_settings
from ..curves import Channel, slopes

_STEPS = (1.0, -1.0, 0.01, -0.01)  # the tangent probes of `sample._tangent`


@dataclass(frozen=True)
class Mapped:
    """One F-curve's place in the export: the value it feeds (a `sample` snapshot key), which component of
    it and with which sign, the value's Field, and the setting's range."""

    key: tuple[Any, str, tuple[int, ...]]
    component: int
    sign: float
    field: Any
    vector: bool
    low: float
    high: float

    def stored(self, number: float) -> float:
        """The setting's value after `Channel.put(number)`: clamped to its range, a float32."""
        return linear_keys.float32(min(max(number, self.low), self.high))

    def model(self, stored: float, sign: float | None = None) -> float:
        """The model value's component for a stored setting value (pg_float, pg_vec); `sign`: another
        component's (the rest check reads every component of the setting)."""
        value = shortest_float32((self.sign if sign is None else sign) * stored)
        return value + 0.0 if self.vector else value


def _numbers(value: Any) -> list[float]:
    return [float(v) for v in value] if isinstance(value, list | tuple) else [float(value)]


def _home_of(channel: Channel) -> str | None:
    """The setting whose value this Blender property holds (`Layout.mirrors`: the settings' mass is Blender's
    Rigid Body Mass), when no F-curve of that setting feeds it too (then it is the setting's mirror)."""
    mirrored = animated_settings.layout().mirrors.get(channel.fcurve.data_path)
    if mirrored is None:
        return None
    if any(curve.data_path == mirrored[0] for curve in curves.fcurves(channel.id_data)):
        return None
    return mirrored[0]


def map_channel(channel: Channel, rest: dict[tuple[Any, str, tuple[int, ...]], Any]) -> Mapped | None:
    """Where the table puts this F-curve in the rest snapshot, or None (the whole translation decides)."""
    path = channel.fcurve.data_path
    if "." not in path or path.endswith("]"):
        return None
    home = _home_of(channel)
    group_path, name = (home or path).rsplit(".", 1)
    found = animated_settings.held_by(group_path, name)
    if found is None:
        return None
    part, attr, entry = found
    if entry.placed:
        return None  # the export bakes the object's scale in: the whole translation decides
    try:
        group = channel.id_data.path_resolve(group_path)
        target_path, target_name = path.rsplit(".", 1)
        target = channel.id_data.path_resolve(target_path)
        prop = target.bl_rna.properties[target_name]
    except (ValueError, KeyError, AttributeError):
        return None
    if home is not None and getattr(group, name) != getattr(target, target_name):
        return None  # the setting holds a value of its own (below Blender's floor): not this property's
    index = channel.fcurve.array_index
    if prop.type != 'FLOAT' or not 0 <= index < len(entry.axes):
        return None
    if entry.off_when:
        switch = getattr(group, entry.off_when)
        if switch[index] if hasattr(switch, "__len__") else switch:
            return None
    if entry.needs and not getattr(group, entry.needs):
        return None
    item = animated_settings.group_index(group_path)  # a joint's drive: the model's drive of that index
    templates = {template.text: template for template in pointers.home_rows()}  # the spelling sampled
    keys = [key for key in rest if templates.get(key[1]) is not None
            and templates[key[1]].model_value == (part, attr)
            and key[2] == (() if "{}" not in templates[key[1]].path else (item,))
            and (key[0] == "node") == (templates[key[1]].array is None)]
    if len(keys) != 1:
        return None
    template = templates[keys[0][1]]
    component, sign = entry.axes[index]
    mapped = Mapped(keys[0], component, sign, template.field, len(entry.axes) > 1,
                    float(prop.hard_min), float(prop.hard_max))
    current = getattr(group, name)
    stored = list(current) if hasattr(current, "__len__") else [current]
    predicted = [0.0] * len(entry.axes)
    for position, (model_component, model_sign) in enumerate(entry.axes):
        predicted[model_component] = mapped.model(float(stored[position]), model_sign)
    return mapped if predicted == _numbers(rest[keys[0]]) else None


@dataclass(frozen=True)
class Mirror:
    """A Blender rigid-body F-curve that mirrors a mapped setting (`settings.Layout.mirrors`)."""

    channel: Channel
    source: int  # position of the mirrored setting's channel in the mapped list
    convert: Callable[[float], float]
    low: float
    high: float

    def holds(self, frame: float, stored: float) -> bool:
        """Whether the mirror holds the setting's Blender value at a frame (then the setting's value is read:
        properties/homes, within its tolerance)."""
        mirror = linear_keys.float32(min(max(self.channel.fcurve.evaluate(frame), self.low), self.high))
        return abs(mirror - linear_keys.float32(self.convert(stored))) <= 1e-6 * max(1.0, mirror)


def mirrors(others: Sequence[Channel], mapped: Sequence[tuple[Channel, Mapped]]) -> list[Mirror] | None:
    """The F-curves feeding a value besides the mapped ones, as mirrors of those; None when one is not."""
    found = []
    for channel in others:
        mirrored = animated_settings.layout().mirrors.get(channel.fcurve.data_path)
        source = next((position for position, (setting, _entry) in enumerate(mapped) if mirrored is not None
                       and setting.id_data == channel.id_data and setting.fcurve.data_path == mirrored[0]), None)
        if mirrored is None or source is None:
            return None
        try:
            head, name = channel.fcurve.data_path.rsplit(".", 1)
            prop = channel.id_data.path_resolve(head).bl_rna.properties[name]
        except (ValueError, KeyError, AttributeError):
            return None
        found.append(Mirror(channel, source, mirrored[1], float(prop.hard_min), float(prop.hard_max)))
    return found


def values(mapped: Sequence[tuple[Channel, Mapped]], rest: list[float], frames: Sequence[float], *, fps: float,
           cubic: bool, mirrored: Sequence[Mirror] = ()) -> list[list[float]] | None:
    """The value (CUBICSPLINE: in-tangent, value, out-tangent) at each frame, or None when a key leaves the
    values the file can hold or a mirror does not hold its setting's value (the whole translation then
    samples it, and says what it must)."""
    if cubic and mirrored:
        return None  # the tangents would move the mirror too: left to the whole translation
    found: list[list[float]] = []
    for frame in frames:
        stored = [entry.stored(channel.fcurve.evaluate(frame)) for channel, entry in mapped]
        if not all(mirror.holds(frame, stored[mirror.source]) for mirror in mirrored):
            return None
        value = _value(mapped, rest, stored)
        field = mapped[0][1].field
        if not linear_keys.within(field, value):
            return None
        if not cubic:
            found.append(value)
            continue
        tangents = []
        for side in (0, 1):
            tangent = _tangent(mapped, rest, stored, value, frame=frame, side=side, fps=fps)
            if tangent is None:
                return None
            tangents.append(tangent)
        found.append([*tangents[0], *value, *tangents[1]])
    return found


def _value(mapped: Sequence[tuple[Channel, Mapped]], rest: list[float], stored: Sequence[float]) -> list[float]:
    value = list(rest)
    for (_channel, entry), number in zip(mapped, stored, strict=True):
        value[entry.component] = entry.model(number)
    return value


def _tangent(mapped: Sequence[tuple[Channel, Mapped]], rest: list[float], stored: list[float], base: list[float], *,
             frame: float, side: int, fps: float) -> list[float] | None:
    """`sample._tangent` by arithmetic: the settings moved along their slopes, the model value's change."""
    slope = [slopes(channel.fcurve, frame)[side] for channel, _entry in mapped]
    if not any(slope):
        return [0.0] * len(base)
    for step in _STEPS:
        moved = [entry.stored(number + rate * step) for (_channel, entry), number, rate
                 in zip(mapped, stored, slope, strict=True)]
        landed = all(math.isclose(after, number + rate * step, rel_tol=1e-5, abs_tol=1e-6)
                     for after, number, rate in zip(moved, stored, slope, strict=True))
        if not landed:
            continue
        value = _value(mapped, rest, moved)
        if not linear_keys.within(mapped[0][1].field, value):
            return None  # the writer would leave it out: the whole translation decides
        return [(after - before) / step * fps for after, before in zip(value, base, strict=True)]
    return [0.0] * len(base)
