"""Mend the glTF importer's data before it builds anything, where Blender's importer would fail or crash.

The findings come from io/omi/checks/gltf_structure (the same ones `validate` reports as errors); each that
carries a repair is applied to the importer's parsed glTF here and reported as a warning naming its JSON
pointer. Runs first in the import hook, whatever the physics options, so a file with a cycle in its node
tree or a two-vertex triangle primitive imports (without the bad link or primitive) instead of raising or
crashing Blender.
"""

from __future__ import annotations

import copy
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from ..omi import gltf_file, model
from ..omi.checks import bind_matrices, gltf_structure, joint_rest, node_transforms, shape_meshes, value_losses
from . import gltf_compat, recursion_limit
from .tables import markers

_ATTRIBUTES = {  # glTF key -> the importer's attribute, for the parts the structure check reads (nodes: node_json)
    "scenes": ("name", "nodes"),
    "accessors": ("name", "bufferView", "byteOffset", "componentType", "count", "type"),
    "bufferViews": ("name", "buffer", "byteOffset", "byteLength", "byteStride"),
    "buffers": ("name", "uri", "byteLength"),
    "skins": ("name", "joints", "inverseBindMatrices"),
}
_ARRAYS = {"bufferViews": "buffer_views"}
_FLOAT = 5126


def _snake(key: str) -> str:
    return "".join(f"_{char.lower()}" if char.isupper() else char for char in key)


def _array(data: Any, key: str) -> list[Any]:
    return getattr(data, _ARRAYS.get(key, _snake(key)), None) or []


def importer_json(data: Any) -> dict[str, Any]:
    """The structural part of the importer's parsed glTF as plain JSON values (what gltf_structure reads)."""
    document: dict[str, Any] = {key: _items_json(data, key) for key in gltf_structure.NAMED_ARRAYS}
    for mesh, entry in zip(_array(data, "meshes"), document["meshes"], strict=True):
        entry["primitives"] = [{"attributes": dict(primitive.attributes or {}), "indices": primitive.indices,
                                "mode": 4 if primitive.mode is None else primitive.mode}
                               for primitive in mesh.primitives or []]
        for primitive in entry["primitives"]:
            if primitive["indices"] is None:
                del primitive["indices"]
    return document


def node_json(node: Any, *, for_reader: bool = False) -> dict[str, Any]:
    """A node of the importer's data as JSON: its name, children and mesh, with its transform (what the
    structure checks read: gltf_structure, node_transforms, joint_rest) or, for the physics reader, its
    camera, skin and extensions. Each field is read by name: a large file has many nodes, and a loop over
    (key, value) pairs costs three times as much."""
    entry = {}
    if node.name is not None:
        entry["name"] = node.name
    if node.children is not None:
        entry["children"] = node.children
    if node.mesh is not None:
        entry["mesh"] = node.mesh
    if for_reader:
        if node.camera is not None:
            entry["camera"] = node.camera
        if node.skin is not None:
            entry["skin"] = node.skin
        if node.extensions is not None:
            entry["extensions"] = node.extensions
        return entry
    if node.translation is not None:
        entry["translation"] = node.translation
    if node.rotation is not None:
        entry["rotation"] = node.rotation
    if node.scale is not None:
        entry["scale"] = node.scale
    if node.matrix is not None:
        entry["matrix"] = node.matrix
    return entry


def _items_json(data: Any, key: str) -> list[dict[str, Any]]:
    """One array of the importer's data as JSON values, with the fields the checks read."""
    if key == "nodes":
        return [node_json(node) for node in _array(data, key)]
    fields = [(field, _snake(field)) for field in _ATTRIBUTES.get(key, ("name",))]
    items = []
    for item in _array(data, key):
        entry = {}
        for field, attribute in fields:
            value = getattr(item, attribute, None)
            if value is not None:
                entry[field] = value
        items.append(entry)
    return items


def _buffer_data(gltf: Any) -> gltf_structure.BufferData:
    folder = os.path.dirname(getattr(gltf, "filename", "") or "")

    def size(uri: str) -> int:
        return os.stat(os.path.join(folder, unquote(uri))).st_size

    return gltf_structure.file_buffer_data(getattr(gltf, "glb_buffer", None), size)


def physics_issues(gltf: Any, doc: model.PhysicsDocument, document: dict[str, Any] | None = None) -> list[model.Issue]:
    """What the import cannot use or keep of the file's physics, beyond the reader's findings (which name the
    unknown keys it keeps): values Blender's float32 settings or enums cannot hold, the mesh problems of
    convex/trimesh shapes, and joints whose bodies start outside their limits. `document`: the importer's data
    as `importer_json` gives it now, when the caller has it (`Repaired.document`), or None."""
    described = _Described(gltf.data, document)
    return value_losses.document_losses(doc) + shape_mesh_issues(gltf, doc, described) \
        + joint_rest_issues(gltf, doc, described) + bind_matrix_issues(gltf, described)


