"""A converted file's capsule and cylinder channels in the form of a target that writes those shapes with
one radius and a capsule's full height (`Target.round_shape_channels`: the `godot` targets).

The target writes a capsule or cylinder with one `radius` and a capsule's full `height` (godot.godot_shape),
and Godot 4.6 plays a shape's channels as that form: a `radiusTop` or `radiusBottom` channel sets its one
radius, a capsule `height` channel its full height. So each shape's `radiusTop`, `radiusBottom` and `height`
channels are replaced by Godot's `radius` and `height` channels (godot_channels.round_shape_keys), with their
keys in a new buffer; a group it cannot rewrite is named and left as it was. This reads the file's buffers,
which the target's form cannot: the command line's `convert` runs it after the form.
"""

from __future__ import annotations

import base64
import struct
from collections.abc import Callable, Mapping
from typing import Any

from .. import model
from ..checks.animation_keys import float_rows
from ..dialects.omi import SHAPE_EXTENSION
from ..json_types import MISSING, array_index, get
from ..model import Issue
from ..targets import godot_channels
from .channel_follow import drop_channels

ReadBuffer = Callable[[int], "bytes | memoryview | None"]
Place = tuple[int, int, str, str]  # (animation, channel, the shape type it names, its key: one of ROUND_KEYS)
KIND = "godot.round_channels"


def _groups(document: Mapping[str, Any]) -> dict[int, list[Place]]:
    """Shape index -> the channels into its capsule or cylinder keys."""
    found: dict[int, list[Place]] = {}
    for a, animation in enumerate(_list(get(document, "animations"))):
        for c, channel in enumerate(_list(get(animation, "channels"))):
            pointer = get(get(get(get(channel, "target"), "extensions"), godot_channels.POINTER), "pointer")
            tokens = pointer.split("/") if isinstance(pointer, str) else []
            if len(tokens) == 7 and tokens[1:4] == ["extensions", SHAPE_EXTENSION, "shapes"] \
                    and tokens[5] in model.ROUND_SHAPE_TYPES and tokens[6] in godot_channels.ROUND_KEYS:
                index = array_index(tokens[4])
                if index is not None:
                    found.setdefault(index, []).append((a, c, tokens[5], tokens[6]))
    return found


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def rewrite(document: dict[str, Any], read_buffer: ReadBuffer) -> list[Issue]:
    """The document's capsule and cylinder channels in Godot's form, in place (the shapes are already in it);
    one note for the rewritten groups, one warning per reason a group is left as it was."""
    shapes = _list(get(get(get(document, "extensions"), SHAPE_EXTENSION), "shapes"))
    rewritten: list[str] = []
    left: dict[str, list[str]] = {}
    doomed: list[str] = []
    for index, places in _groups(document).items():
        shape = shapes[index] if 0 <= index < len(shapes) else None
        shape_type = get(shape, "type")
        details = get(shape, shape_type) if isinstance(shape_type, str) else None
        where = f"/extensions/{SHAPE_EXTENSION}/shapes/{index}"
        if not isinstance(details, Mapping) or shape_type not in model.ROUND_SHAPE_TYPES \
                or any(type_of != shape_type for _a, _c, type_of, _key in places):
            continue  # not this round shape: the pointer's own checks say so
        keyed, reason = _keyed(document, places, read_buffer)
        radius, height = details.get("radius"), details.get("height")
        if reason is None and isinstance(radius, (int, float)) and isinstance(height, (int, float)):
            mid = float(height) - (2.0 * float(radius) if shape_type == "capsule" else 0.0)
            still = {"radiusTop": float(radius), "radiusBottom": float(radius), "height": mid}
            channels, reason = godot_channels.round_shape_keys(str(shape_type), still, keyed)
            if channels:
                animation = document["animations"][places[0][0]]
                for key, keys in channels.items():
                    _add_channel(document, animation, f"{where}/{shape_type}/{key}", keys)
                doomed += [f"/animations/{a}/channels/{c}" for a, c, _type, _key in places]
                rewritten.append(where)
        if reason is not None:
            left.setdefault(reason, []).append(where)
    if doomed:
        drop_channels(document, doomed)
    issues = [Issue(rewritten[0], "capsule and cylinder channels rewritten in Godot's form (one `radius`; a "
                                  f"capsule's `height` the full height, its radii added): {', '.join(rewritten)}",
                    "info", KIND)] if rewritten else []
    issues += [Issue(where[0], f"capsule and cylinder channels not in Godot's form ({reason}): {', '.join(where)}",
                     "warning", KIND) for reason, where in left.items()]
    return issues


def _keyed(document: Mapping[str, Any], places: list[Place], read_buffer: ReadBuffer) \
        -> tuple[dict[str, godot_channels.Keys], str | None]:
    """Each key's channel (interpolation, times, values) read from the buffers, or why it cannot be."""
    accessors = _list(get(document, "accessors"))
    keyed: dict[str, godot_channels.Keys] = {}
    for a, c, _type, key in places:
        animation = document["animations"][a]
        samplers, at = _list(get(animation, "samplers")), get(animation["channels"][c], "sampler")
        sampler = samplers[at] if type(at) is int and 0 <= at < len(samplers) else None
        rows = []
        for role in ("input", "output"):
            index = get(sampler, role)
            accessor = accessors[index] if type(index) is int and 0 <= index < len(accessors) else None
            rows.append(float_rows(accessor, document, read_buffer) if accessor is not None else None)
        interpolation = get(sampler, "interpolation")
        interpolation = "LINEAR" if interpolation is MISSING else interpolation
        if key in keyed or rows[0] is None or rows[1] is None or not isinstance(interpolation, str):
            return {}, "a channel's keys cannot be read, or a value is keyed twice"
        keyed[key] = (interpolation, [row[0] for row in rows[0]], [row[0] for row in rows[1]])
    return keyed, None


def _add_channel(document: dict[str, Any], animation: dict[str, Any], pointer: str,
                 keys: godot_channels.Keys) -> None:
    """A new sampler and channel in `animation`, its keys in a new buffer of their own (a data: URI)."""
    interpolation, times, values = keys
    inputs, outputs = (_accessor(document, numbers) for numbers in (times, values))
    stored = struct.unpack(f"<{len(times)}f", struct.pack(f"<{len(times)}f", *times))  # what validators compare
    document["accessors"][inputs].update(min=[min(stored)], max=[max(stored)])
    animation.setdefault("samplers", []).append({"input": inputs, "output": outputs, "interpolation": interpolation})
    animation.setdefault("channels", []).append({"sampler": len(animation["samplers"]) - 1, "target": {
        "path": "pointer", "extensions": {godot_channels.POINTER: {"pointer": pointer}}}})


def _accessor(document: dict[str, Any], numbers: list[float]) -> int:
    data = struct.pack(f"<{len(numbers)}f", *numbers)
    document.setdefault("buffers", []).append({
        "byteLength": len(data), "uri": "data:application/octet-stream;base64," + base64.b64encode(data).decode()})
    document.setdefault("bufferViews", []).append({"buffer": len(document["buffers"]) - 1, "byteLength": len(data)})
    document.setdefault("accessors", []).append({"bufferView": len(document["bufferViews"]) - 1,
                                                 "componentType": 5126, "count": len(numbers), "type": "SCALAR"})
    return len(document["accessors"]) - 1
