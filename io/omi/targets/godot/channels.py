"""The `godot` targets' physics channels, in the form Godot 4 plays them: LINEAR or STEP (`LINEAR`: its
importer rejects a CUBICSPLINE sampler), and capsules and cylinders in the form the targets write them.

They write capsules and cylinders in the one-radius form (`engine_form.godot_shape`), and Godot 4.6 plays a shape's
channels as that form: `round_shape_keys` turns the channels of `radiusTop`, `radiusBottom` and `height`
(each keyed or still) into the `radius` and `height` channels, the keys of both on the union of their times
(exact for LINEAR and for STEP keys; a tapered radius takes the larger): `ROUND_CHANNELS`, a part of the
target's form.
"""

from __future__ import annotations

from collections.abc import Mapping

from ... import model
from ...animation.one_radius import ROUND_KEYS, sampled
from ...dialects.omi import SHAPE_EXTENSION
from ..form import ChannelRewrite, Keys, LinearSamplers


def round_shape_keys(shape_type: str, still: Mapping[str, float], keyed: Mapping[str, Keys]) \
        -> tuple[dict[str, Keys], str | None]:
    """Godot's channels ('radius', 'height') of a capsule or cylinder whose `keyed` values (of ROUND_KEYS)
    are animated and the others `still` (all three given there); or none and why they cannot be."""
    found = sampled(keyed, still)
    if isinstance(found, str):
        return {}, found
    interpolation, times, value = found
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


ROUND_CHANNELS = ChannelRewrite(
    SHAPE_EXTENSION, "shapes", frozenset(model.ROUND_SHAPE_TYPES), ROUND_KEYS, round_shape_keys,
    "capsule and cylinder channels", "Godot's form",
    "one `radius`; a capsule's `height` the full height, its radii added", "godot.round_channels")

LINEAR = LinearSamplers("Godot 4", "godot.linear_samplers")
