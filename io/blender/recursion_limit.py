"""Room for Blender's glTF importer and exporter to recurse through a deep node tree.

Both walk the node tree recursively in pure Python: the importer one call per level (building its vnodes
and the objects), the exporter three (its traversal of the gathered nodes), measured on Blender 4.2, 5.0
and 5.2. A hierarchy deeper than Python's recursion limit (1000) then raises RecursionError. Since Python
3.11 a pure-Python call does not use the C stack, so raising the limit for one import or export is safe;
it is put back when the import or export ends (its last hook), or, if it failed before, at the next one
or on the next event-loop turn.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from typing import Any

import bpy

from ..omi.checks import gltf_structure

MAX_DEPTH = gltf_structure.MAX_DEPTH
IMPORT_CALLS_PER_LEVEL = 1
EXPORT_CALLS_PER_LEVEL = 3
SHALLOW = 64  # levels of a tree given room for without walking it (`object_depth`)

_saved_limit: list[int] = []  # the limit before the add-on raised it (empty: not raised)


def allow(levels: int, calls_per_level: int) -> None:
    """Let the importer or exporter recurse `levels` deep (up to gltf_structure.MAX_DEPTH), on top of
    the room Python had before."""
    if not _saved_limit:
        _saved_limit.append(sys.getrecursionlimit())
    needed = _saved_limit[0] + min(levels, MAX_DEPTH) * calls_per_level
    if needed > sys.getrecursionlimit():
        sys.setrecursionlimit(needed)
    if not bpy.app.background and not bpy.app.timers.is_registered(_restore_later):
        bpy.app.timers.register(_restore_later, first_interval=0.0)  # after the operator, even if it failed


def restore() -> None:
    """Python's recursion limit as it was before `allow`."""
    if _saved_limit:
        sys.setrecursionlimit(_saved_limit.pop())


def _restore_later() -> None:
    restore()


def object_depth(objects: Iterable[Any]) -> int:
    """The most levels of the objects' hierarchy (parents, and bones inside armatures), found in linear
    time: the levels of the node tree the glTF exporter walks. A bound read from each object's parent alone
    (every parented object and every bone one level deeper) stands for it up to `SHALLOW` levels, which a
    file without deep trees meets: the exact walk reads names and types, several times the cost on a big
    scene. `objects` is walked twice (a collection such as bpy.data.objects, not an iterator)."""
    parented = sum(1 for obj in objects if obj.parent is not None)
    bound = 1 + parented + sum(len(armature.bones) for armature in bpy.data.armatures)
    if bound <= SHALLOW:
        return bound
    return _deepest(objects, lambda obj: obj.name_full, lambda obj: obj.parent, lambda obj: 1 + _bone_depth(obj))


def _bone_depth(obj: Any) -> int:
    """The depth of an armature's bone tree (0 for other objects)."""
    if obj.type != 'ARMATURE' or obj.data is None:
        return 0
    return _deepest(obj.data.bones, lambda bone: bone.name, lambda bone: bone.parent, lambda _bone: 1)


def _deepest(items: Iterable[Any], key: Callable[[Any], str], parent: Callable[[Any], Any],
             levels: Callable[[Any], int]) -> int:
    """The largest sum of `levels` from an item up to its root; each item counted once (a loop, no recursion)."""
    depth: dict[str, int] = {}
    deepest = 0
    for item in items:
        walk, current = [], item
        while current is not None and key(current) not in depth:
            walk.append(current)
            current = parent(current)
        level = depth[key(current)] if current is not None else 0
        for entry in reversed(walk):
            level += levels(entry)
            depth[key(entry)] = level
        deepest = max(deepest, level)
    return deepest
