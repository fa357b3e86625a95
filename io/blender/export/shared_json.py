"""The JSON of the parts a level's bodies repeat, written once and copied after (`SceneWrite._write`).

A level's thousand crates share a few colliders, their dynamic bodies differ mostly in mass, and its joints
share a few settings: writing each object's JSON anew (every field checked, every loss looked for) cost
more than everything else the export does per object. Equal values give equal JSON, and the document-level
items they refer to are already in the arrays, so each distinct value is written once:
- a motion or a collider, by value; a motion that differs from a written one only in mass is that one's
  copy with its own mass (`writer_items.mass_json` says why that is the same JSON);
- a joint's extension, by everything but its connected node, which the copy gets.
A value whose writing reported anything is written again each time, so every object gets its own message.
"""

from __future__ import annotations

from typing import Any, cast

import bpy

from ...omi import model
from ...omi.json_types import MISSING
from ...omi.write import writer
from ...omi.write.items import mass_json, motion_without_mass
from .messages import Messages
from .output import Output
from .parts import NodeSlot, mesh_ref, node_ref

_UNSEEN = object()  # a value not written yet


class RememberedJson:
    """Node extension JSON of one export's repeated values (see the module text)."""

    def __init__(self, out: Output, say: Messages) -> None:
        self.out = out
        self.say = say
        self._parts: dict[tuple[str, Any], dict[str, Any] | None] = {}
        self._by_mass: dict[tuple[Any, ...], dict[str, Any]] = {}
        self._joints: dict[tuple[Any, ...], dict[str, Any]] = {}
        # id(value) -> (value, key, its JSON): a value seen before, found without hashing it again
        self._by_identity: dict[int, tuple[Any, str, dict[str, Any] | None]] = {}

    def part(self, key: str, value: model.Motion | model.Collider, obj: bpy.types.Object) -> dict[str, Any] | None:
        """The body extension's `key` member ("motion" or "collider") for `value`, a copy of its own."""
        same = self._by_identity.get(id(value))  # bodies adopted from Blender share their values' objects
        if same is not None and same[0] is value and same[1] == key:
            return None if same[2] is None else dict(same[2])
        found = self._parts.get((key, value), _UNSEEN)
        if found is not _UNSEEN:
            self._by_identity[id(value)] = (value, key, cast("dict[str, Any] | None", found))
        if found is not _UNSEEN:
            return None if found is None else dict(cast(dict[str, Any], found))
        content = self._motion_by_mass(value) if isinstance(value, model.Motion) else None
        if content is None:
            part = model.NodePhysics(motion=value) if isinstance(value, model.Motion) \
                else model.NodePhysics(collider=value)
            content, issues = self._written(part, writer.BODY)
            content = None if content is None else content.get(key)
            if issues:
                self.say.report(issues, obj)
                return content
            if isinstance(value, model.Motion) and content is not None and "mass" in content:
                self._by_mass[motion_without_mass(value)] = dict(content)
        self._parts[key, value] = None if content is None else dict(content)
        return content

    def _motion_by_mass(self, motion: model.Motion) -> dict[str, Any] | None:
        template = self._by_mass.get(motion_without_mass(motion))
        if template is None:
            return None
        mass = mass_json(motion)
        if mass is MISSING:
            return None
        content = dict(template)
        content["mass"] = mass
        return content

    def joint(self, joint: model.Joint, obj: bpy.types.Object) -> dict[str, Any] | None:
        """The joint extension of a node that carries only `joint`."""
        key = (joint.settings, joint.enable_collision, joint.unknown) \
            if isinstance(joint.connected_node, NodeSlot) and not joint.unknown else None
        template = self._joints.get(key) if key is not None else None
        if template is not None:
            copied = dict(template)
            copied["connectedNode"] = joint.connected_node
            return copied
        content, issues = self._written(model.NodePhysics(joint=joint), writer.JOINT)
        if issues:
            self.say.report(issues, obj)
        elif key is not None and content is not None:
            self._joints[key] = dict(content)
        return content

    def _written(self, part: model.NodePhysics, extension: str) -> tuple[dict[str, Any] | None, list[model.Issue]]:
        """One extension of `part` written in full, and what writing it reported."""
        self.out.note_kept(part)
        issues: list[model.Issue] = []
        return writer.node_extensions(part, self.out.ref, node_ref, mesh_ref, issues).get(extension), issues
