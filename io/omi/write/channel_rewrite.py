"""A target's `form.ChannelRewrite` on a parsed file (the command line's convert): channels of an item's values
rewritten over their keys, which this reads from the file's buffers.

The channels of one item's rewritten keys (`/extensions/<extension>/<array>/N/<type>/<key>`) are one group: its
keys are read from the buffers, the keys it does not animate are the item's still values (as the Object Model
reads them, defaults included), and the rewrite's channels replace the group's, their keys in a new buffer of
their own (a data: URI). A group it cannot rewrite is named and left as it was.
"""

from __future__ import annotations

import base64
import struct
from collections.abc import Callable, Mapping
from typing import Any

from ..checks.animation_keys import float_rows
from ..dialects import pointers
from ..json_types import MISSING, array_index, get
from ..model import Issue
from ..targets.form import ChannelRewrite, Keys
from .channel_follow import drop_channels

ReadBuffer = Callable[[int], "bytes | memoryview | None"]
Place = tuple[int, int, str, str]  # (animation, channel, the item type it names, its key: one of the rewrite's)


def _groups(document: Mapping[str, Any], rewrite: ChannelRewrite) -> dict[int, list[Place]]:
    """Item index -> the channels into its rewritten keys."""
    found: dict[int, list[Place]] = {}
    head = ["extensions", rewrite.extension, rewrite.array]
    for a, animation in enumerate(_list(get(document, "animations"))):
        for c, channel in enumerate(_list(get(animation, "channels"))):
            pointer = get(get(get(get(channel, "target"), "extensions"), pointers.ANIMATION_POINTER_EXTENSION),
                          "pointer")
            tokens = pointer.split("/") if isinstance(pointer, str) else []
            if len(tokens) == 7 and tokens[1:4] == head and tokens[5] in rewrite.types and tokens[6] in rewrite.keys:
                index = array_index(tokens[4])
                if index is not None:
                    found.setdefault(index, []).append((a, c, tokens[5], tokens[6]))
    return found


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def rewrite(document: dict[str, Any], rewrite: ChannelRewrite, read_buffer: ReadBuffer) -> list[Issue]:
    """The document's channels of `rewrite`'s keys rewritten, in place; one note for the rewritten groups,
    one warning per reason a group is left as it was."""
    items = _list(get(get(get(document, "extensions"), rewrite.extension), rewrite.array))
    rewritten: list[str] = []
    left: dict[str, list[str]] = {}
    doomed: list[str] = []
    for index, places in _groups(document, rewrite).items():
        item = items[index] if 0 <= index < len(items) else None
        item_type = get(item, "type")
        where = f"/extensions/{rewrite.extension}/{rewrite.array}/{index}"
        found = pointers.match(f"{where}/{places[0][2]}/{places[0][3]}")
        if not isinstance(item, Mapping) or item_type not in rewrite.types or found is None \
                or any(type_of != item_type for _a, _c, type_of, _key in places):
            continue  # not an item of this kind: the pointer's own checks say so
        keyed, reason = _keyed(document, places, read_buffer)
        if reason is None:
            head = found.template.text.rsplit("/", 1)[0]
            written = {text: value for (text, _nested), value in
                       pointers.leaves(rewrite.extension, rewrite.array, item).items()}
            still = {key: float(written.get(f"{head}/{key}", 0.0)) for key in rewrite.keys}
            channels, reason = rewrite.rewrite(str(item_type), still, keyed)
            if channels:
                animation = document["animations"][places[0][0]]
                for key, keys in channels.items():
                    _add_channel(document, animation, f"{where}/{item_type}/{key}", keys)
                doomed += [f"/animations/{a}/channels/{c}" for a, c, _type, _key in places]
                rewritten.append(where)
        if reason is not None:
            left.setdefault(reason, []).append(where)
    if doomed:
        drop_channels(document, doomed)
    issues = [Issue(rewritten[0], f"{rewrite.what} rewritten in {rewrite.form} ({rewrite.how}): "
                                  f"{', '.join(rewritten)}", "info", rewrite.kind)] if rewritten else []
    issues += [Issue(where[0], f"{rewrite.what} not in {rewrite.form} ({reason}): {', '.join(where)}",
                     "warning", rewrite.kind) for reason, where in left.items()]
    return issues


def _keyed(document: Mapping[str, Any], places: list[Place], read_buffer: ReadBuffer) \
        -> tuple[dict[str, Keys], str | None]:
    """Each key's channel (interpolation, times, values) read from the buffers, or why it cannot be."""
    accessors = _list(get(document, "accessors"))
    keyed: dict[str, Keys] = {}
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
        values = rows[1][1::3] if interpolation == "CUBICSPLINE" else rows[1]  # the values, not their tangents
        keyed[key] = (interpolation, [row[0] for row in rows[0]], [row[0] for row in values])
    return keyed, None


def _add_channel(document: dict[str, Any], animation: dict[str, Any], pointer: str, keys: Keys) -> None:
    """A new sampler and channel in `animation`, its keys in a new buffer of their own (a data: URI)."""
    interpolation, times, values = keys
    inputs, outputs = times_accessor(document, times), accessor(document, values)
    animation.setdefault("samplers", []).append({"input": inputs, "output": outputs, "interpolation": interpolation})
    animation.setdefault("channels", []).append({"sampler": len(animation["samplers"]) - 1, "target": {
        "path": "pointer", "extensions": {pointers.ANIMATION_POINTER_EXTENSION: {"pointer": pointer}}}})


def times_accessor(document: dict[str, Any], times: list[float]) -> int:
    """A new accessor of key times (`accessor`), with the bounds glTF asks of a sampler's input."""
    index = accessor(document, times)
    stored = struct.unpack(f"<{len(times)}f", struct.pack(f"<{len(times)}f", *times))  # what validators compare
    document["accessors"][index].update(min=[min(stored)], max=[max(stored)])
    return index


def accessor(document: dict[str, Any], numbers: list[float], kind: str = "SCALAR", width: int = 1) -> int:
    """A new float accessor of `numbers` (`width` per row, of glTF type `kind`) in a buffer of its own."""
    data = struct.pack(f"<{len(numbers)}f", *numbers)
    document.setdefault("buffers", []).append({
        "byteLength": len(data), "uri": "data:application/octet-stream;base64," + base64.b64encode(data).decode()})
    document.setdefault("bufferViews", []).append({"buffer": len(document["buffers"]) - 1, "byteLength": len(data)})
    document.setdefault("accessors", []).append({"bufferView": len(document["bufferViews"]) - 1,
                                                 "componentType": 5126, "count": len(numbers) // width,
                                                 "type": kind})
    return len(document["accessors"]) - 1


def data_uris(document: Mapping[str, Any]) -> ReadBuffer:
    """A document's buffers that are data: URIs, decoded (for a document handed over without its files)."""
    def read_buffer(index: int) -> bytes | None:
        buffers = _list(get(document, "buffers"))
        uri = get(buffers[index], "uri") if 0 <= index < len(buffers) else None
        if not isinstance(uri, str) or not uri.startswith("data:") or ";base64," not in uri:
            return None
        try:
            return base64.b64decode(uri.split(";base64,", 1)[1])
        except ValueError:
            return None
    return read_buffer
