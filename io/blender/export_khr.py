"""The KHR dialect of one glTF export: the finished OMI physics re-spelled as KHR_physics_rigid_bodies with
KHR_implicit_shapes, beside the OMI (dialect "both") or instead of it ("KHR").

It runs at the end of `PhysicsExport.finish`, when every node and mesh has its index: each node's physics,
as placed for the OMI spelling (the model values the OMI writer wrote, less what the OMI lost on the way),
is written with the KHR writer (`io/omi/writer_khr`), so both dialects come from one placement and one set
of findings, without reading the OMI back. What KHR cannot hold comes back as Issues, which the export
reports. No bpy here beyond the exporter's objects.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import Any

from ..omi import model, reader, unknown_keys, writer, writer_khr
from ..omi.dialects import OMI
from ..omi.dialects_khr import KHR

OMI_NAMES = model.ALL_EXTENSIONS
KHR_NAMES = model.KHR_EXTENSIONS
ANIMATION_POINTER = "KHR_animation_pointer"


def write_khr(gltf: Any, physics: Iterable[tuple[int, model.NodePhysics]], node_ref: Callable[[Any], Any],
              mesh_ref: Callable[[Any], Any], keep_omi: bool) -> list[model.Issue]:
    """Add the KHR spelling of the export's physics to `gltf`; remove the OMI unless `keep_omi`.

    `physics` is each node's physics as its OMI was written (node index, model values with the export's
    placeholders, which `node_ref` / `mesh_ref` turn into indices). Returns what KHR cannot hold (pointers
    into the written file). With animated physics the export keeps the OMI here (its channels point into
    it) and calls `drop_omi` once every channel has its KHR twin (`animation_gltf.add_khr`); called without
    `keep_omi` on an animated export, the OMI stays and a finding says so.
    """
    issues: list[model.Issue] = []
    if not keep_omi and ANIMATION_POINTER in (gltf.extensions_used or []):
        issues.append(model.Issue("/extensionsUsed", "the physics animation points into the OMI extensions: the "
                                                    "OMI physics is written too (export 'OMI and KHR')", "warning"))
        keep_omi = True
    items = writer.ItemArrays(dialect=KHR)
    written: dict[int, dict[str, Any]] = {}
    remembered: dict[Any, tuple[dict[str, Any] | None, list[model.Issue], str]] = {}
    for index, part in sorted(physics, key=lambda entry: entry[0]):
        at = f"/nodes/{index}"
        key = _body_key(part)
        try:
            found = remembered.get(key) if key is not None else None
        except TypeError:  # values holding lists (not made by the export): written each time
            key = found = None
        if found is None:
            node_issues: list[model.Issue] = []
            content = writer_khr.node_extensions_khr(part, items.ref, node_ref, mesh_ref, node_issues,
                                                     at=at).get(model.KHR_BODY_EXTENSION)
            if key is not None:
                remembered[key] = content, node_issues, at
        else:
            content, node_issues, first_at = found
            content = _copied(content)
            node_issues = [dataclasses.replace(issue, pointer=at + issue.pointer[len(first_at):])
                           if issue.pointer.startswith(first_at + "/") else issue for issue in node_issues]
        issues.extend(node_issues)
        if content is not None:
            written[index] = content
    issues.extend(_document_not_written(gltf))
    for index, node in enumerate(gltf.nodes or []):
        content = written.get(index)
        if content is None and keep_omi:
            continue
        extensions = {name: value for name, value in (node.extensions or {}).items()
                      if keep_omi or name not in OMI_NAMES}
        if content is not None:
            extensions[model.KHR_BODY_EXTENSION] = content
        node.extensions = extensions or None
    if gltf.extensions is None:
        gltf.extensions = {}
    document = items.by_extension()
    for name in KHR_NAMES:
        if name in document:
            gltf.extensions[name] = document[name]
    used = [name for name in KHR.extensions
            if name in document or (name == model.KHR_BODY_EXTENSION and written)]
    if not keep_omi:
        drop_omi(gltf)
    gltf.extensions_used.extend(name for name in used if name not in gltf.extensions_used)
    return issues


def _document_not_written(gltf: Any) -> list[model.Issue]:
    """The keys an OMI document extension kept from an imported file (beside its arrays) have no place in
    KHR: each is named, as reading the OMI back finds them. Only the document level is read."""
    document = {name: content for name, content in (gltf.extensions or {}).items()
                if name in OMI_NAMES and isinstance(content, dict) and set(content) - set(OMI.homes)}
    if not document:
        return []
    return unknown_keys.document_not_written(reader.read_document({"extensions": document}, "OMI"), "KHR")


def _body_key(part: model.NodePhysics) -> tuple[Any, Any] | None:
    """A body of motion and collider only, as a key: a level's bodies repeat a few, and equal values write
    equal KHR (their items are already stored); None for a part written each time."""
    remembered = part.trigger is None and part.joint is None and not part.unknown
    return (part.motion, part.collider) if remembered else None


def _copied(content: Any) -> Any:
    """A copy of the JSON content in which no container is shared (the animation export rewrites a node's
    references in place)."""
    if isinstance(content, dict):
        return {key: _copied(value) for key, value in content.items()}
    if isinstance(content, list):
        return [_copied(value) for value in content]
    return content


def drop_omi(gltf: Any) -> None:
    """Remove the OMI spelling from the export: node extensions, document extensions, extensionsUsed (a
    KHR-only export whose animation channels all point into the KHR spelling calls it after them)."""
    for node in gltf.nodes or []:
        if node.extensions and any(name in OMI_NAMES for name in node.extensions):
            node.extensions = {name: value for name, value in node.extensions.items() if name not in OMI_NAMES} \
                or None
    for name in OMI_NAMES:
        (gltf.extensions or {}).pop(name, None)
    gltf.extensions_used[:] = [name for name in gltf.extensions_used if name not in OMI_NAMES]
