"""Animation channels follow a rewrite of the physics: `convert` (OMI <-> KHR) and `upgrade` move values.

A KHR_animation_pointer channel names a value by its place: `/nodes/3/extensions/OMI_physics_joint/...` or
`/extensions/OMI_physics_shape/shapes/1/box/size`. After the physics is written again (in another dialect, or
with its document-level arrays deduplicated anew) the same value sits elsewhere. Each channel is re-pointed
to the value's new place: the same Object Model row in the written dialect (`pointers`), at the node itself
or at the item that the same nodes now reference. An animated item that the writer merged with equal still
ones gets a copy of its own for its users, so that the still ones do not animate too. A channel whose value
has no single place in the result, or is held there with another value (another meaning), is an error
naming the channel; the channel is then left as it was.

A channel whose value the result no longer has at all (a gravity volume the reader dropped, an extension the
output has no place for) is taken out with its sampler (`drop_dangling`), named once per extension.

No bpy here: used by the command-line `convert` and `upgrade`.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from ..dialects import pointers
from ..dialects.base import Dialect
from ..json_types import get
from ..model import Issue


def _row_key(dialect: Dialect, template: pointers.PointerTemplate) -> tuple[str | None, tuple[str, ...]]:
    """What a row means whatever the dialect: its array (or "joint" for the node-level joint) and its path,
    without the `joint/` head under which KHR nests the node-level joint in its body extension."""
    if template.array is None and template.extension == dialect.joint_extension:
        if dialect.joint_extension != dialect.body_extension:
            return "joint", template.path
        if template.path[:1] == ("joint",):
            return "joint", template.path[1:]
    return template.array, template.path


def _rows(dialect: Dialect) -> dict[tuple[str | None, tuple[str, ...]], pointers.PointerTemplate]:
    return {_row_key(dialect, template): template for template in pointers.dialect_rows(dialect)}


def _references(node: Any, extension: str, paths: tuple[tuple[str, ...], ...]) -> set[int]:
    found: set[int] = set()
    for path in paths:
        current = get(get(node, "extensions"), extension)
        for key in path:
            current = get(current, key)
        if isinstance(current, int) and not isinstance(current, bool):
            found.add(current)
    return found


def item_users(document: Mapping[str, Any], dialect: Dialect, array: str, index: int) -> list[int]:
    """The nodes that reference item `index` of a document-level array (shapes, physicsMaterials, joints)."""
    paths = dialect.item_references[array]
    extension = dialect.referencing(array)
    return [position for position, node in enumerate(_nodes(document)) if index in _references(node, extension, paths)]


def item_parts(document: Mapping[str, Any], dialect: Dialect, array: str, index: int) -> list[tuple[int, str]]:
    """(node, part) of every reference to item `index`: the part is the key the reference sits under
    ("collider" or "trigger" for a shape)."""
    extension = dialect.referencing(array)
    return [(position, path[0]) for position, node in enumerate(_nodes(document))
            for path in dialect.item_references[array] if index in _references(node, extension, (path,))]


def _nodes(document: Mapping[str, Any]) -> list[Any]:
    nodes = document.get("nodes")
    return nodes if isinstance(nodes, list) else []


class _Follower:
    """Re-points the channels of one rewritten document (`written`, changed in place)."""

    def __init__(self, source: Mapping[str, Any], source_dialect: Dialect, written: dict[str, Any],
                 target_dialect: Dialect) -> None:
        self.source, self.written = source, written
        self.source_dialect, self.target_dialect = source_dialect, target_dialect
        self.target_rows = _rows(target_dialect)
        self.source_templates = pointers.dialect_rows(source_dialect)
        self.copies: dict[tuple[str, int], int] = {}  # (array, written index) -> the animated copy's index

    def new_pointer(self, pointer: str) -> str | None:
        """The pointer of the same value in the written document, or None when it has no single place."""
        found = pointers.match(pointer, self.source_templates)
        if found is None:
            return None if pointers.match(pointer) is not None else pointer
        target = self.target_rows.get(_row_key(self.source_dialect, found.template))
        if target is None:
            return None
        index = found.index if target.array is None else self._item_index(target.array, found.index)
        if index is None:
            return None
        moved = pointers.PointerMatch(target, index, found.nested)
        exists, value = pointers.resolve(self.written, moved)
        if not exists or value != pointers.resolve(self.source, found)[1]:
            return None
        return pointers.pointer_of(target, index, found.nested)

    def _item_index(self, array: str, index: int) -> int | None:
        """The written item the source item's users now reference; a copy of their own when others share it."""
        source_paths = self.source_dialect.item_references[array]
        target_paths = self.target_dialect.item_references[array]
        source_extension = self.source_dialect.referencing(array)
        target_extension = self.target_dialect.referencing(array)
        source_nodes, nodes = _nodes(self.source), _nodes(self.written)
        users = [position for position, node in enumerate(source_nodes)
                 if index in _references(node, source_extension, source_paths)]
        written = {found for position in users if position < len(nodes)
                   for found in _references(nodes[position], target_extension, target_paths)}
        if len(written) != 1:
            return None
        [written_index] = written
        sharers = [position for position, node in enumerate(nodes)
                   if written_index in _references(node, target_extension, target_paths)]
        if sorted(sharers) == users:
            return written_index
        if (array, written_index) in self.copies:
            return self.copies[(array, written_index)]
        home = self.target_dialect.homes[array]
        items = get(get(self.written, "extensions"), home)
        items = get(items, array)
        if not isinstance(items, list) or not 0 <= written_index < len(items):
            return None
        items.append(copy.deepcopy(items[written_index]))
        copied = len(items) - 1
        for position in users:
            self._repoint(nodes[position], target_extension, target_paths, written_index, copied)
        self.copies[(array, written_index)] = copied
        return copied

    @staticmethod
    def _repoint(node: Any, extension: str, paths: tuple[tuple[str, ...], ...], old: int, new: int) -> None:
        for path in paths:
            current = get(get(node, "extensions"), extension)
            for key in path[:-1]:
                current = get(current, key)
            if isinstance(current, dict) and current.get(path[-1]) == old:
                current[path[-1]] = new


