"""The further dialects of one glTF export: the finished physics, as placed for the home dialect (the one the
exporter's gather hooks write, the registry's default), re-spelled in each other dialect of the export target
(`registry.Target.dialects`, in order, e.g. KHR_physics_rigid_bodies with KHR_implicit_shapes), beside the
home spelling or instead of it.

It runs at the end of `PhysicsExport.finish`, when every node and mesh has its index: each node's physics,
as placed for the home spelling (the model values its writer wrote, less what was lost on the way), is
written with the dialect unit's own node writer (`registry.DialectUnit.write_node`), so every dialect comes
from one placement and one set of findings, without reading the home spelling back. What a dialect cannot
hold comes back as Issues, which the export reports. No bpy here beyond the exporter's objects; no dialect
is named here: a registered dialect (tests/unit/toy_dialect.py) is exported the same way.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import Any

from ...omi import model
from ...omi.dialects import registry, unknown_keys
from ...omi.dialects.fields import field
from ...omi.json_types import MISSING
from ...omi.read import reader
from ...omi.units import node_unit
from ...omi.write import writer
from ...omi.write.items import mass_json, motion_without_mass

ANIMATION_POINTER = "KHR_animation_pointer"


def home() -> registry.DialectUnit:
    """The dialect the gather hooks write (`export/output`): the registry's default."""
    return registry.default()


def home_names() -> tuple[str, ...]:
    """Every extension of the home spelling, its extension units' included (e.g. gravity)."""
    return registry.owned_names(home().name)


def write_dialect(gltf: Any, unit: registry.DialectUnit, physics: Iterable[tuple[int, model.NodePhysics]],
                  node_ref: Callable[[Any], Any], mesh_ref: Callable[[Any], Any], *, keep_home: bool,
                  separate: bool = True) -> list[model.Issue]:
    """Add `unit`'s spelling of the export's physics to `gltf`; remove the home spelling unless `keep_home`.

    `physics` is each node's physics as its home spelling was written (node index, model values with the
    export's placeholders, which `node_ref` / `mesh_ref` turn into indices). Returns what the dialect cannot
    hold (pointers into the written file). With animated physics the export keeps the home spelling here (its
    channels point into it) and calls `drop_home` once every channel has its twin (`animation.add_spelling`);
    called without `keep_home` on an animated export, the home spelling stays and a finding says so. Without
    `separate`, nodes with equal bodies share their JSON (nothing changes it afterwards unless animated).
    """
    issues: list[model.Issue] = []
    if not keep_home and ANIMATION_POINTER in (gltf.extensions_used or []):
        issues.append(model.Issue("/extensionsUsed", f"the physics animation points into the {home().name} "
                                                    f"extensions: the {home().name} physics is written too (an "
                                                    "export target with both)", "warning"))
        keep_home = True
    items = writer.ItemArrays(dialect=unit.tables)
    bodies = _Bodies(unit, items.ref, node_ref, mesh_ref, separate)
    written: dict[int, dict[str, Any]] = {}
    shared: dict[tuple[str, model.Severity], list[str]] = {}  # the same loss on many nodes: one line naming them
    for index, part in sorted(physics, key=lambda entry: entry[0]):
        content, node_issues = bodies.content(index, part)
        for found in node_issues:
            if found.kind == SHARED_LOSS:
                shared.setdefault((found.message, found.severity), []).append(_node_name(gltf, index))
        issues.extend(_named(gltf, index, [found for found in node_issues if found.kind != SHARED_LOSS]))
        if content:
            written[index] = content
    issues.extend(model.Issue("", f"{message} ({_listed(names)})", severity, SHARED_LOSS)
                  for (message, severity), names in shared.items())
    issues.extend(_document_not_written(gltf, unit))
    dropped = home_names()
    for index, node in enumerate(gltf.nodes or []):
        content = written.get(index)
        if content is None and keep_home:
            continue
        extensions = {name: value for name, value in (node.extensions or {}).items()
                      if keep_home or name not in dropped}
        if content is not None:
            extensions.update(content)
        node.extensions = extensions or None
    if gltf.extensions is None:
        gltf.extensions = {}
    document = items.by_extension()
    for name in unit.tables.extensions:
        if name in document:
            gltf.extensions[name] = document[name]
    on_nodes = {name for content in written.values() for name in content}
    used = [name for name in unit.tables.extensions if name in document or name in on_nodes]
    if not keep_home:
        drop_home(gltf)
    gltf.extensions_used.extend(name for name in used if name not in gltf.extensions_used)
    return issues


SHARED_LOSS = node_unit.LOSS_KIND  # an extension unit the dialect cannot hold: said once, naming its objects


def _node_name(gltf: Any, index: int) -> str:
    nodes = gltf.nodes or []
    name = getattr(nodes[index], "name", None) if 0 <= index < len(nodes) else None
    return repr(name) if name else f"node {index}"


def _listed(names: list[str], shown: int = 5) -> str:
    more = f" and {len(names) - shown} more" if len(names) > shown else ""
    return ", ".join(names[:shown]) + more


def _named(gltf: Any, index: int, issues: list[model.Issue]) -> list[model.Issue]:
    """A node's findings said of the object it was made from (the exporter names a node after its object),
    with the pointer into the written file after it: the artist looks for the object."""
    nodes = gltf.nodes or []
    name = getattr(nodes[index], "name", None) if 0 <= index < len(nodes) else None
    if not name:
        return issues
    return [model.Issue(issue.pointer, f"object {name!r} ({issue.pointer}): {issue.message}", issue.severity)
            for issue in issues]


