"""Capsules and cylinders in the one-radius form, and the keys of their channels in either form.

The spec's revision before 2025 (and Godot 4, which reads and writes it) gives a capsule or cylinder one
`radius` and a capsule's `height` its full height; the current spec has `radiusTop`, `radiusBottom` and a
mid-height. A channel animates the form its shape is written in, so its keys move between the forms with
the shape: a target that writes the old form rewrites the spec's channels into it (its `form.ChannelRewrite`),
and `from_one_radius` reads such a file's. Keys are merged on the union of their times (`merged`), exact for
LINEAR and STEP keys: each channel is read at the others' times (`value_at`).
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping
from typing import Any

from .. import model
from ..dialects.omi import SHAPE_EXTENSION
from ..json_types import array_index, get
from ..targets.form import Keys

ROUND_KEYS = ("radiusTop", "radiusBottom", "height")  # the spec's keys of a capsule or cylinder


def value_at(keys: Keys, time: float) -> float:
    """A LINEAR or STEP channel's value at `time` (held before its first key and after its last)."""
    interpolation, times, values = keys
    after = bisect.bisect_right(times, time)
    if after == 0:
        return values[0]
    if after == len(times) or interpolation == "STEP" or times[after] == times[after - 1]:
        return values[after - 1]
    share = (time - times[after - 1]) / (times[after] - times[after - 1])
    return values[after - 1] + share * (values[after] - values[after - 1])


def merged(keyed: Mapping[str, Keys]) -> tuple[str, list[float]] | str:
    """The one interpolation of `keyed` and the union of their key times; or why the channels cannot be
    merged."""
    interpolations = {interpolation for interpolation, _times, _values in keyed.values()}
    if not keyed or len(interpolations) != 1 or not interpolations <= {"LINEAR", "STEP"}:
        return "its channels are keyed CUBICSPLINE or mix interpolations" if keyed else "nothing is keyed"
    if any(len(times) != len(values) or not times for _interpolation, times, values in keyed.values()):
        return "a channel has not one value per key"
    [interpolation] = interpolations
    return interpolation, sorted({time for _interpolation, times, _values in keyed.values() for time in times})


def from_one_radius(shape_type: str, still: Mapping[str, float], keyed: Mapping[str, Keys]) \
        -> tuple[dict[str, Keys], str | None]:
    """A shape in the one-radius form, `keyed` by 'radius' and 'height' (a capsule's full height) and `still`
    in both, as the spec's ROUND_KEYS channels; or why not."""
    found = merged(keyed)
    if isinstance(found, str):
        return {}, found
    interpolation, times = found

    def value(key: str, time: float) -> float:
        return value_at(keyed[key], time) if key in keyed else still[key]

    radii = [value("radius", time) for time in times]
    result: dict[str, Keys] = {}
    if "radius" in keyed:
        result["radiusTop"] = result["radiusBottom"] = (interpolation, times, radii)
    if "height" in keyed or shape_type == "capsule":
        heights = [value("height", time) for time in times]
        if shape_type == "capsule":
            heights = [height - 2.0 * radius for height, radius in zip(heights, radii, strict=True)]
        result["height"] = (interpolation, times, heights)
    return result, None


def written_so(document: Mapping[str, Any], index: int) -> tuple[str, dict[str, float]] | None:
    """(type, still radius and height) of shape `index` of a document when it is written in the one-radius
    form: one `radius`, a capsule's full `height`; its channels are then that form's too (`is_its_channel`)."""
    shapes = get(get(get(document, "extensions"), SHAPE_EXTENSION), "shapes")
    shape = shapes[index] if isinstance(shapes, list) and 0 <= index < len(shapes) else None
    shape_type = get(shape, "type")
    details = get(shape, shape_type) if shape_type in model.ROUND_SHAPE_TYPES else None
    if not isinstance(details, Mapping) or "radius" not in details or {"radiusTop", "radiusBottom"} & set(details):
        return None
    radius, height = details.get("radius", 0.5), details.get("height", 2.0)
    if not all(isinstance(number, (int, float)) and not isinstance(number, bool) for number in (radius, height)):
        return None
    return str(shape_type), {"radius": float(radius), "height": float(height)}


def is_its_channel(document: Mapping[str, Any], pointer: str) -> bool:
    """Whether a pointer is the one-radius form's `radius` or `height` of a capsule or cylinder written in
    that form (which the import reads as the spec's values)."""
    tokens = pointer.split("/")
    index = array_index(tokens[4]) if len(tokens) == 7 and tokens[1:4] == [
        "extensions", SHAPE_EXTENSION, "shapes"] and tokens[6] in ("radius", "height") else None
    form = written_so(document, index) if index is not None else None
    return form is not None and form[0] == tokens[5]
