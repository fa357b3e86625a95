"""Part of the `godot` target (godot.py): the animation channels its layout moves or its forms rewrite.

The target moves a body's render mesh (with its morph `weights`) to a new child node, since Godot gives a
body node no MeshInstance3D. A channel that animates those morph weights, by `node` + `path: weights` or by
a KHR_animation_pointer `/nodes/N/weights`, must follow the mesh to the child, or it animates a node with no
mesh (invalid glTF, and Godot plays nothing). `/meshes/N/weights` names the mesh itself and stays.

It writes capsules and cylinders in Godot's form (one `radius`; a capsule's `height` its full height), and
Godot 4.6 plays a shape's channels as that form: `round_shape_keys` turns the channels of `radiusTop`,
`radiusBottom` and `height` (each keyed or still) into Godot's `radius` and `height` channels, the keys of
both on the union of their times (exact for LINEAR and for STEP keys; a tapered radius takes the larger).
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping
from typing import Any

from .. import model
from ..dialects.omi import SHAPE_EXTENSION
from ..json_types import array_index, get

POINTER = "KHR_animation_pointer"
ROUND_KEYS = ("radiusTop", "radiusBottom", "height")
Keys = tuple[str, list[float], list[float]]  # (interpolation, times, one value per key)


def weights_target(node: Any, path: Any, pointer: Any, moved: Mapping[int, int]) -> tuple[Any, Any]:
    """A channel's (target node, pointer) once the meshes of `moved` (body node -> its new mesh child) are on
    their children: morph weights follow their mesh, every other target stays as it is."""
    if path == "weights" and type(node) is int and node in moved:
        node = moved[node]
    if isinstance(pointer, str):
        parts = pointer.split("/")
        index = array_index(parts[2]) if len(parts) == 4 and parts[1] == "nodes" and parts[3] == "weights" else None
        if index is not None and index in moved:
            pointer = f"/nodes/{moved[index]}/weights"
    return node, pointer


def follow_meshes(document: Mapping[str, Any], moved: Mapping[int, int]) -> None:
    """JSON side of `weights_target`: every channel of the document, in place."""
    if not moved:
        return
    for animation in document.get("animations") or []:
        for channel in (animation.get("channels") if isinstance(animation, Mapping) else None) or []:
            target = channel.get("target") if isinstance(channel, Mapping) else None
            if not isinstance(target, dict):
                continue
            extension = (target.get("extensions") or {}).get(POINTER)
            pointer = extension.get("pointer") if isinstance(extension, dict) else None
            node, pointer = weights_target(target.get("node"), target.get("path"), pointer, moved)
            if node is not None:
                target["node"] = node
            if isinstance(extension, dict) and pointer is not None:
                extension["pointer"] = pointer


def _at(keys: Keys, time: float) -> float:
    """A LINEAR or STEP channel's value at `time` (held before its first key and after its last)."""
    interpolation, times, values = keys
    after = bisect.bisect_right(times, time)
    if after == 0:
        return values[0]
    if after == len(times) or interpolation == "STEP" or times[after] == times[after - 1]:
        return values[after - 1]
    share = (time - times[after - 1]) / (times[after] - times[after - 1])
    return values[after - 1] + share * (values[after] - values[after - 1])


def _merged(keyed: Mapping[str, Keys]) -> tuple[str, list[float]] | str:
    """The one interpolation of `keyed` and the union of their key times (exact for LINEAR and STEP: each
    channel is read at the others' times); or why the channels cannot be merged."""
    interpolations = {interpolation for interpolation, _times, _values in keyed.values()}
    if not keyed or len(interpolations) != 1 or not interpolations <= {"LINEAR", "STEP"}:
        return "its channels are keyed CUBICSPLINE or mix interpolations" if keyed else "nothing is keyed"
    if any(len(times) != len(values) or not times for _interpolation, times, values in keyed.values()):
        return "a channel has not one value per key"
    [interpolation] = interpolations
    return interpolation, sorted({time for _interpolation, times, _values in keyed.values() for time in times})


def round_shape_keys(shape_type: str, still: Mapping[str, float], keyed: Mapping[str, Keys]) \
        -> tuple[dict[str, Keys], str | None]:
    """Godot's channels ('radius', 'height') of a capsule or cylinder whose `keyed` values (of ROUND_KEYS)
    are animated and the others `still` (all three given there); or none and why they cannot be."""
    merged = _merged(keyed)
    if isinstance(merged, str):
        return {}, merged
    interpolation, times = merged

    def value(key: str, time: float) -> float:
        return _at(keyed[key], time) if key in keyed else still[key]

    radii = [(value("radiusTop", time), value("radiusBottom", time)) for time in times]
    result: dict[str, Keys] = {}
    if {"radiusTop", "radiusBottom"} & set(keyed):
        result["radius"] = (interpolation, times, [max(top, bottom) for top, bottom in radii])
    if shape_type == "capsule" or "height" in keyed:
        heights = [value("height", time) for time in times]
        if shape_type == "capsule":
            heights = [height + top + bottom for height, (top, bottom) in zip(heights, radii, strict=True)]
        result["height"] = (interpolation, times, heights)
    tapered = any(top != bottom for top, bottom in radii)
    return result, ("its radii differ (tapered): Godot has one radius, the larger is kept" if tapered else None)


def spec_round_keys(shape_type: str, still: Mapping[str, float], keyed: Mapping[str, Keys]) \
        -> tuple[dict[str, Keys], str | None]:
    """The import side of `round_shape_keys`: a shape in Godot's (the old) form, `keyed` by 'radius' and
    'height' (a capsule's full height) and `still` in both, as the spec's ROUND_KEYS channels; or why not."""
    merged = _merged(keyed)
    if isinstance(merged, str):
        return {}, merged
    interpolation, times = merged

    def value(key: str, time: float) -> float:
        return _at(keyed[key], time) if key in keyed else still[key]

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


def old_form(document: Mapping[str, Any], index: int) -> tuple[str, dict[str, float]] | None:
    """(type, still radius and height) of shape `index` of a document when it is written in Godot's (the old)
    form: one `radius`, a capsule's full `height`; its channels are then Godot's too (`is_godot_form`)."""
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


def is_godot_form(document: Mapping[str, Any], pointer: str) -> bool:
    """Whether a pointer is Godot's `radius` or `height` of a capsule or cylinder written in Godot's form
    (which the import reads as the spec's values)."""
    tokens = pointer.split("/")
    index = array_index(tokens[4]) if len(tokens) == 7 and tokens[1:4] == [
        "extensions", SHAPE_EXTENSION, "shapes"] and tokens[6] in ("radius", "height") else None
    form = old_form(document, index) if index is not None else None
    return form is not None and form[0] == tokens[5]