def _document_not_written(gltf: Any, unit: registry.DialectUnit) -> list[model.Issue]:
    """The keys a home document extension kept from an imported file (beside its arrays) have no place in the
    other dialect: each is named, as reading the home spelling back finds them. Only the document level is
    read."""
    source = home()
    names = home_names()
    document = {name: content for name, content in (gltf.extensions or {}).items()
                if name in names and isinstance(content, dict) and set(content) - set(source.tables.homes)}
    if not document:
        return []
    read = reader.read_document({"extensions": document}, source.name)
    return unknown_keys.document_not_written(read, unit.name)


class _Bodies:
    """Each node's extensions in one dialect, written once per distinct value and copied after (a level's
    bodies repeat a few, and the items they refer to are already stored): a body of motion and collider by
    value, or, when written without findings, by all but the motion's mass (`writer_items.mass_json`); a
    joint's own node written without findings by its joint's settings, with its own connected node. A value's
    findings are repeated with each node's pointer. With `separate`, every node gets JSON of its own (the
    animation export rewrites a node's references in place); else nodes share what they do not differ in."""

    def __init__(self, unit: registry.DialectUnit, ref: Callable[..., Any], node_ref: Callable[[Any], Any],
                 mesh_ref: Callable[[Any], Any], separate: bool) -> None:
        self._unit = unit
        self._ref, self._node_ref, self._mesh_ref = ref, node_ref, mesh_ref
        self._separate = separate
        self._remembered: dict[Any, tuple[dict[str, Any] | None, list[model.Issue], str]] = {}
        self._by_mass: dict[Any, dict[str, Any]] = {}
        self._joints: dict[Any, dict[str, Any]] = {}

    def content(self, index: int, part: model.NodePhysics) -> tuple[dict[str, Any] | None, list[model.Issue]]:
        """The node's extensions in the dialect ({} when it has none) and what the dialect cannot hold of it."""
        at = f"/nodes/{index}"
        key = _body_key(part)
        try:
            found = self._remembered.get(key) if key is not None else None
        except TypeError:  # values holding lists (not made by the export): written each time
            key = found = None
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
        issues: list[model.Issue] = []
        tables = self._unit.tables
        content = self._unit.write_node(part, self._ref, self._node_ref, self._mesh_ref, issues, at=at,
                                        dialect=tables)
        if key is not None:
            self._remembered[key] = content, issues, at
            motion = content.get(tables.body_extension, {}).get("motion", ())
            if not issues and part.motion is not None and field(tables.motion_fields, "mass").key in motion:
                self._by_mass[motion_without_mass(part.motion), part.collider] = content
        elif joint_key is not None and connected is not None and not issues and content:
            self._joints[joint_key] = content
        return content, issues

    def _with_mass(self, part: model.NodePhysics) -> dict[str, Any] | None:
        if part.motion is None:
            return None
        tables = self._unit.tables
        template = self._by_mass.get((motion_without_mass(part.motion), part.collider))
        mass = mass_json(part.motion, tables) if template is not None else MISSING
        if template is None or mass is MISSING:
            return None
        content = dict(self._own(template))
        body = dict(content[tables.body_extension])
        body["motion"] = dict(body["motion"], **{field(tables.motion_fields, "mass").key: mass})
        content[tables.body_extension] = body
        return content

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
        """The JSON a node gets: a copy of its own when separate, else the one it shares."""
        return _copied(content) if self._separate else content


def _body_key(part: model.NodePhysics) -> tuple[Any, Any] | None:
    """A body of motion and collider only, as a key: a level's bodies repeat a few, and equal values write
    equal JSON (their items are already stored); None for a part written each time."""
    remembered = part.trigger is None and part.joint is None and not part.unknown
    return (part.motion, part.collider) if remembered else None


def _joint_key(part: model.NodePhysics) -> tuple[Any, Any] | None:
    """A node of a joint only, by what its JSON holds besides the connected node; None for any other."""
    joint = part.joint
    only_joint = part.motion is None and part.collider is None and part.trigger is None
    if joint is None or not only_joint or part.unknown or joint.unknown:
        return None
    key = (joint.settings, joint.enable_collision)
    try:
        hash(key)
    except TypeError:  # settings holding lists (not made by the export): written each time
        return None
    return key


def _copied(content: Any) -> Any:
    """A copy of the JSON content in which no container is shared (the animation export rewrites a node's
    references in place)."""
    if isinstance(content, dict):
        return {key: _copied(value) if isinstance(value, dict | list) else value for key, value in content.items()}
    if isinstance(content, list):
        return [_copied(value) if isinstance(value, dict | list) else value for value in content]
    return content


def drop_home(gltf: Any) -> None:
    """Remove the home spelling from the export: node extensions, document extensions, extensionsUsed (an
    export without the home dialect whose animation channels all point into another spelling calls it after
    them)."""
    dropped = home_names()
    for node in gltf.nodes or []:
        if node.extensions and any(name in dropped for name in node.extensions):
            node.extensions = {name: value for name, value in node.extensions.items() if name not in dropped} \
                or None
    for name in dropped:
        (gltf.extensions or {}).pop(name, None)
    gltf.extensions_used[:] = [name for name in gltf.extensions_used if name not in dropped]
