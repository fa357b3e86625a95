"""One dialect's node extensions, written once per distinct value and copied after (`Repeats`).

A level's thousand crates share a few colliders, their dynamic bodies differ mostly in mass, and its joints
share a few settings: writing each node anew (every field checked, every loss looked for) cost more than
everything else an export does per node. Equal values give equal JSON, and the document-level items they
refer to are already stored, so each distinct value is written once:
- a body of motion and collider, by value; a body that differs from a written one (written without
  findings) only in its motion's mass is that one's copy with its own mass (`items.mass_json` says why that
  is the same JSON);
- a joint's own node (written without findings), by its joint's settings, with its own connected node.
A value's findings come again with each node, at its own pointer. The export writes every dialect of its
target through one of these each (`export_writer`, `export_dialects`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from .. import model
from ..dialects import registry
from ..dialects.fields import field
from ..json_types import MISSING
from ..unit_values import NO_UNIT_VALUES
from .items import mass_json, motion_without_mass

# How the JSON a node gets relates to the remembered one: nodes share it (nothing changes it afterwards),
# each gets a deep copy (the animation export rewrites a node's references in place), or each gets its
# own extension objects (the export puts placeholders' indices and markers into them).
SHARED, SEPARATE, OWN_OBJECTS = "shared", "separate", "own objects"


class Repeats:
    """Each node's extensions in one dialect, written once per distinct value (see the module text)."""

    def __init__(self, unit: registry.DialectUnit, ref: Callable[..., Any], node_ref: Callable[[Any], Any],  # noqa: PLR0917
                 mesh_ref: Callable[[Any], Any], copies: str = SHARED,
                 written: Callable[[model.NodePhysics], None] | None = None) -> None:
        self._unit = unit
        self._ref, self._node_ref, self._mesh_ref = ref, node_ref, mesh_ref
        self._copies = copies
        self._on_write = written  # told of every node written in full (its kept keys' extension names)
        self._remembered: dict[Any, tuple[dict[str, Any], list[model.Issue], str]] = {}
        # (id(motion), id(collider)) -> (motion, collider, what `_remembered` holds): a body seen before, found
        # without hashing its values again (bodies adopted from Blender share their values' objects)
        self._by_identity: dict[tuple[int, int], tuple[Any, Any, tuple[dict[str, Any], list[model.Issue], str]]] = {}
        self._by_mass: dict[Any, dict[str, Any]] = {}
        self._joints: dict[Any, dict[str, Any]] = {}
        # colliders by value, each the first equal one met, and by identity (`_collider_key`)
        self._colliders: dict[Any, Any] = {}
        self._collider_ids: dict[int, tuple[Any, int]] = {}

    def content(self, at: str, part: model.NodePhysics) -> tuple[dict[str, Any], list[model.Issue]]:
        """The node's extensions in the dialect ({} when it has none) and what the dialect cannot hold of it;
        `at` is the node's pointer ("" for findings said of its object)."""
        key = _body_key(part)
        found = None
        if key is not None:
            identity = (id(part.motion), id(part.collider))
            same = self._by_identity.get(identity)
            if same is not None and same[0] is part.motion and same[1] is part.collider:
                found = same[2]
            else:
                try:
                    key = (part.motion, self._collider_key(part.collider))
                    found = self._remembered.get(key)
                except TypeError:  # values holding lists (not made by the export): written each time
                    key = None
                if found is not None:
                    self._by_identity[identity] = (part.motion, part.collider, found)
        if found is not None:
            content, first_issues, first_at = found
            return self._own(content), [dataclasses.replace(issue, pointer=at + issue.pointer[len(first_at):])
                                        if issue.pointer.startswith(first_at + "/") else issue
                                        for issue in first_issues]
        joint_key = _joint_key(part)
        connected = self._node_ref(part.joint.connected_node) \
            if joint_key is not None and part.joint is not None else None
        copy = self._with_mass(part) if key is not None else self._with_connected(joint_key, connected)
        if copy is not None:
            return copy, []
        if self._on_write is not None:
            self._on_write(part)
        issues: list[model.Issue] = []
        tables = self._unit.tables
        content = self._unit.write_node(part, self._ref, self._node_ref, self._mesh_ref, issues, at=at,
                                        dialect=tables)
        if key is not None:
            self._remembered[key] = content, issues, at
            motion = content.get(tables.body_extension, {}).get("motion", ())
            if not issues and part.motion is not None and field(tables.motion_fields, "mass").key in motion:
                self._by_mass[motion_without_mass(part.motion), key[1]] = content
        elif joint_key is not None and connected is not None and not issues and content:
            self._joints[joint_key] = content
        return (_own_objects(content) if self._copies == OWN_OBJECTS else content), issues

    def _with_mass(self, part: model.NodePhysics) -> dict[str, Any] | None:
        if part.motion is None:
            return None
        tables = self._unit.tables
        template = self._by_mass.get((motion_without_mass(part.motion), self._collider_key(part.collider)))
        mass = mass_json(part.motion, tables) if template is not None else MISSING
        if template is None or mass is MISSING:
            return None
        content = self._own(template)
        # the node's own body object, with its own motion object: copied here unless `_own` made it
        content = content if content is not template else dict(content)
        body = content[tables.body_extension]
        body = body if body is not template[tables.body_extension] else dict(body)
        motion = dict(body["motion"])
        motion[field(tables.motion_fields, "mass").key] = mass
        body["motion"] = motion
        content[tables.body_extension] = body
        return content

    def _collider_key(self, collider: model.Collider | None) -> int:
        """A collider's stand-in in keys: the id of the first equal collider met. A collider's hash walks its
        shape, material and filter; each collider object is hashed once here (bodies share theirs)."""
        known = self._collider_ids.get(id(collider))
        if known is not None and known[0] is collider:
            return known[1]
        first = self._colliders.setdefault(collider, collider)  # kept: its id stays its own
        self._collider_ids[id(collider)] = (collider, id(first))
        return id(first)

    def _with_connected(self, joint_key: Any, connected: Any) -> dict[str, Any] | None:
        template = self._joints.get(joint_key) if joint_key is not None and connected is not None else None
        if template is None:
            return None
        content = dict(self._own(template))
        extension = self._unit.tables.joint_extension
        holder = dict(content[extension])  # the joint's node object: the extension's own, or its `joint` (KHR)
        if "connectedNode" in holder:
            holder["connectedNode"] = connected
        else:
            holder["joint"] = dict(holder["joint"], connectedNode=connected)
        content[extension] = holder
        return content

    def _own(self, content: Any) -> Any:
        """The JSON a node gets (see SHARED, SEPARATE, OWN_OBJECTS)."""
        if self._copies == SEPARATE:
            return _copied(content)
        if self._copies == OWN_OBJECTS:
            return _own_objects(content)
        return content


