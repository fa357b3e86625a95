"""The KHR dialect of one glTF export: the finished OMI physics re-spelled as KHR_physics_rigid_bodies with
KHR_implicit_shapes, beside the OMI (dialect "both") or instead of it ("KHR").

It runs at the end of `PhysicsExport.finish`, when every node and mesh has its index: each node's physics,
as placed for the OMI spelling (the model values the OMI writer wrote, less what the OMI lost on the way),
is written with the KHR writer (`io/omi/writer_khr`), so both dialects come from one placement and one set
of findings, without reading the OMI back. What KHR cannot hold comes back as Issues, which the export
reports. No bpy here beyond the exporter's objects.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import Any

from ...omi import model
from ...omi.dialects import unknown_keys
from ...omi.dialects.khr import KHR
from ...omi.dialects.omi import OMI
from ...omi.json_types import MISSING
from ...omi.read import reader
from ...omi.write import khr, writer
from ...omi.write.items import mass_json, motion_without_mass

OMI_NAMES = (*model.ALL_EXTENSIONS, model.GRAVITY_EXTENSION)  # gravity: KHR has none (its loss is named)
KHR_NAMES = model.KHR_EXTENSIONS
ANIMATION_POINTER = "KHR_animation_pointer"


def write_khr(gltf: Any, physics: Iterable[tuple[int, model.NodePhysics]], node_ref: Callable[[Any], Any],
              mesh_ref: Callable[[Any], Any], keep_omi: bool, *, separate: bool = True) -> list[model.Issue]:
    """Add the KHR spelling of the export's physics to `gltf`; remove the OMI unless `keep_omi`.

    `physics` is each node's physics as its OMI was written (node index, model values with the export's
    placeholders, which `node_ref` / `mesh_ref` turn into indices). Returns what KHR cannot hold (pointers
    into the written file). With animated physics the export keeps the OMI here (its channels point into
    it) and calls `drop_omi` once every channel has its KHR twin (`animation_gltf.add_khr`); called without
    `keep_omi` on an animated export, the OMI stays and a finding says so. Without `separate`, nodes with
    equal bodies share their JSON (nothing changes it afterwards unless the physics is animated).
    """
    issues: list[model.Issue] = []
    if not keep_omi and ANIMATION_POINTER in (gltf.extensions_used or []):
        issues.append(model.Issue("/extensionsUsed", "the physics animation points into the OMI extensions: the "
                                                    "OMI physics is written too (export 'OMI and KHR')", "warning"))
        keep_omi = True
    items = writer.ItemArrays(dialect=KHR)
    bodies = _Bodies(items.ref, node_ref, mesh_ref, separate)
    written: dict[int, dict[str, Any]] = {}
    for index, part in sorted(physics, key=lambda entry: entry[0]):
        content, node_issues = bodies.content(index, part)
        issues.extend(_named(gltf, index, node_issues))
        if content is not None:
            written[index] = content
    issues.extend(_document_not_written(gltf))
    for index, node in enumerate(gltf.nodes or []):
        content = written.get(index)
        if content is None and keep_omi:
            continue
        extensions = {name: value for name, value in (node.extensions or {}).items()
                      if keep_omi or name not in OMI_NAMES}
        if content is not None:
            extensions[model.KHR_BODY_EXTENSION] = content
        node.extensions = extensions or None
    if gltf.extensions is None:
        gltf.extensions = {}
    document = items.by_extension()
    for name in KHR_NAMES:
        if name in document:
            gltf.extensions[name] = document[name]
    used = [name for name in KHR.extensions
            if name in document or (name == model.KHR_BODY_EXTENSION and written)]
    if not keep_omi:
        drop_omi(gltf)
    gltf.extensions_used.extend(name for name in used if name not in gltf.extensions_used)
    return issues


def _named(gltf: Any, index: int, issues: list[model.Issue]) -> list[model.Issue]:
    """A node's findings said of the object it was made from (the exporter names a node after its object),
    with the pointer into the written file after it: the artist looks for the object."""
    nodes = gltf.nodes or []
    name = getattr(nodes[index], "name", None) if 0 <= index < len(nodes) else None
    if not name:
        return issues
    return [model.Issue(issue.pointer, f"object {name!r} ({issue.pointer}): {issue.message}", issue.severity)
            for issue in issues]


def _document_not_written(gltf: Any) -> list[model.Issue]:
    """The keys an OMI document extension kept from an imported file (beside its arrays) have no place in
    KHR: each is named, as reading the OMI back finds them. Only the document level is read."""
    document = {name: content for name, content in (gltf.extensions or {}).items()
                if name in OMI_NAMES and isinstance(content, dict) and set(content) - set(OMI.homes)}
    if not document:
        return []
    return unknown_keys.document_not_written(reader.read_document({"extensions": document}, OMI.name), KHR.name)


class _Bodies:
    """Each node's KHR body, written once per distinct value and copied after (a level's bodies repeat a few,
    and the items they refer to are already stored): a body of motion and collider by value, or, when written
    without findings, by all but the motion's mass (`writer_items.mass_json`); a joint's own node written
    without findings by its joint's settings, with its own connected node. A value's findings are repeated
    with each node's pointer. With `separate`, every node gets JSON of its own (the animation export rewrites
    a node's references in place); else nodes share what they do not differ in."""

    def __init__(self, ref: Callable[..., Any], node_ref: Callable[[Any], Any], mesh_ref: Callable[[Any], Any],
                 separate: bool) -> None:
        self._ref, self._node_ref, self._mesh_ref = ref, node_ref, mesh_ref
        self._separate = separate
        self._remembered: dict[Any, tuple[dict[str, Any] | None, list[model.Issue], str]] = {}
        self._by_mass: dict[Any, dict[str, Any]] = {}
        self._joints: dict[Any, dict[str, Any]] = {}

    def content(self, index: int, part: model.NodePhysics) -> tuple[dict[str, Any] | None, list[model.Issue]]:
        """The node's KHR body extension (None when it has none) and what KHR cannot hold of it."""
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
        content = khr.node_extensions_khr(part, self._ref, self._node_ref, self._mesh_ref, issues,
                                                 at=at).get(model.KHR_BODY_EXTENSION)
        if key is not None:
            self._remembered[key] = content, issues, at
            if not issues and part.motion is not None and content is not None and "mass" in content.get("motion", ()):
                self._by_mass[motion_without_mass(part.motion), part.collider] = content
        elif joint_key is not None and connected is not None and not issues and content is not None:
            self._joints[joint_key] = content
        return content, issues

    def _with_mass(self, part: model.NodePhysics) -> dict[str, Any] | None:
        if part.motion is None:
            return None
        template = self._by_mass.get((motion_without_mass(part.motion), part.collider))
        mass = mass_json(part.motion, KHR) if template is not None else MISSING
        if template is None or mass is MISSING:
            return None
        content = dict(self._own(template))
        content["motion"] = dict(content["motion"], mass=mass)
        return content

    def _with_connected(self, joint_key: Any, connected: Any) -> dict[str, Any] | None:
        template = self._joints.get(joint_key) if joint_key is not None and connected is not None else None
        if template is None:
            return None
        content = dict(self._own(template))
        content["joint"] = dict(content["joint"], connectedNode=connected)
        return content

    def _own(self, content: Any) -> Any:
        """The JSON a node gets: a copy of its own when separate, else the one it shares."""
        return _copied(content) if self._separate else content


def _body_key(part: model.NodePhysics) -> tuple[Any, Any] | None:
    """A body of motion and collider only, as a key: a level's bodies repeat a few, and equal values write
    equal KHR (their items are already stored); None for a part written each time."""
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


def drop_omi(gltf: Any) -> None:
    """Remove the OMI spelling from the export: node extensions, document extensions, extensionsUsed (a
    KHR-only export whose animation channels all point into the KHR spelling calls it after them)."""
    for node in gltf.nodes or []:
        if node.extensions and any(name in OMI_NAMES for name in node.extensions):
            node.extensions = {name: value for name, value in node.extensions.items() if name not in OMI_NAMES} \
                or None
    for name in OMI_NAMES:
        (gltf.extensions or {}).pop(name, None)
    gltf.extensions_used[:] = [name for name in gltf.extensions_used if name not in OMI_NAMES]
