"""Capsules and cylinders in the one-radius form: the keys of their channels in either form, and a file's
channels in that form read as the spec's.

The spec's revision before 2025 (and Godot 4, which reads and writes it) gives a capsule or cylinder one
`radius` and a capsule's `height` its full height; the current spec has `radiusTop`, `radiusBottom` and a
mid-height. A channel animates the form its shape is written in, so its keys move between the forms with
the shape: a target that writes the old form rewrites the spec's channels into it (its `form.ChannelRewrite`),
and the import reads such a file's (`read`, through `from_one_radius`) as the spec's `radiusTop`,
`radiusBottom` and mid-height `height` channels, which it keys like any other
(`io/blender/animation/imports/keyframes.py`). Keys are merged on the union of their times (`merged`), exact
for LINEAR and STEP keys: each channel is read at the others' times (`value_at`). Pure JSON work, no bpy.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Mapping
from typing import Any

from .. import model
from ..dialects.omi import SHAPE_EXTENSION
from ..json_types import array_index, get
from ..targets.form import Keys

ROUND_KEYS = ("radiusTop", "radiusBottom", "height")  # the spec's keys of a capsule or cylinder
_POINTER_AT = "/target/extensions/KHR_animation_pointer/pointer"  # a channel's pointer, below the channel
Rows = Callable[[int], list[list[float]]]  # accessor index -> its rows, decoded by the importer
Made = tuple[str, str, str, list[float], list[list[float]]]  # (at, pointer, interpolation, times, values per key)
Channels = list[tuple[str, str, Mapping[str, Any] | None]]  # (channel location, pointer, sampler)


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


def sampled(keyed: Mapping[str, Keys], still: Mapping[str, float]) \
        -> tuple[str, list[float], Callable[[str, float], float]] | str:
    """`merged`'s interpolation and key times, and each value at a time: a keyed one sampled, the others
    `still`; or why the channels cannot be merged. Both directions of the one-radius form ask it."""
    found = merged(keyed)
    if isinstance(found, str):
        return found
    interpolation, times = found

    def value(key: str, time: float) -> float:
        return value_at(keyed[key], time) if key in keyed else still[key]

    return interpolation, times, value


def from_one_radius(shape_type: str, still: Mapping[str, float], keyed: Mapping[str, Keys]) \
        -> tuple[dict[str, Keys], str | None]:
    """A shape in the one-radius form, `keyed` by 'radius' and 'height' (a capsule's full height) and `still`
    in both, as the spec's ROUND_KEYS channels; or why not."""
    found = sampled(keyed, still)
    if isinstance(found, str):
        return {}, found
    interpolation, times, value = found
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


def read(document: Mapping[str, Any], channels: Channels, rows: Rows) \
        -> tuple[list[Made], set[str], list[model.Issue]]:
    """(at, spec pointer, interpolation, times, values per key) of the channels made from the Godot-form
    ones among a file's physics `channels` (`pointers.channel_pointers`), the channel locations they replace,
    and why a shape's channels cannot be read so. The keys are then set on `in_spec_form(document, ...)`."""
    groups: dict[int, list[tuple[str, str, dict[str, Any]]]] = {}
    for at, pointer, sampler in channels:
        index = shape_index(pointer)
        if index is not None and sampler is not None and is_its_channel(document, pointer):
            groups.setdefault(index, []).append((at, pointer.rsplit("/", 1)[1], dict(sampler)))
    made: list[Made] = []
    replaced: set[str] = set()
    issues: list[model.Issue] = []
    for index, found in groups.items():
        shape_type, still = written_so(document, index) or ("", {})
        try:
            keyed = {key: (str(sampler.get("interpolation", "LINEAR")), [row[0] for row in rows(sampler["input"])],
                           [row[0] for row in rows(sampler["output"])]) for _at, key, sampler in found}
        except (KeyError, IndexError, TypeError, ValueError):
            keyed = {}
        spec, reason = from_one_radius(shape_type, still, keyed) if len(keyed) == len(found) \
            else ({}, "a channel's keys cannot be read, or a value is keyed twice")
        at = found[0][0]
        replaced.update(channel_at for channel_at, _key, _sampler in found)
        if not spec:
            issues.append(model.Issue(f"{at}{_POINTER_AT}",
                                      f"the {shape_type} channels of shape {index}, in Godot's form (one radius, a "
                                      f"full height), cannot be read as the spec's ({reason}); not imported"))
            continue
        for key, (interpolation, times, values) in spec.items():
            made.append((at, f"/extensions/{SHAPE_EXTENSION}/shapes/{index}/{shape_type}/{key}",
                         interpolation, times, [[value] for value in values]))
    return made, replaced, issues


def in_spec_form(document: Mapping[str, Any], indices: set[int]) -> Mapping[str, Any]:
    """The document with shapes `indices` (in Godot's form) in the spec's form, as the reader means them (the
    old form's full height less both radii): the spec's pointers of their channels then move the values the
    channels mean. A copy where it changes; the importer's own data is left as it is."""
    forms = {index: form for index in indices if (form := written_so(document, index)) is not None}
    if not forms:
        return document
    extension = dict(document["extensions"][SHAPE_EXTENSION])
    shapes = extension["shapes"] = list(extension["shapes"])
    for index, (shape_type, still) in forms.items():
        radius, height = still["radius"], still["height"]
        mid = height - 2.0 * radius if shape_type == "capsule" else height
        shapes[index] = {**shapes[index], shape_type: {"radiusTop": radius, "radiusBottom": radius, "height": mid}}
    return {**document, "extensions": {**document["extensions"], SHAPE_EXTENSION: extension}}


def shape_index(pointer: str) -> int | None:
    """The shape a round-shape pointer (`/extensions/OMI_physics_shape/shapes/N/<type>/<key>`) names."""
    tokens = pointer.split("/")
    return array_index(tokens[4]) if len(tokens) == 7 and tokens[3] == "shapes" else None
