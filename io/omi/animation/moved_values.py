"""The physics of one document with an animated value moved at its pointer, for the animation import.

The document is read once (`rest`); a moved value is the document with only the containers on the pointer's
way copied, read by the one reader (so bounds, defaults and rules stay the reader's). The last few moved values
read are kept: finding a channel's settings asks for its nudged value and its keys' extremes more than once.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from ..dialects import pointers
from ..model import PhysicsDocument
from ..read import reader

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

    def at(self, found: pointers.PointerMatch, numbers: Sequence[float]) -> PhysicsDocument:
        key = (pointers.pointer_of(found.template, found.index, found.nested), tuple(numbers))
        physics = self._read.get(key)
        if physics is None:
            physics = reader.read_document(with_value(self.document, found, plain(numbers, found.template.type)))
            if len(self._read) >= KEPT:
                del self._read[next(iter(self._read))]
            self._read[key] = physics
        return physics
