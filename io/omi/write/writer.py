"""Model -> glTF JSON: whole documents, in any registered dialect (and the per-node and per-item writers).

The per-item functions (shapes, materials, filters, joint settings, motion) are in `write/items.py`,
driven by the dialect tables, and OMI's `node_extensions` in `write/omi.py`; they are re-exported here.
A dialect's node writer (`registry.DialectUnit.write_node`) hands every document-level item (shape,
physics material, collision filter, joint settings) to a `ref` callback that decides what stands for its
index, and every node or mesh reference to `node_ref`/`mesh_ref`. `write_document` below deduplicates
equal items into arrays (compared as canonical JSON) and maps references to the document's own indices.
The glTF export hook (io/blender/export/physics.py) resolves indices itself: its `ref` also deduplicates
into arrays of its own and returns ints, and its node/mesh references are placeholders that it replaces
with the exporter's indices once every node and mesh has one, before it writes the arrays and
extensionsUsed.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from .. import model
from ..dialects import builtin, registry, unknown_keys  # noqa: F401 - builtin: the built-in units registered
from ..dialects.base import Dialect, explicit_shape_default
from ..dialects.omi import OMI
from ..json_types import report
from ..model import Issue, MeshRef, NodeRef, PhysicsDocument
from ..units.common import said_once
from ..units.node_unit import LOSS_KIND
from .items import (
    drive_to_json,
    filter_to_json,
    joint_settings_to_json,
    limit_to_json,
    material_to_json,
    motion_to_json,
    shape_to_json,
)
from .omi import node_extensions

Ref = Callable[[str, dict[str, Any]], Any]

__all__ = ["ItemArrays", "drive_to_json", "filter_to_json", "joint_settings_to_json", "limit_to_json",
           "material_to_json", "motion_to_json", "node_extensions", "shape_to_json", "write_document"]


# --- whole document ------------------------------------------------------------------------------

class ItemArrays:
    """Document-level arrays filled by `ref(kind, item)`, equal items stored once; `ref` returns the index.

    The one deduplication of the writer and of the glTF export hook (io/blender/export/physics.py).
    Items are compared by `repr`: the writer builds every item of a kind with its keys in one fixed
    order, so the text is canonical (floats print exactly), found in O(1), and works for items holding
    placeholders (the export hook's node and mesh slots print as their own identity). With
    `explicit_empty_shapes`, a shape whose per-type object is empty states its first default instead
    (`dialects.explicit_shape_default`): Blender's exporter drops empty dicts, which the schema needs.
    `by_extension` says where each array lives in the dialect.
    """

    def __init__(self, *, explicit_empty_shapes: bool = False, dialect: Dialect = OMI) -> None:
        self.dialect = dialect
        self.homes = {**dialect.homes, **registry.array_homes(dialect.name)}  # extension units' arrays too
        self.arrays: dict[str, list[dict[str, Any]]] = {kind: [] for kind in self.homes}
        self._seen: dict[tuple[str, str], int] = {}
        self._explicit_empty_shapes = explicit_empty_shapes

    def ref(self, kind: str, item: dict[str, Any]) -> int:
        if self._explicit_empty_shapes and kind == "shapes":
            item = explicit_shape(item, self.dialect)
        key = (kind, repr(item))
        index = self._seen.get(key)
        if index is None:
            index = self._seen[key] = len(self.arrays[kind])
            self.arrays[kind].append(item)
        return index

    def by_extension(self) -> dict[str, dict[str, list[dict[str, Any]]]]:
        """{extension: {array key: items}} for the non-empty arrays, in the dialect's order."""
        found: dict[str, dict[str, list[dict[str, Any]]]] = {}
        for extension in dict.fromkeys(self.homes.values()):
            content = {kind: self.arrays[kind] for kind, home in self.homes.items() if home == extension
                       and self.arrays[kind]}
            if content:
                found[extension] = content
        return found


def explicit_shape(item: dict[str, Any], dialect: Dialect = OMI) -> dict[str, Any]:
    """A shapes[] entry whose empty per-type object states the type's first default value instead."""
    shape_type = item.get("type")
    if not isinstance(shape_type, str) or item.get(shape_type):
        return item
    stated = explicit_shape_default(shape_type, dialect)
    return {**item, shape_type: stated} if stated else item


def _clean_node_extensions(node: dict[str, Any], names: tuple[str, ...]) -> None:
    extensions = node.get("extensions")
    if not isinstance(extensions, dict):
        return
    touched = False
    for name in names:
        if name in extensions:
            del extensions[name]
            touched = True
    if touched and not extensions:
        del node["extensions"]


def _set_document_extension(gltf: dict[str, Any], name: str, arrays: dict[str, list[dict[str, Any]]],
                            keys: Iterable[str], unknown: model.Unknown | None = None, *, dialect: Dialect = OMI,
                            issues: list[Issue] | None = None) -> bool:
    """Replace the arrays of one document-level extension, keep its `extensions`/`extras` and write the
    document's kept keys of it (`unknown`, never over an array); True if written. Kept keys are not written
    into an extension whose required array (`Dialect.required_arrays`) the export has nothing for: that
    would fail the schema, so each is named instead."""
    extensions = gltf.get("extensions") if isinstance(gltf.get("extensions"), dict) else None
    previous = extensions.get(name) if extensions is not None else None
    kept = {key: value for key, value in previous.items() if key in ("extensions", "extras")} \
        if isinstance(previous, dict) else {}
    keys = tuple(keys)
    content = {key: arrays[key] for key in keys if arrays.get(key)}
    put_document_unknown(content, name, unknown, dialect, issues)
    if not content:
        if extensions is not None:
            extensions.pop(name, None)
        return False
    if extensions is None:
        extensions = gltf["extensions"] = {}
    extensions[name] = {**content, **kept}
    return True


def put_document_unknown(content: dict[str, Any], name: str, unknown: model.Unknown | None, dialect: Dialect = OMI,
                         issues: list[Issue] | None = None) -> None:
    """Write the kept document-level keys of extension `name` into its `content` (never over a key there), unless
    the extension lacks an array the schema requires of it (`Dialect.required_arrays`): then each is named."""
    needed = [key for key in dialect.arrays_of(name) if key in dialect.required_arrays and not content.get(key)]
    for key, value in (unknown.fresh() if unknown else {}).items():
        if needed:
            report(issues, ("extensions", name, key), f"{name} key {key!r} kept from the file is not written: the "
                   f"schema wants `{needed[0]}` in that extension and the export has none", "warning")
        else:
            content.setdefault(key, value)


def write_document(doc: PhysicsDocument, gltf: Mapping[str, Any], dialects: Sequence[str] | None = None, *,
                   clear: Iterable[str] | None = None, issues: list[Issue] | None = None,
                   copy: bool = True) -> dict[str, Any]:
    """A deep copy of `gltf` whose physics is `doc`, written in `dialects` (registered names, in order;
    default: the default dialect); nothing else changes. The extensions of the dialects in `clear`
    (default: those written) are replaced; what a dialect cannot hold is reported in `issues` with the
    node's pointer. `copy=False` writes into `gltf` itself (a caller's own scratch document, e.g. the
    export hook's view of its nodes)."""
    start = len(issues) if issues is not None else 0
    units = [registry.get(name) for name in dict.fromkeys(dialects or (registry.default().name,))]
    cleared = tuple(dict.fromkeys(clear if clear is not None else (unit.name for unit in units)))
    owned = tuple(name for dialect in cleared for name in registry.owned_names(dialect))
    out: dict[str, Any] = (_copy_json(gltf) if copy else gltf) if isinstance(gltf, dict) else \
        _copy_json(gltf) if isinstance(gltf, Mapping) else {}
    nodes: list[Any] = out["nodes"] if isinstance(out.get("nodes"), list) else []
    meshes: list[Any] = out["meshes"] if isinstance(out.get("meshes"), list) else []
    for node in nodes:
        if isinstance(node, dict):
            _clean_node_extensions(node, owned)

    def node_ref(value: NodeRef) -> int | None:
        valid = isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(nodes)
        return value if valid else None

    def mesh_ref(value: MeshRef) -> int | None:
        valid = isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(meshes)
        return value if valid else None

    used: set[str] = set()
    document_extensions = out.get("extensions")
    if isinstance(document_extensions, dict):
        for name in owned:
            if not any(name in unit.tables.extensions or name in registry.array_homes(unit.name).values()
                       for unit in units):
                document_extensions.pop(name, None)
    for unit in units:
        dialect, dialect_name = unit.tables, unit.name
        items = ItemArrays(dialect=dialect)
        for index in sorted(key for key in doc.nodes if isinstance(key, int)):
            if not 0 <= index < len(nodes) or not isinstance(nodes[index], dict):
                continue
            extensions = unit.write_node(doc.nodes[index], items.ref, node_ref, mesh_ref, issues, at=f"/nodes/{index}",
                                         dialect=dialect)
            if not extensions:
                continue
            node_json = nodes[index]
            if not isinstance(node_json.get("extensions"), dict):
                node_json["extensions"] = {}
            node_json["extensions"].update(extensions)
            used.update(extensions)
        for name in dict.fromkeys((*dialect.extensions, *items.homes.values())):
            kept = doc.unknown.get(name)
            keys = [kind for kind, home in items.homes.items() if home == name]
            if _set_document_extension(out, name, items.arrays, keys,
                                       kept if kept is not None and kept.dialect == dialect_name else None,
                                       dialect=dialect, issues=issues):
                used.add(name)
        if issues is not None:  # kept keys of another dialect's file: named
            issues.extend(unknown_keys.document_not_written(doc, dialect_name))
        for extension in registry.extension_units():
            if extension.dialect == dialect_name and extension.write_document is not None:
                used.update(extension.write_document(doc, out, issues))
            elif extension.dialect != dialect_name and extension.document_losses is not None and issues is not None:
                issues.extend(extension.document_losses(doc))
    if isinstance(out.get("extensions"), dict) and not out["extensions"] and "extensions" not in gltf:
        del out["extensions"]
    order = [name for unit in units
             for name in (*unit.tables.extensions, *(extra.name for extra in registry.extensions_of(unit.name)))]
    _update_extension_lists(out, used, owned, list(dict.fromkeys(order)))
    if issues is not None:  # an extension unit a dialect cannot hold: said once, not once per node
        issues[start:] = said_once(issues[start:], LOSS_KIND)
    return out


def _copy_json(value: Any) -> Any:
    """A copy of JSON-like data in which no two places share an object (unlike copy.deepcopy, which keeps
    aliasing: two nodes given as one dict must not receive each other's extensions). Iterative, so any
    depth json.loads accepts is fine; a cycle (Python-made input only) is kept as a shared reference."""
    containers = (Mapping, list, tuple)
    if not isinstance(value, containers):
        return value
    root: Any = {} if isinstance(value, Mapping) else [None] * len(value)
    stack = [(value, root, frozenset({id(value)}))]
    while stack:
        source, target, path = stack.pop()
        items = source.items() if isinstance(source, Mapping) else enumerate(source)
        for key, item in items:
            if isinstance(item, containers) and id(item) not in path:
                child: Any = {} if isinstance(item, Mapping) else [None] * len(item)
                stack.append((item, child, path | {id(item)}))
                target[key] = child
            else:
                target[key] = copy.copy(item) if isinstance(item, containers) else item
    return root


def _update_extension_lists(out: dict[str, Any], used: set[str], owned: tuple[str, ...],
                            written: list[str]) -> None:
    """extensionsUsed lists exactly the physics extensions written; extensionsRequired loses the others."""
    previous = out.get("extensionsUsed")
    names = [name for name in previous if isinstance(name, str)] if isinstance(previous, list) else []
    names = [name for name in names if name not in owned or name in used]
    names += [name for name in written if name in used and name not in names]
    if names:
        out["extensionsUsed"] = names
    else:
        out.pop("extensionsUsed", None)
    required = out.get("extensionsRequired")
    if isinstance(required, list):
        kept = [name for name in required if name not in owned or name in used]
        if kept:
            out["extensionsRequired"] = kept
        else:
            del out["extensionsRequired"]
