"""Node extensions that neither the add-on nor Blender's importer reads are kept verbatim on their object
(`properties.units.keep_extensions`, a hidden string a file cannot reach through extras) and written back by
the export where the object still is: nothing a file holds is dropped silently. The import names them once.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import bpy

from ..properties import scene_physics, units
from .omi import model
from .omi.dialects import builtin, registry  # noqa: F401 - builtin: the built-in units registered

# Node extensions Blender's own importer reads (lights, instancing, visibility, variants) or that the animation
# reads: Blender's exporter writes them again from what it built.
BLENDER_READS = ("KHR_lights_punctual", "EXT_mesh_gpu_instancing", "KHR_node_visibility", "KHR_materials_variants")


def known_names() -> set[str]:
    """Every node extension some dialect or unit of the registry reads, and those Blender reads."""
    return {*BLENDER_READS, *(name for dialect in registry.names() for name in registry.owned_names(dialect))}


def keep(gltf: Any, objects: Mapping[int, bpy.types.Object], bl_scene: bpy.types.Scene) -> list[model.Issue]:
    """Store each object's unknown node extensions and the document's on the scene; one info line naming them."""
    known = known_names()
    kept: dict[str, int] = {}
    document = gltf.data.extensions if isinstance(gltf.data.extensions, dict) else {}
    unknown_document = {name: value for name, value in document.items() if isinstance(name, str) and name not in known}
    on_nodes = {name for node in gltf.data.nodes or () for name in (getattr(node, "extensions", None) or {})}
    flags = sorted(name for name in gltf.data.extensions_used or () if isinstance(name, str) and name not in known
                   and name not in document and name not in on_nodes)  # listed, with no object anywhere
    if unknown_document:  # merged per extension: a later import's wins
        stored = kept_document(bl_scene)
        stored.update(unknown_document)
        scene_physics(bl_scene).kept_extensions_json = json.dumps(stored, separators=(",", ":"))
    for index, node in enumerate(gltf.data.nodes or []):
        extensions = getattr(node, "extensions", None)
        obj = objects.get(index)
        if not isinstance(extensions, dict) or obj is None:
            continue
        unknown = {name: value for name, value in extensions.items() if isinstance(name, str) and name not in known}
        if unknown:  # the importer's objects are new: none keeps anything to clear
            units.keep_extensions(obj, unknown)
        for name in unknown:
            kept[name] = kept.get(name, 0) + 1
    found = []
    if kept or unknown_document:
        on = [f"{name} ({count} node{'s' if count > 1 else ''})" for name, count in sorted(kept.items())]
        listed = ", ".join([*on, *(f"{name} (the document)" for name in sorted(unknown_document))])
        found.append(model.Issue("/nodes", f"extensions this add-on does not read are kept, not edited, and written "
                                           f"back by the export: {listed}", "info", "kept_extensions"))
    if flags:
        found.append(model.Issue("/extensionsUsed", f"{', '.join(flags)}: listed in extensionsUsed with no data "
                                                    "anywhere; Blender's exporter lists only what it writes, so an "
                                                    "export leaves it out", "info", "kept_extensions"))
    return found


def kept_document(bl_scene: bpy.types.Scene) -> dict[str, Any]:
    """The document-level extensions kept on a scene from imported files."""
    text = scene_physics(bl_scene).kept_extensions_json
    try:
        found = json.loads(text) if text else {}
    except ValueError:
        return {}
    return found if isinstance(found, dict) else {}


def of_object(obj: bpy.types.Object) -> dict[str, Any]:
    """The node extensions kept on an object (for the export)."""
    return units.kept_extensions(obj)
