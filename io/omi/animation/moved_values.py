"""The physics of one document with an animated value moved at its pointer, for the animation import.

The document is read once (`rest`). A joint's limit or drive value moved is that model with the one joint
settings item read again by the reader's own item reading (`ItemReader.read_joint_settings`, so bounds,
defaults and rules stay the reader's) in every joint node using it: no document read. Any other moved value
(or a document the reader does not read as one dialect as written: several dialects, a known writer's form)
is the document with only the containers on the pointer's way copied, read by the one reader; the last few
read are kept: finding a channel's settings asks for its nudged value and its keys' extremes more than once.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from ..dialects import pointers, registry
from ..dialects.base import Dialect
from ..json_types import get, sequence_items
from ..model import PhysicsDocument
from ..read import known_generators, reader
from ..read.items import ItemReader
from ..write import channel_follow

KEPT = 4


def with_value(document: Mapping[str, Any], found: pointers.PointerMatch, value: Any) -> dict[str, Any]:
    """A copy of the document with the value at the pointer (only the containers on its way are copied)."""
    tokens = pointers.split(pointers.pointer_of(found.template, found.index, found.nested)) or []
    out = dict(document)
    current: Any = out
    for token in tokens[:-1]:
        key: Any = int(token) if isinstance(current, list) else token
        child = copy.copy(current[key])
        current[key] = child
        current = child
    current[tokens[-1]] = value
    return out


def plain(numbers: Sequence[float], kind: str) -> Any:
    """A channel's numbers as the JSON value of an Object Model type (a number or a list)."""
    return numbers[0] if pointers.COMPONENTS[kind] == 1 else list(numbers)


class MovedValues:
    """A document, its physics read once, and its physics with one value moved (read when first asked)."""

    def __init__(self, document: Mapping[str, Any], rest: PhysicsDocument | None = None) -> None:
        self.document = document
        self.rest = rest if rest is not None else reader.read_document(document)
        self._read: dict[tuple[str, tuple[float, ...]], PhysicsDocument] = {}
        self._users: dict[int, list[int]] = {}  # joint settings item -> the nodes using it
        self._dialect: list[Dialect | None] = []  # the one dialect the document is read in as written (found once)

    def at(self, found: pointers.PointerMatch, numbers: Sequence[float]) -> PhysicsDocument:
        key = (pointers.pointer_of(found.template, found.index, found.nested), tuple(numbers))
        physics = self._read.get(key)
        if physics is None:
            moved = with_value(self.document, found, plain(numbers, found.template.type))
            physics = self._joint_moved(found, moved) or reader.read_document(moved)
            if len(self._read) >= KEPT:
                del self._read[next(iter(self._read))]
            self._read[key] = physics
        return physics

    def _single_dialect(self) -> Dialect | None:
        """The dialect tables the reader reads this document in, when it reads it in one, as written."""
        if not self._dialect:
            used = registry.dialects_used(self.document)
            as_written = known_generators.as_written(self.document)[0] is self.document
            self._dialect.append(registry.get(next(iter(used))).tables if len(used) == 1 and as_written else None)
        return self._dialect[0]

    def _joint_moved(self, found: pointers.PointerMatch, moved: Mapping[str, Any]) -> PhysicsDocument | None:
        """The physics with a joint settings item's value moved, from the model read once; None where that is
        not sure to be the reader's reading of the whole moved document."""
        template, dialect = found.template, self._single_dialect()
        if template.array != "physicsJoints" or template.part not in ("limit", "drive") or dialect is None \
                or dialect.homes.get("physicsJoints") != template.extension:
            return None
        users = self._users.get(found.index)
        if users is None:
            users = self._users[found.index] = channel_follow.item_users(self.document, dialect, "physicsJoints",
                                                                         found.index)
        items = ItemReader([], len(sequence_items(get(self.document, "meshes"))), lambda _name, _at: None, dialect)
        at = f"/extensions/{template.extension}/physicsJoints/{found.index}"
        before = items.read_joint_settings(_item(self.document, template.extension, found.index), at)
        after = items.read_joint_settings(_item(moved, template.extension, found.index), at)
        nodes = dict(self.rest.nodes)
        for index in users:
            node = nodes.get(index)
            if after is None or node is None or node.joint is None or node.joint.settings != before:
                return None  # the rest's joint is not this item as read: the whole reading decides
            nodes[index] = dataclasses.replace(node, joint=dataclasses.replace(node.joint, settings=after))
        return dataclasses.replace(self.rest, nodes=nodes, issues=[])


def _item(document: Mapping[str, Any], extension: str, index: int) -> Any:
    items = sequence_items(get(get(get(document, "extensions"), extension), "physicsJoints"))
    return items[index] if 0 <= index < len(items) else None
