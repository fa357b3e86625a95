"""Node extensions that neither the add-on nor Blender's importer reads are kept verbatim on their object
(`properties.units.keep_extensions`, a hidden string a file cannot reach through extras) and written back by
the export where the object still is: nothing a file holds is dropped silently. The import names them once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import bpy

from ..properties import units
from .omi import model
from .omi.dialects import builtin, registry  # noqa: F401 - builtin: the built-in units registered

# Node extensions Blender's own importer reads (lights, instancing, visibility, variants) or that the animation
# reads: Blender's exporter writes them again from what it built.
BLENDER_READS = ("KHR_lights_punctual", "EXT_mesh_gpu_instancing", "KHR_node_visibility", "KHR_materials_variants")


def known_names() -> set[str]:
    """Every node extension some dialect or unit of the registry reads, and those Blender reads."""
    return {*BLENDER_READS, *(name for dialect in registry.names() for name in registry.owned_names(dialect))}


def keep(gltf: Any, objects: Mapping[int, bpy.types.Object]) -> list[model.Issue]:
    """Store each object's unknown node extensions; one info line naming them."""
    known = known_names()
    kept: dict[str, int] = {}
    for index, node in enumerate(gltf.data.nodes or []):
        extensions = getattr(node, "extensions", None)
        obj = objects.get(index)
        if not isinstance(extensions, dict) or obj is None:
            continue
        unknown = {name: value for name, value in extensions.items() if isinstance(name, str) and name not in known}
        units.keep_extensions(obj, unknown)
        for name in unknown:
            kept[name] = kept.get(name, 0) + 1
    if not kept:
        return []
    listed = ", ".join(f"{name} ({count} node{'s' if count > 1 else ''})" for name, count in sorted(kept.items()))
    return [model.Issue("/nodes", f"extensions this add-on does not read are kept, not edited, and written back by "
                                  f"the export: {listed}", "info", "kept_extensions")]


def of_object(obj: bpy.types.Object) -> dict[str, Any]:
    """The node extensions kept on an object (for the export)."""
    return units.kept_extensions(obj)