def follow(source: Mapping[str, Any], source_dialect: Dialect, written: dict[str, Any],
           target_dialect: Dialect) -> list[Issue]:
    """Re-point every physics channel of `written` (the rewrite of `source`, in place); an error for each
    channel whose value has no single place in the result (the channel is left as it was)."""
    issues: list[Issue] = []
    follower = _Follower(source, source_dialect, written, target_dialect)
    for at, pointer, _sampler in pointers.channel_pointers(source):
        old = pointers.match(pointer, follower.source_templates)
        if old is None:
            continue  # not the source dialect's: another dialect's channel or no Object Model row (validate says)
        new = follower.new_pointer(pointer)
        where = f"{at}/target/extensions/{pointers.ANIMATION_POINTER_EXTENSION}/pointer"
        if new is None:
            issues.append(Issue(where, f"{pointer} has no single place in the {target_dialect.name} physics (or "
                                       "holds another value there); the channel would animate nothing", "error"))
            continue
        if new != pointer:
            _set_pointer(written, at, new)
    return issues


def _set_pointer(document: dict[str, Any], at: str, pointer: str) -> None:
    _, _animations, animation, _channels, channel = at.split("/")
    target = document["animations"][int(animation)]["channels"][int(channel)]["target"]
    target["extensions"][pointers.ANIMATION_POINTER_EXTENSION]["pointer"] = pointer


def drop_dangling(source: Mapping[str, Any], written: dict[str, Any], output: str) -> list[Issue]:
    """Take out of `written` each physics channel that animated a value of `source` which `written` no longer
    has (a volume the reader dropped, an extension the output has no place for): it would animate nothing
    (invalid glTF; engines refuse it). One error per extension names how many and the first; `output` is
    what the caller calls the written document."""
    found: dict[str, list[tuple[str, str]]] = {}
    used = written.get("extensionsUsed")
    used = used if isinstance(used, list) else []
    for at, pointer, _sampler in pointers.channel_pointers(written):
        tokens = pointer.split("/")
        extension = tokens[tokens.index("extensions") + 1]
        matched = pointers.match(pointer)
        if extension not in used or (matched is not None and pointers.resolve(source, matched)[0]
                                     and not pointers.resolve(written, matched)[0]):
            found.setdefault(extension, []).append((at, pointer))
    drop_channels(written, [at for where in found.values() for at, _pointer in where])
    issues = []
    for extension, where in found.items():
        place = (f" at values the {output} does not have (first: {where[0][1]})"
                 if extension in used else f", which the {output} does not have")
        issues.append(Issue(f"{where[0][0]}/target/extensions/{pointers.ANIMATION_POINTER_EXTENSION}/pointer",
                            f"{len(where)} animation channel(s) point into {extension}{place}: the channels are "
                            "dropped too (they would animate nothing)", "error"))
    return issues


def drop_channels(document: dict[str, Any], locations: list[str]) -> None:
    """Take the channels at `locations` ('/animations/A/channels/C') out of the document, with the samplers
    only they used; an animation left without channels goes too (glTF wants at least one)."""
    doomed: dict[int, set[int]] = {}
    for at in locations:
        _, _animations, animation, _channels, channel = at.split("/")
        doomed.setdefault(int(animation), set()).add(int(channel))
    animations = document.get("animations")
    if not isinstance(animations, list):
        return
    for index, channels in doomed.items():
        animation = animations[index]
        kept = [channel for position, channel in enumerate(animation["channels"]) if position not in channels]
        used = sorted({channel.get("sampler") for channel in kept if isinstance(channel.get("sampler"), int)})
        samplers = animation.get("samplers")
        if isinstance(samplers, list) and all(0 <= position < len(samplers) for position in used):
            renumbered = {old: new for new, old in enumerate(used)}
            for channel in kept:
                if isinstance(channel.get("sampler"), int):
                    channel["sampler"] = renumbered[channel["sampler"]]
            animation["samplers"] = [samplers[old] for old in used]
        animation["channels"] = kept
    document["animations"] = [animation for animation in animations if animation.get("channels") != []]
    if not document["animations"]:
        del document["animations"]
    if not pointers.channel_pointers(document) and not any(
            get(get(channel, "target"), "path") == "pointer" for animation in document.get("animations") or []
            for channel in get(animation, "channels") or []):
        for key in ("extensionsUsed", "extensionsRequired"):
            names = document.get(key)
            if isinstance(names, list) and pointers.ANIMATION_POINTER_EXTENSION in names:
                names.remove(pointers.ANIMATION_POINTER_EXTENSION)
