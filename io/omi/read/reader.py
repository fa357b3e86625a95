"""glTF JSON -> the data model, in any registered dialect: the reader's entry.

`read_document` asks the registry (`dialects/registry.py`) for the dialect a document uses (or the one
named) and runs that dialect's reading (`read/omi.py` for every OMI revision, `read/khr.py`, ...), then
the reading of each extension unit the dialect carries. Everything invalid is dropped with an Issue and
everything valid is kept. `read_document` never raises: the input is narrowed through `json_types` and
checked with `rules`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..dialects import builtin, pointers, registry, unknown_keys  # builtin: the built-in units registered
from ..json_types import get, sequence_items
from ..model import Issue, PhysicsDocument
from . import mixed

INTERNAL_ERROR = "internal reader error"


def read_document(gltf: Mapping[str, Any], dialect: str | None = None, *, tree_mended: bool = False) -> PhysicsDocument:
    """The physics of a glTF document (already parsed JSON), with every problem as an Issue.

    dialect: a registered dialect's name; None reads the one the document uses (a document holding several
    is read in each, node by node: `read.mixed`, the default dialect first). tree_mended: the node tree has
    been checked and mended already (`gltf_structure`, the import's repair, which reported each link it
    dropped): the reader's own hierarchy is made only when a rule needs it.
    """
    if dialect is None:
        used = registry.dialects_used(gltf)
        if len(used) > 1:  # two today (OMI and KHR): the default's nodes, then the other's
            home, other = [name for name in registry.read_order() if name in used][:2]
            return mixed.read_both(gltf, lambda one, name: read_document(one, name, tree_mended=tree_mended), home,
                                   other)
    doc = PhysicsDocument()
    named = registry.get(dialect) if dialect is not None else None  # an unknown name is the caller's error
    try:
        unit = named or registry.get(registry.document_dialect(gltf))
        shapes = unit.read(gltf, doc, unit.tables, tree_mended)
        present = extensions_present(gltf)
        for extension in registry.extension_units():  # another dialect's nodes may carry it too (KHR triggers)
            if extension.name in present:
                extension.read(gltf, doc, shapes if extension.dialect == unit.name else ())
    except Exception as error:  # last resort: a reader bug must not break an import
        doc.nodes.clear()
        doc.warn("", f"{INTERNAL_ERROR} ({type(error).__name__}: {error}); physics not read", "error")
    return doc


def extensions_present(gltf: Mapping[str, Any]) -> set[str]:
    """The extension names the document holds, on itself or on any node: an extension unit that finds none
    has nothing to read, and each unit's reading walks every node (one walk here instead)."""
    root = get(gltf, "extensions")
    found = set(root) if isinstance(root, Mapping) else set()
    for node in sequence_items(get(gltf, "nodes")):
        extensions = get(node, "extensions")
        if isinstance(extensions, Mapping):
            found.update(extensions)
    return found


def validate(gltf: Mapping[str, Any]) -> list[Issue]:
    """Every rule violation in a glTF document: the issues of reading it, and of its animation channels that
    target physics values (KHR_animation_pointer, `pointers.check_animation`)."""
    return read_document(gltf).issues + pointers.check_animation(gltf)


def kept_key_findings(document: Any) -> list[Issue]:
    """A warning for every key of an OMI object that the model does not read (kept on import and export):
    the reader's findings of this kind (`unknown_keys`)."""
    return [found for found in read_document(document, builtin.OMI.name).issues if found.kind == unknown_keys.KIND]