class _Described:
    """The importer's data as JSON (`importer_json`), made once when a check first asks."""

    def __init__(self, data: Any, document: dict[str, Any] | None) -> None:
        self._data = data
        self._document = document

    def __call__(self) -> dict[str, Any]:
        if self._document is None:
            self._document = importer_json(self._data)
        return self._document


def bind_matrix_issues(gltf: Any, described: _Described) -> list[model.Issue]:
    """Skins whose inverse bind matrices are not finite (io/omi/checks/bind_matrices): their bones, and the
    ragdoll parts that follow them, get no place."""
    if not _array(gltf.data, "skins"):
        return []
    return bind_matrices.check(described(), lambda index: gltf_compat.importer_buffer(gltf, index))


def joint_rest_issues(gltf: Any, doc: model.PhysicsDocument, described: _Described) -> list[model.Issue]:
    """Joints whose connected node starts outside the joint's limits (io/omi/checks/joint_rest), on the nodes
    as the importer will build them (after the repairs)."""
    if not any(node.joint is not None for node in doc.nodes.values()):
        return []
    return joint_rest.check({"nodes": described()["nodes"]}, doc)


def shape_mesh_issues(gltf: Any, doc: model.PhysicsDocument, described: _Described) -> list[model.Issue]:
    """The mesh problems of the file's convex/trimesh shapes (io/omi/checks/shape_meshes), on the importer's data
    and buffers (read through the importer, so each is read once)."""
    if not any(part is not None and part.shape is not None and part.shape.type in model.MESH_SHAPE_TYPES
               for node in doc.nodes.values() for part in (node.collider, node.trigger)):
        return []
    return shape_meshes.check(described(), doc, lambda index: gltf_compat.importer_buffer(gltf, index))


def duplicate_key_issues(gltf: Any) -> list[model.Issue]:
    """A warning at each object of the file that gives a key twice (two `extensions` on a node): Blender's
    importer read only the last one, so the first one's content is lost (io/omi/gltf_file.duplicate_keys_of)."""
    try:
        data = Path(gltf.filename).read_bytes()
    except (AttributeError, TypeError, OSError):
        return []
    return [model.Issue(at, "duplicate key: it appears twice in its object; Blender's importer read only the "
                            "last one, the first one's content is lost", "warning")
            for at in gltf_file.duplicate_keys_of(data)]


def outside_uri_issues(gltf: Any) -> list[model.Issue]:
    """One warning for the buffers and images the file names outside its own folder ('..', an absolute path, a
    symbolic link leading out): Blender's importer opens them itself, so the add-on can only say so (the
    command line refuses such a file before Blender reads it)."""
    uris = {key: [{"uri": item.uri} for item in _array(gltf.data, key)] for key in ("buffers", "images")}
    found = gltf_file.outside_resources(uris, os.path.dirname(getattr(gltf, "filename", "") or ""))
    if not found:
        return []
    names = ", ".join(repr(resource.uri) for resource, _reason in found[:3]) + (", ..." if len(found) > 3 else "")
    return [model.Issue(found[0][0].pointer, f"{len(found)} file(s) named outside the glTF's folder ({names}): "
                                             "Blender's glTF importer reads them; check that you trust this file",
                        "warning")]


def private_extras_issues(gltf: Any) -> list[model.Issue]:
    """The add-on's own markers (`markers.PRIVATE_PROPERTIES`, and its settings' name) in the file's extras are
    taken out before the importer copies extras into custom properties: a file must not mark a user's object
    as generated (left out of export) or as a shape stand-in (exported without its mesh). One warning."""
    private = {"omi_physics", *markers.PRIVATE_PROPERTIES}
    found: list[str] = []
    holders = [("", gltf.data)] + [(f"/{key}/{index}", item) for key in gltf_structure.NAMED_ARRAYS
                                   for index, item in enumerate(_array(gltf.data, key))]
    for at, holder in holders:
        extras = getattr(holder, "extras", None)
        if isinstance(extras, dict) and not private.isdisjoint(extras):
            for name in sorted(private.intersection(extras)):
                del extras[name]
                found.append(f"{at}/extras/{name}")
    if not found:
        return []
    names = ", ".join(found[:3]) + (", ..." if len(found) > 3 else "")
    return [model.Issue(found[0], f"{len(found)} extras key(s) named like the add-on's own markers ignored ({names}): "
                                  "a file cannot set them", "warning")]


