"""The physics JSON put into the exporter's finished document, past the exporter's conversion passes.

Blender's glTF exporter converts every node's extensions to plain JSON twice (`to_dict`) and rebuilds them
twice more in its clean-up (`__fix_json`), value by value; for a level's bodies that cost as much as the
rest of the export. The physics is plain JSON already, and `exporter_form.settle` puts it in the form
those passes give it. So once the export session has finished it on the exporter's objects (placeholders
resolved, further dialects and the target's form applied), it takes it off them again (`detach`) and puts
it into the document the exporter is about to encode (`attach`, from the encoded hook): where the passes
would have left it, in the same order, so the file is the same text.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, cast

from . import exporter_form

# The node keys the exporter writes before "extensions" (gltf2_io.Node.to_dict's order).
_BEFORE_EXTENSIONS = ("camera", "children")
_ANY_BEFORE = frozenset(_BEFORE_EXTENSIONS)


@dataclass(frozen=True)
class Detached:
    """Physics JSON taken off the exporter's objects: (node index, {extension name: content}) for each of the
    exporter's nodes that had some, the nodes the physics added (they come last), the document-level
    extensions, and extensionsUsed as it stood, in order."""

    nodes: list[tuple[int, dict[str, Any]]]
    new_nodes: list[dict[str, Any]]
    document: dict[str, Any]
    used: list[str]


def _settled(content: Any, settled: set[int] | None = None) -> bool:
    return type(content) is dict and bool(content) and exporter_form.settle(content, settled)


def _numbers(values: list[float]) -> list[float]:
    return [int(value) if type(value) is float and value.is_integer() else value for value in values]


def _node_json(node: Any) -> dict[str, Any] | None:
    """A node the physics added, as the exporter's passes would write it (the keys in `Node.to_dict`'s
    order; None values and empty lists left out); None when it holds something those nodes never do."""
    if node.extras is not None or node.matrix or node.camera is not None:
        return None
    written: dict[str, Any] = {}
    if node.children:
        written["children"] = list(node.children)
    if node.extensions:
        if not all(_settled(content) for content in node.extensions.values()):
            return None
        written["extensions"] = dict(node.extensions)
    for key in ("mesh", "name", "rotation", "scale", "skin", "translation", "weights"):
        value = getattr(node, key)
        if isinstance(value, list):
            if value:
                written[key] = _numbers(value)
        elif value is not None:
            written[key] = value
    return written


def detach(gltf: Any, names: Iterable[str], first_new: int) -> Detached | None:
    """Take the extensions `names` off the exporter's nodes and document, and the nodes from `first_new` on
    (those the physics added) off its node list. None, with nothing taken, when some of that JSON is not in
    the form the exporter's passes would give it (`exporter_form.settle`): the exporter then writes it as it
    always has."""
    wanted = frozenset(names)
    all_nodes = gltf.nodes or []
    nodes = []
    for index, node in enumerate(all_nodes[:first_new]):
        extensions = node.extensions
        if extensions and not wanted.isdisjoint(extensions):
            # a node whose extensions are all physics (most) gives its dict away whole
            nodes.append((index, extensions if wanted.issuperset(extensions) else
                          {name: content for name, content in extensions.items() if name in wanted}))
    document = {name: content for name, content in (gltf.extensions or {}).items() if name in wanted}
    contents = [content for _index, taken in nodes for content in taken.values()]
    contents.extend(document.values())
    new_nodes = [_node_json(node) for node in all_nodes[first_new:]]
    settled: set[int] = set()  # the containers nodes share, settled once
    if not all(_settled(content, settled) for content in contents) or None in new_nodes:
        return None
    for index, taken in nodes:
        node = all_nodes[index]
        if node.extensions is taken:
            node.extensions = {}
            continue
        for name in taken:
            del node.extensions[name]
    for name in document:
        del gltf.extensions[name]
    del all_nodes[first_new:]
    return Detached(nodes, cast("list[dict[str, Any]]", new_nodes), document, list(gltf.extensions_used or ()))


def attach(document: dict[str, Any], detached: Detached) -> None:
    """Put the detached JSON into the exporter's finished `document` where its passes would have left it."""
    nodes = document.setdefault("nodes", [])
    nodes.extend(detached.new_nodes)
    for index, taken in detached.nodes:
        node = nodes[index]
        extensions = node.get("extensions")
        if extensions is not None:
            extensions.update(taken)
            continue
        if not _ANY_BEFORE.isdisjoint(node):
            placed = {key: node[key] for key in _BEFORE_EXTENSIONS if key in node}
            placed["extensions"] = taken
        else:  # (most nodes: the extensions come first)
            placed = {"extensions": taken}
        placed.update(node)  # the other keys after it, in their order
        nodes[index] = placed
    if detached.document:
        document.setdefault("extensions", {}).update(detached.document)
    present = {name for _index, taken in detached.nodes for name in taken} | set(detached.document)
    present.update(name for node in detached.new_nodes for name in node.get("extensions", ()))
    kept = document.get("extensionsUsed") or []
    known = set(detached.used)
    used = [name for name in detached.used if name in present or name in kept]
    used.extend(name for name in kept if name not in known)  # declared by the exporter after the physics
    if used:
        document["extensionsUsed"] = used
