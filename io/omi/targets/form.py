"""What an export target changes in a written document, as data (`Form`), and its applier on glTF JSON.

A target (`registry.Target`) writes its dialects, then its form, in steps: each step reads the document as
the step before left it and returns a `Form`. Making a step rewrites the physics JSON that both sides hold
as plain dicts in place (shape forms, joint settings, legacy key names); the Form holds the changes to the
document's structure (node keys set: a scale baked, a frame turned; nodes added: a render mesh moved to a
child, a part moved to a scaled child, a joint frame turned on a node of its own) and what the target drops,
said once per kind (`issues`). Two appliers run the same Forms: `apply_json` on a parsed file (the command
line's convert), io/blender/export/target_form.py on the exporter's document (the Blender export).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..model import Issue
from . import godot_channels

MESH_KEYS = ("mesh", "skin", "weights")  # what a node's render mesh is: they move together


@dataclass
class NewNode:
    """A node the form appends, as the last child of node `parent`."""

    parent: int
    name: str | None
    rotation: list[float] | None = None
    translation: list[float] | None = None
    scale: list[float] | None = None
    takes_mesh: bool = False  # the parent's render mesh (`MESH_KEYS`) moves onto it
    extensions: dict[str, Any] | None = None  # its own extensions
    takes_extension: tuple[int, str] | None = None  # (node, extension name): that node's extension moves onto it
    # (an extension object, a key): the key is set to the new node's index (a joint's connected node)
    referenced_by: tuple[dict[str, Any], str] | None = None


@dataclass
class Form:
    """One step of a target's form (see the module text)."""

    node_changes: dict[int, dict[str, Any]] = field(default_factory=dict)  # key -> new value (None: removed)
    new_nodes: list[NewNode] = field(default_factory=list)
    issues: list[Issue] = field(default_factory=list)


FormStep = Callable[[dict[str, Any]], Form]  # the document as the steps before left it -> the next step


def apply_json(document: dict[str, Any], steps: tuple[FormStep, ...]) -> list[Issue]:
    """Run a target's form on a parsed glTF document, in place; what the target drops and changes. The
    channels of a moved mesh's morph weights follow it to its new node (`godot_channels.follow_meshes`)."""
    issues: list[Issue] = []
    for step in steps:
        form = step(document)
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
        godot_channels.follow_meshes(document, moved)
        issues.extend(form.issues)
    return issues
