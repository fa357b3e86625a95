"""The `godot` export target on the exporter's finished document (io/omi/dialects/godot.py decides).

Runs in `PhysicsExport.finish`, once the exporter has indexed every node and the OMI physics is written:
the shapes are rewritten in place, each mesh Godot would drop goes to a new child node (its morph-weight
channels with it), and what Godot ignores is said once per kind.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...omi.dialects import godot, godot_channels
from ...omi.model import BODY_EXTENSION, Issue


def view(gltf: Any) -> dict[str, Any]:
    """The document as the pure target reads it: node dicts sharing the exporter's extension dicts."""
    nodes = [{"name": node.name, "mesh": node.mesh, "children": list(node.children or []),
              "extensions": node.extensions or {}, "translation": node.translation, "rotation": node.rotation,
              "scale": node.scale, **({"matrix": node.matrix} if node.matrix is not None else {})}
             for node in gltf.nodes or []]
    animations = [{"channels": [{"target": {"node": channel.target.node, "extensions": channel.target.extensions},
                                 "sampler": _index(channel.sampler, animation.samplers)}
                                for channel in animation.channels or []],
                   "samplers": [{"interpolation": sampler.interpolation} for sampler in animation.samplers or []]}
                  for animation in gltf.animations or []]
    skins = [{"joints": [joint for joint in skin.joints or [] if isinstance(joint, int)]} for skin in gltf.skins or []]
    return {"nodes": nodes, "extensions": gltf.extensions or {}, "animations": animations, "skins": skins}


def _index(sampler: Any, samplers: Any) -> int | None:
    """A channel's sampler as an index (the exporter may still hold the sampler object itself)."""
    if isinstance(sampler, int):
        return sampler
    return next((position for position, known in enumerate(samplers or []) if known is sampler), None)


def apply(gltf: Any, new_node: Callable[[str], Any], *, omi_godot: bool = False) -> list[Issue]:
    """Put the finished document into the `godot` form; `new_node(name)` makes an exporter node at the
    origin of its parent; `omi_godot`: the reader has omi-godot (joints and the extension units are not
    said to be ignored)."""
    form = godot.godot_form(view(gltf), omi_godot=omi_godot)
    for index, changes in form.node_changes.items():
        for key, value in changes.items():
            setattr(gltf.nodes[index], key, value)
    moved: dict[int, int] = {}
    for index in form.mesh_moves:
        node = gltf.nodes[index]
        child = new_node(node.name)
        child.mesh, child.skin, child.weights = node.mesh, node.skin, node.weights
        child.scale = form.mesh_scales.get(index)
        node.mesh, node.skin, node.weights = None, None, None
        gltf.nodes.append(child)
        node.children = [*(node.children or []), len(gltf.nodes) - 1]
        moved[index] = len(gltf.nodes) - 1
    _follow_meshes(gltf, moved)
    for index, part_name, part, scale in form.part_moves:
        node = gltf.nodes[index]
        child = new_node(godot.part_child_name(node.name, part_name))
        child.extensions = {BODY_EXTENSION: {part_name: part}}
        child.scale = scale
        gltf.nodes.append(child)
        node.children = [*(node.children or []), len(gltf.nodes) - 1]
    return form.issues


def _follow_meshes(gltf: Any, moved: dict[int, int]) -> None:
    """The exporter's channels of moved morph weights onto the mesh's new child (godot_channels)."""
    targets = [channel.target for animation in gltf.animations or [] for channel in animation.channels or []]
    for target in targets if moved else []:
        if target is None:
            continue
        extension = (target.extensions or {}).get(godot_channels.POINTER)
        pointer = extension.get("pointer") if isinstance(extension, dict) else None
        target.node, pointer = godot_channels.weights_target(target.node, target.path, pointer, moved)
        if isinstance(extension, dict) and pointer is not None:
            extension["pointer"] = pointer
