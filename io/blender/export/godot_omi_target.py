"""The `godot_omi` export target on the exporter's finished document (io/omi/dialects/godot_omi.py decides):
the `godot` form, then the joints in the form omi-godot builds right (their settings rewritten in place,
their frames turned, on new child nodes where a node holds more than the frame)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...omi import model, units
from ...omi.dialects import godot_omi
from ...omi.model import Issue
from . import godot_target


def apply(gltf: Any, new_node: Callable[[str], Any]) -> list[Issue]:
    """Put the finished document into the `godot_omi` form; `new_node(name)` makes an exporter node at the
    origin of its parent."""
    issues = godot_target.apply(gltf, new_node, omi_godot=True)
    form = godot_omi.joint_form(godot_target.view(gltf))
    for index, rotation in form.rotations.items():
        gltf.nodes[index].rotation = rotation
    joint_of = {frame.connected_for: gltf.nodes[frame.connected_for].extensions[model.JOINT_EXTENSION]
                for frame in form.new_frames if frame.connected_for is not None}
    for frame in form.new_frames:
        child = new_node(frame.name)
        child.rotation = frame.rotation
        child.translation, child.scale = frame.translation, frame.scale
        if frame.joint_of is not None:
            holder = gltf.nodes[frame.joint_of]
            child.extensions = {model.JOINT_EXTENSION: holder.extensions.pop(model.JOINT_EXTENSION)}
            holder.extensions = holder.extensions or None
        gltf.nodes.append(child)
        parent = gltf.nodes[frame.parent]
        parent.children = [*(parent.children or []), len(gltf.nodes) - 1]
        if frame.connected_for is not None:
            joint_of[frame.connected_for]["connectedNode"] = len(gltf.nodes) - 1
    return [*issues, *form.issues, *godot_omi.legacy_names(godot_target.view(gltf), units.legacy_names())]
