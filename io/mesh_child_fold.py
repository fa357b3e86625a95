"""Import side of the engine targets that move a body's render mesh to a child node (the `godot` targets):
a body node whose render mesh sits on a child of the same name comes back as one object, the body holding
its mesh. The import asks every registered target whether the file has its layout
(`registry.Target.mesh_children`, e.g. io/omi/targets/godot/layout.py) and folds what one recognises.

Before the importer makes objects, the child's mesh (and the channels of its morph weights) goes onto the
body node; when the importer reaches the body, the emptied child is turned into a node it skips (its
virtual node's type), so no empty is made. A moving body whose scale the target baked into its shapes and
children (the scale then on its mesh child) gets it back, and they lose it: the file as the artist made it.
"""

from __future__ import annotations

from typing import Any

from .blender.import_repair import node_json
from .omi.dialects import builtin, pointers, registry  # noqa: F401 - builtin: the built-in units registered
from .omi.dialects.registry import Unbake
from .omi.json_types import array_index
from .omi.write.target_form import moved_target


def _view(data: Any) -> dict[str, Any]:
    """The importer's data as JSON for `godot.mesh_children`: only mesh-less body nodes with children and
    those children are spelled out (the others cannot be part of the layout)."""
    nodes = data.nodes or []
    view: list[dict[str, Any]] = [{} for _node in nodes]
    bodies = {registry.get(name).tables.body_extension for target in registry.targets()
              if target.mesh_children is not None for name in target.dialects}  # what its layouts' bodies carry
    for index, node in enumerate(nodes):
        if node.mesh is None and node.children and not bodies.isdisjoint(node.extensions or {}):
            for at in (index, *node.children):
                if isinstance(at, int) and 0 <= at < len(nodes) and not view[at]:
                    view[at] = {**node_json(nodes[at]), **node_json(nodes[at], for_reader=True)}
    animations = [{"channels": [{"target": {"node": channel.target.node, "path": channel.target.path}}
                                for channel in animation.channels or []]}
                  for animation in data.animations or []]
    return {"nodes": view, "animations": animations}


def _bones(data: Any) -> set[int]:
    """Skin joints and skeletons: the importer makes bones of them, so neither side of a fold may be one."""
    bones: set[int] = set()
    for skin in data.skins or []:
        bones.update(joint for joint in skin.joints or [] if isinstance(joint, int))
        if isinstance(skin.skeleton, int):
            bones.add(skin.skeleton)
    return bones


def _unfoldable_children(data: Any) -> set[int]:
    """Mesh children a fold must leave as they are, since the file gives them a part beyond holding a mesh:
    bones, the targets of animation channels (by node or by a KHR_animation_pointer into /nodes/N; the
    morph weights excepted, which go with the mesh), and nodes with extras (which the fold would lose)."""
    kept = _bones(data)
    for target in _targets(data):
        if isinstance(getattr(target, "node", None), int) and target.path != "weights":
            kept.add(target.node)
        parts = _pointer(target).split("/")
        index = array_index(parts[2]) if len(parts) > 2 and parts[1] == "nodes" else None
        if index is not None and parts[3:] != ["weights"]:
            kept.add(index)
    kept.update(index for index, node in enumerate(data.nodes or []) if node.extras)
    return kept


def _targets(data: Any) -> list[Any]:
    return [channel.target for animation in data.animations or [] for channel in animation.channels or []
            if channel.target is not None]


def _pointer(target: Any) -> str:
    holder = (getattr(target, "extensions", None) or {}).get(pointers.ANIMATION_POINTER_EXTENSION) or {}
    pointer = holder.get("pointer") if isinstance(holder, dict) else None
    return pointer if isinstance(pointer, str) else ""


def _unbake(data: Any, parent: int, child: int, unbake: Unbake | None) -> bool:
    """Give a moving body back the scale the target baked into its shapes (`unbake`: the target's
    `Target.unbake_parts`) and children, which its mesh child carries; False (nothing changed) where a
    matrix child makes that unprovable, or the target says of no such scale."""
    nodes = data.nodes
    if unbake is None:
        return False
    scale = [float(value) for value in nodes[child].scale]
    others = [nodes[index] for index in nodes[parent].children or [] if index != child]
    if any(other.matrix is not None for other in others):
        return False
    nodes[parent].scale, nodes[child].scale = scale, None
    for other in others:
        if other.translation is not None:
            other.translation = [value / factor for value, factor in zip(other.translation, scale, strict=True)]
        other.scale = [value / factor for value, factor in zip(other.scale or [1.0, 1.0, 1.0], scale, strict=True)]
    unbake(data.extensions, nodes[parent].extensions, scale)
    return True


def _recognised(document: dict[str, Any]) -> tuple[dict[int, int], Unbake | None]:
    """Body node -> its mesh child, in the layout of the first registered target that finds it in the file,
    and how that target gives a body its baked scale back."""
    if not any(document["nodes"]):  # no node `_view` spelled out: no layout to find (a large file asks often)
        return {}, None
    for target in registry.targets():
        found = target.mesh_children(document) if target.mesh_children is not None else {}
        if found:
            return dict(found), target.unbake_parts
    return {}, None


class MeshChildFold:
    """The folds of one import: body node -> its mesh child (glTF indices). Only a layout a registered target
    writes is folded; anything else the file says about either node leaves both as they are.

    Made before the physics is read: a baked scale goes back onto its body then, so the physics is read at
    the artist's scale; the meshes move after the read (`move_meshes`), which still recognises the layout
    (the target's own forms, known_generators)."""

    def __init__(self, gltf: Any) -> None:
        nodes = gltf.data.nodes or []
        self.children: dict[int, int] = {}
        kept, bones = _unfoldable_children(gltf.data), _bones(gltf.data)
        recognised, unbake = _recognised(_view(gltf.data))
        for parent, child in recognised.items():
            if nodes[child].skin is not None or parent in bones or child in kept:
                continue  # the importer moves skinned meshes itself: left as the file has it
            if nodes[child].scale is not None and not _unbake(gltf.data, parent, child, unbake):
                continue
            self.children[parent] = child
        self._by_node = {id(nodes[parent]): child for parent, child in self.children.items()}

    def move_meshes(self, gltf: Any) -> None:
        """Each child's mesh and morph weights onto its body, and the channels of those weights with them."""
        nodes = gltf.data.nodes or []
        for parent, child in self.children.items():
            nodes[parent].mesh, nodes[child].mesh = nodes[child].mesh, None
            nodes[parent].weights, nodes[child].weights = nodes[child].weights, None
        back = {child: parent for parent, child in self.children.items()}
        for target in _targets(gltf.data) if back else []:
            target.node = moved_target(target.node, target.path, target.extensions, back)

    def skip_child(self, gltf: Any, gltf_node: Any) -> None:
        """At the body's node hook: its emptied mesh child is skipped by the importer."""
        child = self._by_node.get(id(gltf_node))
        if child is not None:
            vnode = gltf.vnodes[child]
            vnode.type = type(vnode).DummyRoot
