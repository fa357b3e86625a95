"""An export target's form on a parsed glTF document (the command line's convert): the applier of
`targets.form`'s Forms to JSON, as io/blender/export/target_form.py is to the exporter's document.

Its samplers are made LINEAR (`linear_samplers`) and its channel rewrites read the file's keys
(`channel_rewrite`); then each step reads the document as the steps before left it, and its node changes
and new nodes are made on the document's nodes; the channels of a moved mesh's morph weights follow it
(`moved_target`, which both appliers and the import's fold use).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..dialects.pointers import ANIMATION_POINTER_EXTENSION
from ..json_types import array_index
from ..model import Issue
from ..targets.form import MESH_KEYS, ChannelRewrite, FormPart, LinearSamplers
from . import channel_rewrite, linear_samplers


def apply_json(document: dict[str, Any], parts: tuple[FormPart, ...],
               read_buffer: channel_rewrite.ReadBuffer | None = None) -> list[Issue]:
    """Run a target's form on a parsed glTF document, in place; what the target drops and changes.
    `read_buffer` reads the file's buffers for its channel parts (data: URIs, such as those the parts add,
    are read where it reads none)."""
    issues: list[Issue] = []
    added = channel_rewrite.data_uris(document)  # the buffers the channel parts add are data: URIs

    def read(index: int) -> bytes | memoryview | None:
        found = read_buffer(index) if read_buffer is not None else None
        return found if found is not None else added(index)
    for part in parts:
        if isinstance(part, LinearSamplers):
            issues += linear_samplers.sample(document, part, read)
            continue
        if isinstance(part, ChannelRewrite):
            issues += channel_rewrite.rewrite(document, part, read)
            continue
        form = part(document)
        nodes: list[dict[str, Any]] = document.setdefault("nodes", [])
        for index, changes in form.node_changes.items():
            for key, value in changes.items():
                if value is None:
                    nodes[index].pop(key, None)
                else:
                    nodes[index][key] = value
        moved: dict[int, int] = {}
        for new in form.new_nodes:
            parent = nodes[new.parent]
            child: dict[str, Any] = {key: parent.pop(key) for key in MESH_KEYS if key in parent} \
                if new.takes_mesh else {}
            if new.name is not None:
                child["name"] = new.name
            child.update({key: value for key, value in (("rotation", new.rotation), ("translation", new.translation),
                                                        ("scale", new.scale)) if value is not None})
            if new.extensions is not None:
                child["extensions"] = new.extensions
            if new.takes_extension is not None:
                holder, name = new.takes_extension
                extensions = nodes[holder]["extensions"]
                child["extensions"] = {name: extensions.pop(name)}
                if not extensions:
                    del nodes[holder]["extensions"]
            nodes.append(child)
            parent["children"] = [*(parent.get("children") or []), len(nodes) - 1]
            if new.takes_mesh:
                moved[new.parent] = len(nodes) - 1
            if new.referenced_by is not None:
                holder_json, key = new.referenced_by
                holder_json[key] = len(nodes) - 1
        follow_meshes(document, moved)
        issues.extend(form.issues)
    return issues


def moved_target(node: Any, path: Any, extensions: Any, moved: Mapping[int, int]) -> Any:
    """A channel target's node once the meshes of `moved` (node -> the node its mesh went to) are there; its
    animation pointer (in its `extensions`, changed in place) too. Morph weights follow their mesh, whether
    named by `node` + `path: weights` or by a pointer `/nodes/N/weights`; every other target stays, and so
    does `/meshes/N/weights`, which names the mesh itself."""
    if path == "weights" and type(node) is int and node in moved:
        node = moved[node]
    holder = extensions.get(ANIMATION_POINTER_EXTENSION) if isinstance(extensions, dict) else None
    pointer = holder.get("pointer") if isinstance(holder, dict) else None
    if isinstance(holder, dict) and isinstance(pointer, str):
        parts = pointer.split("/")
        index = array_index(parts[2]) if len(parts) == 4 and parts[1] == "nodes" and parts[3] == "weights" else None
        if index is not None and index in moved:
            holder["pointer"] = f"/nodes/{moved[index]}/weights"
    return node


def follow_meshes(document: Mapping[str, Any], moved: Mapping[int, int]) -> None:
    """Every channel of a parsed document onto the meshes of `moved`, in place (`moved_target`)."""
    if not moved:
        return
    for animation in document.get("animations") or []:
        for channel in (animation.get("channels") if isinstance(animation, Mapping) else None) or []:
            target = channel.get("target") if isinstance(channel, Mapping) else None
            if isinstance(target, dict):
                node = moved_target(target.get("node"), target.get("path"), target.get("extensions"), moved)
                if node is not None:
                    target["node"] = node