def _body_key(part: model.NodePhysics) -> tuple[Any, Any] | None:
    """A body of motion and collider only, as a key: a level's bodies repeat a few, and equal values write
    equal JSON (their items are already stored); None for a part written each time."""
    remembered = part.trigger is None and part.joint is None and part.gravity is None \
        and (part.unknown is model.NOTHING_UNKNOWN or not part.unknown) \
        and (part.extensions is NO_UNIT_VALUES or not part.extensions)  # (the common case without a call)
    return (part.motion, part.collider) if remembered else None


def _joint_key(part: model.NodePhysics) -> tuple[Any, Any] | None:
    """A node of a joint only, by what its JSON holds besides the connected node; None for any other."""
    joint = part.joint
    only_joint = part.motion is None and part.collider is None and part.trigger is None
    if joint is None or not only_joint or part.unknown or joint.unknown or part.extensions:
        return None
    key = (joint.settings, joint.enable_collision)
    try:
        hash(key)
    except TypeError:  # settings holding lists (not made by the export): written each time
        return None
    return key


def _own_objects(content: dict[str, Any]) -> dict[str, Any]:
    """The node's extensions with each extension object its own (a marker or an index goes into them)."""
    return {name: dict(value) for name, value in content.items()}


def _copied(content: Any) -> Any:
    """A copy of the JSON content in which no container is shared (the animation export rewrites a node's
    references in place)."""
    if isinstance(content, dict):
        return {key: _copied(value) if isinstance(value, dict | list) else value for key, value in content.items()}
    if isinstance(content, list):
        return [_copied(value) if isinstance(value, dict | list) else value for value in content]
    return content
