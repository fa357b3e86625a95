"""Keys of physics animation channels that would change values without a word (no bpy here).

glTF requires a sampler's times to be finite, non-negative and strictly increasing; Blender's F-curves
would reorder, merge or clamp such keys (and a NaN time made an export sample for minutes). A physics value
keyed outside what the same value may hold in the file (a NaN or negative mass) would pass into the
simulation. Such a channel is named and not imported, by `validate` and the import alike; a pointer that is
no JSON pointer at all (empty, or written as a URI fragment `#/nodes/...`) is named too, since no reader
animates anything with it.
"""

from __future__ import annotations

import itertools
import math
import struct
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..dialects import builtin, registry  # noqa: F401 - builtin: the built-in units registered
from ..dialects.base import Dialect, field_tables
from ..dialects.fields import Field
from ..dialects.pointers import ANIMATION_POINTER_EXTENSION, PointerTemplate, channel_pointers, match
from ..json_types import get
from ..model import Issue

ReadBuffer = Callable[[int], "bytes | memoryview | None"]
FLOAT = 5126
WIDTHS = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}  # MAT4: a skin's inverse bind matrices


def float_rows(accessor: Any, document: Mapping[str, Any], read_buffer: ReadBuffer) -> list[tuple[float, ...]] | None:
    """The rows of a float accessor (not sparse); None when it cannot be read so."""
    width = WIDTHS.get(get(accessor, "type")) if isinstance(accessor, Mapping) else None
    if width is None or accessor.get("componentType") != FLOAT or "sparse" in accessor \
            or not isinstance(accessor.get("bufferView"), int):
        return None
    views = document.get("bufferViews")
    index = accessor["bufferView"]
    view = views[index] if isinstance(views, list) and 0 <= index < len(views) else None
    if not isinstance(view, Mapping) or not isinstance(view.get("buffer"), int):
        return None
    data = read_buffer(view["buffer"])
    count, size = accessor.get("count", 0), 4 * width
    stride = view.get("byteStride") or size
    start = view.get("byteOffset", 0) + accessor.get("byteOffset", 0)
    if data is None or not isinstance(count, int) or not isinstance(start, int) or not isinstance(stride, int) \
            or count < 1 or start + stride * (count - 1) + size > len(data):
        return None
    row = struct.Struct(f"<{width}f")
    return [row.unpack_from(data, start + stride * k) for k in range(count)]


def time_problem(times: Sequence[float]) -> str | None:
    """Why these sampler times break glTF's rule (finite, non-negative, strictly increasing), or None."""
    if any(not math.isfinite(time) for time in times):
        return "holds NaN or infinite times"
    if any(time < 0.0 for time in times):
        return f"holds a negative time ({min(times):g} s)"
    for earlier, later in itertools.pairwise(times):
        if later <= earlier:
            return f"has times that do not increase ({earlier:g} s, then {later:g} s)"
    return None


def _dialect(template: PointerTemplate) -> Dialect:
    """The tables of the dialect that owns the pointer's extension (the default dialect's if none does)."""
    owners = registry.for_extensions([template.extension])
    return (owners[0] if owners else registry.default()).tables


def _field(template: PointerTemplate) -> Field | None:
    """The dialect's declaration of the value a pointer template names (its bounds), found by its key."""
    key = template.path[-1] if template.path else None
    return next((spec for table in field_tables(_dialect(template)) for spec in table if spec.key == key), None)


def value_problem(template: PointerTemplate, values: Sequence[float], keys: int = 0) -> str | None:
    """Why these keyed values (`keys` keys' worth) could not stand in the file as the value itself, or None."""
    if any(not math.isfinite(value) for value in values):
        return "holds NaN or infinite values"
    spec = _field(template)
    key = template.path[-1] if template.path else "value"
    if template.type == "int" and any(value != math.floor(value) for value in values):
        return f"keys {key} at {next(value for value in values if value != math.floor(value)):g}, which is not an " \
               "integer"
    if template.type == "float[]" and keys:
        each = len(values) / keys
        if each != int(each) or (key == "points" and (each % 3 or each < 6)):
            return f"keys {each:g} numbers per key for {key}" + (", which wants 3 per point and at least 2 points"
                                                                  if key == "points" else "")
    if spec is not None and spec.minimum is not None and min(values) < spec.minimum:
        return f"keys {key} at {min(values):g}, below its minimum {spec.minimum:g}"
    if spec is not None and spec.exclusive_minimum is not None and min(values) <= spec.exclusive_minimum:
        return f"keys {key} at {min(values):g}, not above {spec.exclusive_minimum:g}"
    return None


