"""Model -> glTF JSON in the OMI structure: one node's body and joint extensions.

`node_extensions` builds one node's extensions and hands every document-level item (shape, physics
material, collision filter, joint settings) to a `ref` callback that decides what stands for its index,
and every node or mesh reference to `node_ref`/`mesh_ref` (see `write/writer.py`, which deduplicates the
items into arrays, and the glTF export hook, which resolves placeholders). The extension names and tables
are the dialect's (OMI by default), so another dialect of the same structure writes with these functions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import model
from ..checks import value_losses
from ..dialects import registry
from ..dialects.base import Dialect
from ..dialects.fields import write_unknown
from ..dialects.omi import OMI
from ..json_types import MISSING, Where, join, report
from ..model import Collider, Issue, Joint, MeshRef, NodePhysics, NodeRef, Shape, Trigger
from .items import filter_to_json, joint_settings_to_json, material_to_json, motion_to_json, shape_to_json

Ref = Callable[[str, dict[str, Any]], Any]


def _shape_ref(shape: Shape, ref: Ref, mesh_ref: Callable[[MeshRef], Any], at: Where,
               issues: list[Issue] | None, *, dialect: Dialect) -> tuple[bool, Any]:
    """(usable, index) for a shape; not usable when its mesh is not exported."""
    mesh_value = None
    if shape.type in model.MESH_SHAPE_TYPES:
        if shape.mesh is None:
            report(issues, at, f"{shape.type} shape has no mesh; written without one", "warning")
        else:
            mesh_value = mesh_ref(shape.mesh)
            if mesh_value is None:
                report(issues, at, f"the mesh of the {shape.type} shape is not exported; dropped")
                return False, None
    return True, ref("shapes", shape_to_json(shape, mesh_value, dialect))


def _optional_ref(ref: Ref, kind: str, item: dict[str, Any]) -> Any:
    """Index of a material/filter, or None for one that means the same as no item at all."""
    return ref(kind, item) if item else None


def _collider_json(collider: Collider, ref: Ref, mesh_ref: Callable[[MeshRef], Any], at: Where,
                   issues: list[Issue] | None, *, dialect: Dialect) -> dict[str, Any] | None:
    out: dict[str, Any] = {}
    if collider.shape is not None:
        usable, index = _shape_ref(collider.shape, ref, mesh_ref, join(at, "collider", "shape"), issues,
                                   dialect=dialect)
        if not usable:
            return None
        out["shape"] = index
    if collider.physics_material is not None:
        index = _optional_ref(ref, "physicsMaterials", material_to_json(collider.physics_material, dialect))
        if index is not None:
            out["physicsMaterial"] = index
    if collider.collision_filter is not None:
        index = _optional_ref(ref, "collisionFilters", filter_to_json(collider.collision_filter, dialect))
        if index is not None:
            out["collisionFilter"] = index
    return write_unknown(dialect.collider_fields, collider, out, dialect.name)


def _trigger_json(trigger: Trigger, ref: Ref, node_ref: Callable[[NodeRef], Any],
                  mesh_ref: Callable[[MeshRef], Any], *, at: Where,
                  issues: list[Issue] | None, dialect: Dialect) -> dict[str, Any] | None:
    out: dict[str, Any] = {}
    if trigger.shape is not None:
        usable, index = _shape_ref(trigger.shape, ref, mesh_ref, join(at, "trigger", "shape"), issues, dialect=dialect)
        if not usable:
            return None
        out["shape"] = index
        if trigger.collision_filter is not None:
            index = _optional_ref(ref, "collisionFilters", filter_to_json(trigger.collision_filter, dialect))
            if index is not None:
                out["collisionFilter"] = index
        return write_unknown(dialect.trigger_fields, trigger, out, dialect.name)
    members = []
    for position, member in enumerate(trigger.nodes):
        value = node_ref(member)
        if value is None:
            report(issues, join(at, "trigger", "nodes", position), "compound trigger member is not exported; dropped")
        elif value not in members:
            members.append(value)
    if not members:
        report(issues, join(at, "trigger"), "compound trigger has no exported member; dropped")
        return None
    if trigger.collision_filter is not None and filter_to_json(trigger.collision_filter, dialect):
        report(issues, join(at, "trigger", "collisionFilter"),
              "a compound trigger cannot carry a collision filter (schema); set it on its members; dropped")
    out["nodes"] = members
    return write_unknown(dialect.trigger_fields, trigger, out, dialect.name)


def _joint_json(joint: Joint, ref: Ref, node_ref: Callable[[NodeRef], Any], at: Where,
                issues: list[Issue] | None, *, dialect: Dialect) -> dict[str, Any] | None:
    connected = node_ref(joint.connected_node) if joint.connected_node is not None else None
    if connected is None:
        report(issues, join(at, "connectedNode"), "the joint's connected node is not exported; joint dropped")
        return None
    out: dict[str, Any] = {"joint": ref("physicsJoints", joint_settings_to_json(joint.settings, dialect)),
                           "connectedNode": connected}
    if joint.enable_collision:
        out["enableCollision"] = True
    return write_unknown(dialect.joint_fields, joint, out, dialect.name)


def node_extensions(
    node: NodePhysics,
    ref: Ref,
    node_ref: Callable[[NodeRef], Any],
    mesh_ref: Callable[[MeshRef], Any],
    issues: list[Issue] | None = None,
    *,
    at: str = "",
    dialect: Dialect = OMI,
) -> dict[str, dict[str, Any]]:
    """The node-level extensions of one node: {"OMI_physics_body": ..., "OMI_physics_joint": ...}.

    Only the keys that apply are present. A grouping collider is written as `{}`. Targets that
    node_ref/mesh_ref report as not exported (None) are dropped and noted in `issues` (pointers are
    relative to `at`, e.g. "/nodes/3/extensions/OMI_physics_body").
    """
    result: dict[str, dict[str, Any]] = {}
    body: dict[str, Any] = {}
    body_at = join(at, "extensions", dialect.body_extension) if at else ""
    if issues is not None:
        issues.extend(value_losses.unwritten(node, dialect, at))  # what the file will not hold, named
    if node.motion is not None:
        body["motion"] = motion_to_json(node.motion, dialect)
    if node.collider is not None:
        collider = _collider_json(node.collider, ref, mesh_ref, body_at, issues, dialect=dialect)
        if collider is not None:
            body["collider"] = collider
    if node.trigger is not None:
        trigger = _trigger_json(node.trigger, ref, node_ref, mesh_ref, at=body_at, issues=issues, dialect=dialect)
        if trigger is not None:
            body["trigger"] = trigger
    body = write_unknown((), node, body, dialect.name)  # the body object's own kept keys
    if body:
        result[dialect.body_extension] = body
    if node.joint is not None:
        joint_at = join(at, "extensions", dialect.joint_extension) if at else ""
        joint = _joint_json(node.joint, ref, node_ref, joint_at, issues, dialect=dialect)
        if joint is not None:
            result[dialect.joint_extension] = joint
    refs = registry.Refs(ref, lambda shape: _shape_ref(shape, ref, mesh_ref, at, issues, dialect=dialect),
                         node_ref, mesh_ref)
    for extension in registry.extensions_of(dialect.name):  # e.g. a gravity volume, a seat
        if extension.write_node is not None:
            value = extension.write_node(node, refs, at, issues)
            if value is not MISSING:
                result[extension.name] = value
    return result
