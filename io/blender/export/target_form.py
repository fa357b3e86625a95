"""An export target's form on the exporter's finished document: the applier of `Form`s (io/omi/targets/form.py)
to the exporter's own objects, as io/omi/write/target_form.py is to a parsed file.

Runs in `PhysicsExport.finish`, once the exporter has indexed every node and the physics is written: each
step of the target's form reads a view of the document (plain node dicts sharing the exporter's extension
dicts, so the physics JSON a step rewrites is the exporter's own), and its node changes and new nodes are
made on the exporter's nodes; a moved mesh's morph-weight channels go with it. No target is named here: a
registered target is applied the same way.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from ...omi.model import Issue
from ...omi.targets.form import MESH_KEYS, ChannelRewrite, FormPart, LinearSamplers
from ...omi.write.target_form import moved_target
from ..animation.exports.channel_data import ChannelData


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


def apply(gltf: Any, parts: tuple[FormPart, ...], new_node: Callable[[str | None], Any]) -> list[Issue]:
    """Put the finished document into a target's form (its steps: its channels were sampled LINEAR where it
    says so, `Target.cubic_channels`, and rewritten, `rewrite_channels`); `new_node(name)` makes an exporter
    node at the origin of its parent. What the target drops and changes."""
    issues: list[Issue] = []
    for step in parts:
        if isinstance(step, ChannelRewrite | LinearSamplers):
            continue
        form = step(view(gltf))
        for index, changes in form.node_changes.items():
            for key, value in changes.items():
                setattr(gltf.nodes[index], key, value)
        moved: dict[int, int] = {}
        for new in form.new_nodes:
            parent = gltf.nodes[new.parent]
            child = new_node(new.name)
            if new.takes_mesh:
                for key in MESH_KEYS:
                    setattr(child, key, getattr(parent, key))
                    setattr(parent, key, None)
            for key, value in (("rotation", new.rotation), ("translation", new.translation), ("scale", new.scale)):
                setattr(child, key, value)
            if new.extensions is not None:
                child.extensions = new.extensions
            if new.takes_extension is not None:
                index, name = new.takes_extension
                holder = gltf.nodes[index]
                child.extensions = {name: holder.extensions.pop(name)}
                holder.extensions = holder.extensions or None
            gltf.nodes.append(child)
            parent.children = [*(parent.children or []), len(gltf.nodes) - 1]
            if new.takes_mesh:
                moved[new.parent] = len(gltf.nodes) - 1
            if new.referenced_by is not None:
                referring, key = new.referenced_by
                referring[key] = len(gltf.nodes) - 1
        _follow_meshes(gltf, moved)
        issues.extend(form.issues)
    return issues


def _follow_meshes(gltf: Any, moved: dict[int, int]) -> None:
    """The exporter's channels of moved morph weights onto the mesh's new child (`moved_target`)."""
    targets = [channel.target for animation in gltf.animations or [] for channel in animation.channels or []]
    for target in targets if moved else []:
        if target is not None:
            target.node = moved_target(target.node, target.path, target.extensions, moved)


def rewrite_channels(data: list[ChannelData], parts: tuple[FormPart, ...]) -> list[Issue]:
    """A target's channel rewrites on the export's sampled channels, in place, before they are attached to
    the document (as io/omi/write/channel_rewrite.py does to a file's); a warning per reason a group is left."""
    issues: list[Issue] = []
    for rewrite in parts:
        if isinstance(rewrite, ChannelRewrite):
            issues += _rewrite(data, rewrite)
    return issues


def _rewrite(data: list[ChannelData], rewrite: ChannelRewrite) -> list[Issue]:
    groups: dict[int, list[ChannelData]] = {}
    for channel in data:
        path = channel.template.path
        if channel.template.extension == rewrite.extension and channel.template.array == rewrite.array \
                and len(path) == 2 and path[0] in rewrite.types and path[1] in rewrite.keys:
            groups.setdefault(channel.index, []).append(channel)
    left: dict[str, list[str]] = {}
    for index, channels in groups.items():
        first = channels[0]
        item_type = first.template.path[0]
        head = first.template.text.rsplit("/", 1)[0]
        still = {key: float((first.still or {}).get(f"{head}/{key}", 0.0)) for key in rewrite.keys}
        keyed = {channel.template.path[1]: (channel.interpolation, channel.times, [
            values[len(values) // 3 if channel.interpolation == "CUBICSPLINE" else 0] for values in channel.values])
            for channel in channels}  # a CUBICSPLINE key's value, not its tangents
        if len(keyed) < len(channels) or any(channel.template.path[0] != item_type for channel in channels):
            continue
        rewritten, reason = rewrite.rewrite(item_type, still, keyed)
        if rewritten:
            for channel in channels:
                data.remove(channel)
            for key, (interpolation, times, values) in rewritten.items():
                template = dataclasses.replace(first.template, path=(item_type, key), field=None)
                data.append(dataclasses.replace(first, template=template, interpolation=interpolation,
                                                times=times, values=[[value] for value in values]))
        if reason is not None:
            left.setdefault(reason, []).append(f"{first.obj.name} (shape {index})")
    return [Issue("", f"{rewrite.what} not in {rewrite.form} ({reason}): {', '.join(names)}", "warning", rewrite.kind)
            for reason, names in left.items()]