def key_issues(channel_at: str, sampler_at: str, pointer: str, template: PointerTemplate, *,
               times: Sequence[float], values: Sequence[float]) -> list[Issue]:
    """The findings on one channel's keys (empty: usable); each says the channel is not imported."""
    found = []
    problem = time_problem(times)
    if problem is not None:
        found.append(Issue(f"{sampler_at}/input", f"{pointer}: the sampler of {channel_at} {problem}; channel "
                                                  "not imported", "error"))
    problem = value_problem(template, values, len(times))
    if problem is not None:
        found.append(Issue(f"{sampler_at}/output", f"{pointer}: the sampler of {channel_at} {problem}; channel not "
                                                   "imported", "error"))
    return found


def malformed_pointers(gltf: Mapping[str, Any]) -> list[Issue]:
    """Pointer channels whose pointer is no JSON pointer: empty, or a URI fragment ('#/nodes/...')."""
    found = []
    animations = gltf.get("animations") if isinstance(gltf, Mapping) else None
    for a, animation in enumerate(animations if isinstance(animations, list) else []):
        channels = get(animation, "channels")
        for c, channel in enumerate(channels if isinstance(channels, list) else []):
            target = get(channel, "target")
            pointer = get(get(get(target, "extensions"), ANIMATION_POINTER_EXTENSION), "pointer")
            if get(target, "path") != "pointer" or not isinstance(pointer, str) or pointer.startswith("/"):
                continue
            at = f"/animations/{a}/channels/{c}/target/extensions/{ANIMATION_POINTER_EXTENSION}/pointer"
            if not pointer:
                what = "the pointer is empty (it would name the whole document)"
            elif pointer.startswith("#"):
                what = f"pointer {pointer!r} is a URI fragment; KHR_animation_pointer wants a JSON pointer " \
                       f"({pointer[1:]!r})"
            else:
                what = f"pointer {pointer!r} is no JSON pointer (it must start with '/')"
            found.append(Issue(at, f"{what}; no reader animates anything with it: channel not imported", "error"))
    return found


def check(gltf: Mapping[str, Any], read_buffer: ReadBuffer) -> list[Issue]:
    """`validate`'s view: every physics channel's keys, read from the file's buffers, and malformed pointers."""
    found = malformed_pointers(gltf)
    accessors = gltf.get("accessors") if isinstance(gltf, Mapping) else None
    accessors = accessors if isinstance(accessors, list) else []
    for at, pointer, sampler in channel_pointers(gltf):
        matched = match(pointer)
        if matched is None or sampler is None:
            continue  # named by pointers.check_animation
        rows = [float_rows(accessors[index], gltf, read_buffer)
                if isinstance(index, int) and 0 <= index < len(accessors) else None
                for index in (get(sampler, "input"), get(sampler, "output"))]
        if rows[0] is None or rows[1] is None:
            continue
        found += key_issues(at, sampler_pointer(gltf, at), pointer, matched.template,
                            times=[row[0] for row in rows[0]],
                            values=key_values(rows[1], get(sampler, "interpolation")))
    return found


def key_values(rows: Sequence[Sequence[float]], interpolation: object) -> list[float]:
    """The keyed values of a sampler's output rows: a CUBICSPLINE sampler stores (in-tangent, value,
    out-tangent) per key, and tangents may be anything (a zero slope is common)."""
    values = rows[1::3] if interpolation == "CUBICSPLINE" else rows
    return [value for row in values for value in row]


def sampler_pointer(gltf: Mapping[str, Any], channel_at: str) -> str:
    """'/animations/A/samplers/S' for the channel at '/animations/A/channels/C' (channel_pointers' form)."""
    _, _, animation, _, channel = channel_at.split("/")  # indices channel_pointers found in this document
    return f"/animations/{animation}/samplers/{gltf['animations'][int(animation)]['channels'][int(channel)]['sampler']}"
