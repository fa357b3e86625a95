"""Part of the `godot` target (godot.py): the animation channels its layout moves.

The target moves a body's render mesh (with its morph `weights`) to a new child node, since Godot gives a
body node no MeshInstance3D. A channel that animates those morph weights, by `node` + `path: weights` or by
a KHR_animation_pointer `/nodes/N/weights`, must follow the mesh to the child, or it animates a node with no
mesh (invalid glTF, and Godot plays nothing). `/meshes/N/weights` names the mesh itself and stays.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..json_types import array_index

POINTER = "KHR_animation_pointer"


def weights_target(node: Any, path: Any, pointer: Any, moved: Mapping[int, int]) -> tuple[Any, Any]:
    """A channel's (target node, pointer) once the meshes of `moved` (body node -> its new mesh child) are on
    their children: morph weights follow their mesh, every other target stays as it is."""
    if path == "weights" and type(node) is int and node in moved:
        node = moved[node]
    if isinstance(pointer, str):
        parts = pointer.split("/")
        index = array_index(parts[2]) if len(parts) == 4 and parts[1] == "nodes" and parts[3] == "weights" else None
        if index is not None and index in moved:
            pointer = f"/nodes/{moved[index]}/weights"
    return node, pointer


def follow_meshes(document: Mapping[str, Any], moved: Mapping[int, int]) -> None:
    """JSON side of `weights_target`: every channel of the document, in place."""
    if not moved:
        return
    for animation in document.get("animations") or []:
        for channel in (animation.get("channels") if isinstance(animation, Mapping) else None) or []:
            target = channel.get("target") if isinstance(channel, Mapping) else None
            if not isinstance(target, dict):
                continue
            extension = (target.get("extensions") or {}).get(POINTER)
            pointer = extension.get("pointer") if isinstance(extension, dict) else None
            node, pointer = weights_target(target.get("node"), target.get("path"), pointer, moved)
            if node is not None:
                target["node"] = node
            if isinstance(extension, dict) and pointer is not None:
                extension["pointer"] = pointer