@dataclass
class Repaired:
    """What `repair` found, and the importer's data as JSON (`importer_json`) when no repair changed it."""

    issues: list[model.Issue]
    document: dict[str, Any] | None


def repair(gltf: Any) -> Repaired:
    """Apply every repair the structure check offers; a warning for each, an error for what stays broken.
    When Blender's importer cannot open the file at all, the import builds nothing (the error says why)
    instead of failing with a traceback."""
    data = gltf.data
    issues: list[model.Issue] = duplicate_key_issues(gltf) + outside_uri_issues(gltf) + private_extras_issues(gltf)
    dropped_children: dict[int, set[int]] = {}
    dropped_scene_nodes: dict[int, set[int]] = {}
    dropped_primitives: dict[int, set[int]] = {}
    document = importer_json(data)
    issues += node_transforms.check(document)  # warnings only: nothing to repair
    unchanged = True
    for finding in gltf_structure.check(document, _buffer_data(gltf)):
        fix = finding.repair
        if finding.fatal:
            _build_nothing(data)
            return Repaired([*issues, model.Issue(finding.pointer, f"{finding.as_error()}; nothing imported",
                                                  "error")], None)
        if fix is None:
            issues.append(model.Issue(finding.pointer, finding.as_error(), "error"))
            continue
        unchanged = unchanged and fix.kind == "allow_depth"
        issues.append(model.Issue(finding.pointer, finding.as_repaired(), "info" if fix.kind == "allow_depth"
                                  else "warning"))  # a deep tree imports whole: nothing to warn about
        if fix.kind == "drop_child":
            dropped_children.setdefault(fix.where[0], set()).add(fix.where[1])
        elif fix.kind == "drop_scene_node":
            dropped_scene_nodes.setdefault(fix.where[0], set()).add(fix.where[1])
        elif fix.kind == "drop_primitive":
            dropped_primitives.setdefault(fix.where[0], set()).add(fix.where[1])
        elif fix.kind == "drop_children":
            data.nodes[fix.where[0]].children = None
        elif fix.kind == "drop_mesh":
            data.nodes[fix.where[0]].mesh = None
        elif fix.kind == "trim_primitive":
            mesh, primitive = fix.where
            _trim(data, mesh, primitive, fix.value)
        elif fix.kind == "rename":
            _array(data, fix.where[0])[fix.where[1]].name = fix.value
        elif fix.kind == "allow_depth":
            recursion_limit.allow(fix.value, recursion_limit.IMPORT_CALLS_PER_LEVEL)
    for index, positions in dropped_children.items():
        node = data.nodes[index]
        node.children = [child for position, child in enumerate(node.children) if position not in positions]
    for index, positions in dropped_scene_nodes.items():
        scene = data.scenes[index]
        scene.nodes = [node for position, node in enumerate(scene.nodes) if position not in positions]
    for index, positions in dropped_primitives.items():
        for position in positions:
            _empty(data, index, position)
    return Repaired(issues, document if unchanged else None)


def _build_nothing(data: Any) -> None:
    """Leave the importer no node, scene entry, skin or animation to build."""
    data.nodes = None
    data.skins = None
    data.animations = None
    for scene in data.scenes or []:
        scene.nodes = None


def _empty(data: Any, mesh: int, position: int) -> None:
    """Make the primitive read nothing: one POSITION accessor of no vertices (a mesh without any primitive
    fails Blender 4.2's importer, so the primitive stays, empty)."""
    primitive = data.meshes[mesh].primitives[position]
    empty = gltf_compat.gltf_io(data).Accessor.from_dict({"componentType": _FLOAT, "count": 0, "type": "VEC3"})
    data.accessors = [*(data.accessors or []), empty]
    primitive.attributes = {"POSITION": len(data.accessors) - 1}
    primitive.indices = None
    primitive.mode = None
    primitive.targets = None


def _trim(data: Any, mesh: int, position: int, count: int) -> None:
    """Point the primitive at a copy of its index (or POSITION) accessor that reads only `count` items."""
    primitive = data.meshes[mesh].primitives[position]
    counted = primitive.indices if primitive.indices is not None else primitive.attributes["POSITION"]
    trimmed = copy.copy(data.accessors[counted])
    trimmed.count = count
    data.accessors.append(trimmed)
    if primitive.indices is not None:
        primitive.indices = len(data.accessors) - 1
    else:
        primitive.attributes = {**primitive.attributes, "POSITION": len(data.accessors) - 1}
