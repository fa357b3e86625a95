"""Convert a document's physics between dialects (OMI of any revision <-> KHR, any registered), touching
nothing else.

`convert` reads the physics in the dialect the document uses (or `source`), writes it for `target` (an
export target of the registry: each of its dialects, then its form) and removes every other
dialect's extensions; everything outside the physics extensions is kept as it was
(as `write_document` promises). Each value one side cannot hold is an Issue with its pointer: found
while reading (e.g. a KHR plane read as a box, an infinite mass) or while writing (e.g. an OMI static
motion's mass). `lost` lists those that change meaning (warnings and errors), so a caller can refuse to
write unless forced.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..checks import rulebook, value_losses
from ..dialects import builtin, registry  # noqa: F401 - builtin: the built-in units registered
from ..model import Issue
from ..read.reader import read_document
from . import channel_follow
from .channel_rewrite import ReadBuffer
from .target_form import apply_json
from .writer import write_document


def targets() -> tuple[str, ...]:
    """What `convert` writes: the registry's export targets (one dialect, several, or an engine's layout)."""
    return tuple(target.name for target in registry.targets())


@dataclass
class Conversion:
    document: dict[str, Any]
    source: str
    target: str
    issues: list[Issue] = field(default_factory=list)

    @property
    def lost(self) -> list[Issue]:
        """What changes meaning: values one dialect cannot hold, and values unusable in the source (errors)."""
        return [found for found in self.issues if found.severity == "error" or rulebook.is_dialect_loss(found)]


def convert(gltf: Mapping[str, Any], target: str, source: str | None = None,
            read_buffer: ReadBuffer | None = None) -> Conversion:
    """The document with its physics rewritten from `source` (default: the one it uses) for `target`;
    `read_buffer` reads the file's buffers where the target's form rewrites channels (None: data: URIs)."""
    if target not in targets() or (source is not None and source not in registry.names()):
        raise ValueError(f"targets are {', '.join(targets())}; dialects are {', '.join(registry.names())}")
    chosen = registry.target(target)
    source = source or registry.document_dialect(gltf)
    doc = read_document(gltf, source)
    issues = list(doc.issues)
    written = write_document(doc, gltf, chosen.dialects, clear=registry.names(), issues=issues)
    written_tables = registry.get(chosen.dialects[0]).tables  # channels move with the values
    for name in chosen.dialects:
        issues += value_losses.left_to_engine(doc, registry.get(name).tables)
    issues += channel_follow.follow(gltf, registry.get(source).tables, written, written_tables)
    issues += channel_follow.drop_dangling(gltf, written, f"{chosen.label} output")
    issues += apply_json(written, chosen.form, read_buffer)
    return Conversion(written, source, target, issues)
