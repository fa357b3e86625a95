"""Convert a document's physics between dialects (OMI of any revision <-> KHR), touching nothing else.

`convert` reads the physics in the dialect the document uses (or `source`), writes it in `target` and
removes the source dialect's extensions; everything outside the physics extensions is kept as it was
(as `write_document` promises). Each value one side cannot hold is an Issue with its pointer: found
while reading (e.g. a KHR plane read as a box, an infinite mass) or while writing (e.g. an OMI static
motion's mass). `lost` lists those that change meaning (warnings and errors), so a caller can refuse to
write unless forced.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..checks import rules
from ..dialects.base import OMI, document_dialect
from ..dialects.khr import KHR
from ..model import Issue
from ..read.reader import read_document
from . import channel_follow
from .writer import write_document

DIALECTS = ("OMI", "KHR")


@dataclass
class Conversion:
    document: dict[str, Any]
    source: str
    target: str
    issues: list[Issue] = field(default_factory=list)

    @property
    def lost(self) -> list[Issue]:
        """What changes meaning: values one dialect cannot hold, and values unusable in the source (errors)."""
        return [found for found in self.issues if found.severity == "error" or rules.is_dialect_loss(found)]


def convert(gltf: Mapping[str, Any], target: str, source: str | None = None) -> Conversion:
    """The document with its physics rewritten from `source` (default: the one it uses) into `target`."""
    if target not in DIALECTS or (source is not None and source not in DIALECTS):
        raise ValueError(f"dialects are {', '.join(DIALECTS)}")
    source = source or document_dialect(gltf)
    doc = read_document(gltf, source)
    issues = list(doc.issues)
    written = write_document(doc, gltf, (target,), clear=DIALECTS, issues=issues)
    tables = {"OMI": OMI, "KHR": KHR}
    issues += channel_follow.follow(gltf, tables[source], written, tables[target])  # channels move with values
    return Conversion(written, source, target, issues)
