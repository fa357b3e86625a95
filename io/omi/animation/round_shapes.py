"""Channels of capsules and cylinders written in Godot's (the old) form, read as the spec's values.

A shape written with one `radius` (the `godot` targets, Godot's own exporter, the pre-2025 revision) is read
with its `height` as the full height (a capsule's), and its channels mean the same: Godot's `radius` and
`height` pointers animate that form. `one_radius.from_one_radius` turns them into the spec's `radiusTop`,
`radiusBottom` and mid-height `height` channels, which the import keys like any other
(`io/blender/animation/imports/keyframes.py`). Pure JSON work, no bpy.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .. import model
from ..dialects import pointers
from ..dialects.omi import SHAPE_EXTENSION
from ..json_types import array_index
from . import one_radius

Rows = Callable[[int], list[list[float]]]  # accessor index -> its rows, decoded by the importer
Made = tuple[str, str, str, list[float], list[list[float]]]  # (at, pointer, interpolation, times, values per key)


def read(document: Mapping[str, Any], animations: list[dict[str, Any]], rows: Rows) \
        -> tuple[list[Made], set[str], list[model.Issue]]:
    """(at, spec pointer, interpolation, times, values per key) of the channels made from the Godot-form
    channels of `animations` (the importer's, as JSON), the channel locations they replace, and why a
    shape's channels cannot be read so. The keys are then set on `in_spec_form(document, ...)`."""
    groups: dict[int, list[tuple[str, str, dict[str, Any]]]] = {}
    for at, pointer, sampler in pointers.channel_pointers({"animations": animations}):
        index = shape_index(pointer)
        if index is not None and sampler is not None and one_radius.is_its_channel(document, pointer):
            groups.setdefault(index, []).append((at, pointer.rsplit("/", 1)[1], dict(sampler)))
    made: list[Made] = []
    replaced: set[str] = set()
    issues: list[model.Issue] = []
    for index, channels in groups.items():
        shape_type, still = one_radius.written_so(document, index) or ("", {})
        try:
            keyed = {key: (str(sampler.get("interpolation", "LINEAR")), [row[0] for row in rows(sampler["input"])],
                           [row[0] for row in rows(sampler["output"])]) for _at, key, sampler in channels}
        except (KeyError, IndexError, TypeError, ValueError):
            keyed = {}
        spec, reason = one_radius.from_one_radius(shape_type, still, keyed) if len(keyed) == len(channels) \
            else ({}, "a channel's keys cannot be read, or a value is keyed twice")
        at = channels[0][0]
        replaced.update(channel_at for channel_at, _key, _sampler in channels)
        if not spec:
            issues.append(model.Issue(f"{at}/target/extensions/{pointers.ANIMATION_POINTER_EXTENSION}/pointer",
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
    forms = {index: form for index in indices if (form := one_radius.written_so(document, index)) is not None}
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
