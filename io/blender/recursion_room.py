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
from collections.abc import Iterable
from typing import Any

import bpy

from ..omi import gltf_structure

MAX_DEPTH = gltf_structure.MAX_DEPTH
IMPORT_CALLS_PER_LEVEL = 1
EXPORT_CALLS_PER_LEVEL = 3

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
    time: the levels of the node tree the glTF exporter walks."""
    depth: dict[str, int] = {}
    deepest = 0
    for obj in objects:
        walk, current = [], obj
        while current is not None and current.name_full not in depth:
            walk.append(current)
            current = current.parent
        level = depth[current.name_full] if current is not None else 0
        for item in reversed(walk):
            level += 1 + _bone_depth(item)
            depth[item.name_full] = level
        deepest = max(deepest, level)
    return deepest


def _bone_depth(obj: Any) -> int:
    """The depth of an armature's bone tree (0 for other objects)."""
    if obj.type != 'ARMATURE' or obj.data is None:
        return 0
    depth: dict[str, int] = {}
    for bone in obj.data.bones:
        walk, current = [], bone
        while current is not None and current.name not in depth:
            walk.append(current)
            current = current.parent
        level = depth[current.name] if current is not None else 0
        for item in reversed(walk):
            level += 1
            depth[item.name] = level
    return max(depth.values(), default=0)
