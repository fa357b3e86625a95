"""The KHR dialect of one glTF export: the finished OMI physics re-spelled as KHR_physics_rigid_bodies with
KHR_implicit_shapes, beside the OMI (dialect "both") or instead of it ("KHR").

It runs at the end of `PhysicsExport.finish`, when every node and mesh has its index and the OMI content is
plain JSON: the OMI of the export is read back into the model (`io/omi/reader`) and written with the KHR
writer (`io/omi/writer_khr`), so both dialects come from one placement and one set of findings. What KHR
cannot hold comes back as Issues, which the export reports. No bpy here beyond the exporter's objects.
"""

from __future__ import annotations

from typing import Any

from ..omi import model, reader, writer

OMI_NAMES = model.ALL_EXTENSIONS
KHR_NAMES = model.KHR_EXTENSIONS
ANIMATION_POINTER = "KHR_animation_pointer"


def _index(value: Any, positions: dict[int, int]) -> Any:
    """A child or mesh reference as its index (the exporter's references are indices by now)."""
    return value if isinstance(value, int) else positions.get(id(value))


def _json_view(gltf: Any) -> dict[str, Any]:
    """The physics-relevant part of the exporter's glTF object as JSON: node tree, meshes, OMI content. Its
    containers are its own (the OMI content inside is the exporter's, read only), so it may be written into."""
    node_positions = {id(node): index for index, node in enumerate(gltf.nodes or [])}
    mesh_positions = {id(mesh): index for index, mesh in enumerate(gltf.meshes or [])}
    nodes = []
    for node in gltf.nodes or []:
        view: dict[str, Any] = {}
        children = [_index(child, node_positions) for child in node.children or []]
        if children:
            view["children"] = [child for child in children if child is not None]
        mesh = _index(node.mesh, mesh_positions) if node.mesh is not None else None
        if mesh is not None:
            view["mesh"] = mesh
        extensions = {name: content for name, content in (node.extensions or {}).items() if name in OMI_NAMES}
        if extensions:
            view["extensions"] = extensions
        nodes.append(view)
    document = {name: content for name, content in (gltf.extensions or {}).items() if name in OMI_NAMES}
    return {"nodes": nodes, "meshes": [{} for _mesh in gltf.meshes or []], "extensions": document,
            "extensionsUsed": [name for name in gltf.extensions_used or [] if name in OMI_NAMES]}


def write_khr(gltf: Any, keep_omi: bool) -> list[model.Issue]:
    """Add the KHR spelling of the export's physics to `gltf`; remove the OMI unless `keep_omi`.

    Returns what KHR cannot hold (pointers into the written file). With animated physics the export keeps
    the OMI here (its channels point into it) and calls `drop_omi` once every channel has its KHR twin
    (`animation_gltf.add_khr`); called without `keep_omi` on an animated export, the OMI stays and a finding
    says so.
    """
    issues: list[model.Issue] = []
    if not keep_omi and ANIMATION_POINTER in (gltf.extensions_used or []):
        issues.append(model.Issue("/extensionsUsed", "the physics animation points into the OMI extensions: the "
                                                    "OMI physics is written too (export 'OMI and KHR')", "warning"))
        keep_omi = True
    view = _json_view(gltf)
    doc = reader.read_document(view, "OMI")
    written = writer.write_document(doc, view, ("KHR",), clear=("KHR",), issues=issues, copy=False)  # view: scratch
    for node, node_json in zip(gltf.nodes or [], written["nodes"], strict=True):
        content = (node_json.get("extensions") or {}).get(model.KHR_BODY_EXTENSION)
        if content is None and keep_omi:
            continue
        extensions = {name: value for name, value in (node.extensions or {}).items()
                      if keep_omi or name not in OMI_NAMES}
        if content is not None:
            extensions[model.KHR_BODY_EXTENSION] = content
        node.extensions = extensions or None
    if gltf.extensions is None:
        gltf.extensions = {}
    for name in KHR_NAMES:
        if name in written.get("extensions", {}):
            gltf.extensions[name] = written["extensions"][name]
    used = [name for name in written.get("extensionsUsed", []) if name in KHR_NAMES]
    if not keep_omi:
        drop_omi(gltf)
    gltf.extensions_used.extend(name for name in used if name not in gltf.extensions_used)
    return issues


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
