"""One node the export writes for an animated object, as the sampling (`sample`) follows it: the values its
F-curves feed, its items as checked while the export gathers and as written once everything is gathered."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import bpy

from ....omi import model
from ..curves import Channel
from . import direct

Snapshot = dict[tuple[Any, str, tuple[int, ...]], Any]  # (item position or "node", pointer text, nested) -> value


@dataclass
class Tracker:
    """One node written for an animated object: its part, its items (as checked before the export writes them,
    and as written) and the rest snapshot."""

    node: Any
    obj: bpy.types.Object
    anchor: Any  # the object's own glTF node: its animation receives the channels
    part: model.NodePhysics
    derive: Callable[[bpy.types.Object], Any]  # object -> the export's derived physics, quietly
    reversed_joint: bool
    channels: list[Channel]
    rest: Snapshot = field(default_factory=dict)
    feeds: dict[tuple, list[Channel]] = field(default_factory=dict)
    refs: list[tuple[str, int]] = field(default_factory=list)  # (array, index) in `preview` of each item
    preview: dict[str, list[dict]] = field(default_factory=dict)  # the items as checked (`written`)
    final_refs: list[tuple[str, int]] = field(default_factory=list)  # (array, index) in the written document
    unique: set[int] = field(default_factory=set)
    direct: dict[tuple, direct.Mapped] = field(default_factory=dict)  # F-curves the settings table maps

    def ref_into(self, refs: list[tuple[str, int]]) -> Callable[[Callable[..., int]], Callable[[str, dict], int]]:
        """The `ref` to write the node with, over an item allocator, noting each item into `refs`: an item the
        object's own F-curves feed gets an entry of its own (never merged with a still one that starts equal)."""
        def over(items_ref: Callable[..., int]) -> Callable[[str, dict], int]:
            def ref(kind: str, item: dict) -> int:
                index = items_ref(kind, item, unique=len(refs) in self.unique)
                refs.append((kind, index))
                return index
            return ref
        return over


def item_key(tracker: Tracker, position: Any) -> Any:
    """What tells one written item from another before the export writes them: the item's text (the writer
    stores equal items once), an item of the object's own (written apart) by its tracker."""
    if position == "node":
        return 0
    if position in tracker.unique:
        return ("own", id(tracker), position)
    kind, index = tracker.refs[position]
    return (kind, repr(tracker.preview[kind][index]))
