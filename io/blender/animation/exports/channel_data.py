"""One exported physics channel, as sampling makes it (`sample`) and the glTF writing places it (`gltf_write`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import bpy

from ....omi.dialects import pointers


@dataclass
class ChannelData:
    """One exported channel: where it points (node placeholder or item index), its keys and its object."""

    obj: bpy.types.Object
    anchor: Any  # the animated object's own glTF node
    template: pointers.PointerTemplate
    node: Any  # the glTF node for node-level pointers (index resolved in finish), else None
    index: int  # document array index for item pointers (0 until the export has written its items)
    nested: tuple[int, ...]
    interpolation: str
    times: list[float]
    values: list[list[float]]  # per key; CUBICSPLINE: in-tangent, value, out-tangent per key
    target: Any = None  # the AnimationChannelTarget once attached
    home: tuple[Any, Any] | None = None  # (animation, channel) once attached
    khr_channel: Any = None  # its twin pointing at the KHR spelling (export dialect KHR or both)
    still: dict[str, Any] | None = None  # the written values of its item's other pointers (template text -> value)
    item: tuple[list[tuple[str, int]], int] | None = None  # an item's (written refs, position) until it is placed

    def pointer(self, node_index: int = 0) -> str:
        """The channel's pointer; a node-level one names `node_index` (0 stands in until `finish`)."""
        return pointers.pointer_of(self.template, self.index if self.node is None else node_index, self.nested)
