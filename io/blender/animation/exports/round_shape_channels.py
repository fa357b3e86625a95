"""A target's capsule and cylinder channels in its shape form (`Target.round_shape_channels`: the `godot`
targets write one radius and a capsule's full height), on the export's sampled channels.

Godot 4.6 plays a shape's channels in the form the target writes the shape (omi/targets/godot.py):
`godot_channels.round_shape_keys` turns the sampled `radiusTop`, `radiusBottom` and `height` channels of a
shape into its `radius` and `height` channels, before they are attached to the document (`gltf_write.attach`).
"""

from __future__ import annotations

import dataclasses

from ....omi import model
from ....omi.dialects import registry
from ....omi.model import Issue
from ....omi.targets import godot_channels
from .channel_data import ChannelData

KIND = "godot.round_channels"


def rewrite(data: list[ChannelData]) -> list[Issue]:
    """Replace, in place, each round shape's channels by Godot's; a warning per reason a shape's are left."""
    groups: dict[int, list[ChannelData]] = {}
    shapes = registry.default().tables.shape_extension  # the dialect the channels were sampled in
    for channel in data:
        path = channel.template.path
        if channel.template.extension == shapes and channel.template.array == "shapes" \
                and len(path) == 2 and path[0] in model.ROUND_SHAPE_TYPES and path[1] in godot_channels.ROUND_KEYS:
            groups.setdefault(channel.index, []).append(channel)
    left: dict[str, list[str]] = {}
    for index, channels in groups.items():
        first = channels[0]
        shape_type = first.template.path[0]
        head = first.template.text.rsplit("/", 1)[0]
        still = {key: float((first.still or {}).get(f"{head}/{key}", 0.0)) for key in godot_channels.ROUND_KEYS}
        keyed = {channel.template.path[1]: (channel.interpolation, channel.times,
                                            [values[0] for values in channel.values]) for channel in channels}
        if len(keyed) < len(channels) or any(channel.template.path[0] != shape_type for channel in channels):
            continue
        rewritten, reason = godot_channels.round_shape_keys(shape_type, still, keyed)
        if rewritten:
            for channel in channels:
                data.remove(channel)
            for key, (interpolation, times, values) in rewritten.items():
                template = dataclasses.replace(first.template, path=(shape_type, key), field=None)
                data.append(dataclasses.replace(first, template=template, interpolation=interpolation,
                                                times=times, values=[[value] for value in values]))
        if reason is not None:
            left.setdefault(reason, []).append(f"{first.obj.name} (shape {index})")
    return [Issue("", f"capsule and cylinder channels not in Godot's form ({reason}): {', '.join(names)}",
                  "warning", KIND) for reason, names in left.items()]
