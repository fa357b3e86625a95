"""Model -> KHR_physics_rigid_bodies + KHR_implicit_shapes (the newest revision: `geometry.mesh`).

The counterpart of `write/omi.node_extensions` for the KHR dialect, with the same `ref`/`node_ref`/`mesh_ref`
callbacks, so `writer.write_document` and the glTF export hook place KHR items the way they place OMI
ones (`writer.ItemArrays(dialect=KHR)`). Sizes are always written (KHR's defaults differ from OMI's).
Whatever KHR cannot hold is reported with the pointer of the node, never dropped silently:
- a static motion: KHR's static body is a collider with no motion, so the motion is left out (its
  non-default values are named);
- mass 0 or an inertia with a zero component (infinite in KHR), a drive stiffness without a position
  target or damping without a velocity target (the KHR schema pairs them);
- a grouping collider (no shape): KHR needs no marker, the colliders below a motion form its compound.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from .. import model
from ..checks import rulebook
from ..dialects import registry, unknown_keys
from ..dialects.base import Dialect
from ..dialects.fields import Field, field, write_fields
from ..dialects.khr import BODY_EXTENSION, KHR
from ..dialects.omi import OMI_MOTION_FIELDS
from ..json_types import Where, join
from ..model import Collider, Issue, Joint, JointSettings, MeshRef, Motion, NodePhysics, NodeRef, Shape, Trigger
from .items import drive_to_json, filter_to_json, limit_to_json, material_to_json, shape_to_json

Ref = Callable[[str, dict[str, Any]], Any]


def _note(issues: list[Issue] | None, at: Where, what: str, outcome: str, name: str = "khr_cannot_hold") -> None:
    if issues is not None:
        issues.append(rulebook.note(at, name, what=what, outcome=outcome))


def motion_to_khr(motion: Motion, at: Where, issues: list[Issue] | None) -> dict[str, Any] | None:
    """The KHR motion, or None for a static one (KHR: no motion)."""
    if motion.type == "static":
        changed = [spec.key for spec in model_fields()  # None: left to the engine, nothing to lose
                   if getattr(motion, spec.attr) not in (None, getattr(Motion(), spec.attr))]
        if changed:
            _note(issues, at, f"a static motion's {', '.join(changed)}",
                  "a static body is a collider without motion in KHR; the motion is left out")
        else:
            _note(issues, at, "static motion", "written as no motion (KHR's static body)", "khr_omitted")
        return None
    out: dict[str, Any] = {"isKinematic": True} if motion.type == "kinematic" else {}
    if motion.mass == 0.0:
        _note(issues, join(at, "mass"), "mass 0 (it means infinite mass in KHR)", "left out: the engine computes it")
    inertia = motion.inertia_diagonal
    computed = [value == 0.0 for value in inertia]
    if any(computed) and not all(computed):
        _note(issues, join(at, "inertiaDiagonal"), "an inertia with some zero components (computed; 0 is infinite "
              "in KHR)", "left out: the engine computes it")
        motion = dataclasses.replace(motion, inertia_diagonal=model.ZERO3)
    try:
        values = _motion_values(motion)
    except TypeError:  # a motion holding unhashable values (not from the reader): written without the cache
        values = tuple(write_fields(KHR.motion_fields, motion, {}).items())
    out.update((key, list(value) if isinstance(value, list) else value) for key, value in values)
    infinite = _infinite_values(motion)
    return _ordered({**out, **infinite}) if infinite else out


def _infinite_values(motion: Motion) -> dict[str, Any]:
    """KHR spells infinite mass and inertia as 0 (`zero_is_infinite`; the tables leave both out: not finite)."""
    out: dict[str, Any] = {}
    for spec in KHR.motion_fields:
        if not spec.zero_is_infinite:
            continue
        value = getattr(motion, spec.attr)
        if isinstance(value, tuple) and any(math.isinf(number) for number in value):
            out[spec.key] = [0 if math.isinf(number) else number for number in value]
        elif isinstance(value, float) and math.isinf(value):
            out[spec.key] = 0
    return out


def _ordered(out: dict[str, Any]) -> dict[str, Any]:
    """The motion's keys in the table's order (after a value was put in by hand)."""
    order = {spec.key: index for index, spec in enumerate(KHR.motion_fields)}
    return dict(sorted(out.items(), key=lambda item: order.get(item[0], -1)))


@lru_cache(maxsize=4096)
def _motion_values(motion: Motion) -> tuple[tuple[str, Any], ...]:
    """The KHR motion values of a motion (scenes repeat the same motion on many bodies)."""
    return tuple(write_fields(KHR.motion_fields, motion, {}).items())


def model_fields() -> tuple[Field, ...]:
    """The motion values a static OMI motion may carry (all but its type)."""
    return tuple(spec for spec in OMI_MOTION_FIELDS if spec.kind != "special")


def shape_to_khr(shape: Shape) -> dict[str, Any]:
    """A KHR_implicit_shapes shapes[] entry with every size explicit."""
    if shape.type in model.ROUND_SHAPE_TYPES:
        shape = dataclasses.replace(shape, height=shape.effective_height)
    return shape_to_json(shape, None, KHR)


def _geometry(shape: Shape, ref: Ref, mesh_ref: Callable[[MeshRef], Any], at: Where,
              issues: list[Issue] | None) -> dict[str, Any] | None:
    if shape.type in model.MESH_SHAPE_TYPES:
        mesh = mesh_ref(shape.mesh) if shape.mesh is not None else None
        if mesh is None:
            _note(issues, at, f"a {shape.type} shape without an exported mesh", "dropped")
            return None
        return {"mesh": mesh, "convexHull": True} if shape.type == "convex" else {"mesh": mesh}
    if rulebook.degenerate(shape):  # what a KHR reader drops (read/items.py), named here instead of written
        _note(issues, at, f"a {shape.type} whose radii are both 0 (no volume: KHR_implicit_shapes prohibits it)",
              "dropped")
        return None
    return {"shape": ref("shapes", shape_to_khr(shape))}


def _filter_ref(ref: Ref, collision_filter: model.CollisionFilter | None) -> Any:
    item = filter_to_json(collision_filter, KHR) if collision_filter is not None else {}
    return ref("collisionFilters", item) if item else None


def collider_to_khr(collider: Collider, ref: Ref, mesh_ref: Callable[[MeshRef], Any], at: Where,
                    issues: list[Issue] | None) -> dict[str, Any] | None:
    if collider.shape is None:
        _note(issues, at, "a grouping collider (no shape)",
              "not written: the colliders below a KHR motion form its compound without a marker", "khr_omitted")
        return None
    geometry = _geometry(collider.shape, ref, mesh_ref, join(at, "geometry"), issues)
    if geometry is None:
        return None
    out: dict[str, Any] = {"geometry": geometry}
    if collider.physics_material is not None:
        out["physicsMaterial"] = ref("physicsMaterials", material_to_json(collider.physics_material, KHR))
    filter_index = _filter_ref(ref, collider.collision_filter)
    if filter_index is not None:
        out["collisionFilter"] = filter_index
    return out


def trigger_to_khr(trigger: Trigger, ref: Ref, node_ref: Callable[[NodeRef], Any],
                   mesh_ref: Callable[[MeshRef], Any], *, at: Where,
                   issues: list[Issue] | None) -> dict[str, Any] | None:
    if trigger.shape is not None:
        geometry = _geometry(trigger.shape, ref, mesh_ref, join(at, "geometry"), issues)
        if geometry is None:
            return None
        out: dict[str, Any] = {"geometry": geometry}
        filter_index = _filter_ref(ref, trigger.collision_filter)
        if filter_index is not None:
            out["collisionFilter"] = filter_index
        return out
    members: list[Any] = []
    for member in trigger.nodes:
        value = node_ref(member)
        if value is not None and value not in members:
            members.append(value)
    if not members:
        _note(issues, join(at, "nodes"), "a compound trigger without exported members", "dropped")
        return None
    return {"nodes": members}


def joint_settings_to_khr(settings: JointSettings, at: Where, issues: list[Issue] | None) -> dict[str, Any]:
    """physicsJoints[] entry; a drive's stiffness/positionTarget and damping/velocityTarget come in pairs."""
    out: dict[str, Any] = {}
    limits = [entry for limit in settings.limits for entry in limit_to_json(limit, KHR)]
    if limits:
        out["limits"] = limits
    drives = []
    for position, drive in enumerate(settings.drives):
        item = drive_to_json(drive, KHR)
        for target, gain in rulebook.DRIVE_GAIN_PAIRS:
            if target in item:
                item.setdefault(gain, 0.0)
            elif gain in item:
                _note(issues, join(at, "drives", position, gain), f"a drive {gain} without a {target}",
                      "left out (the KHR schema pairs them)")
                del item[gain]
        drives.append(item)
    if drives:
        out["drives"] = drives
    name = field(KHR.joint_settings_fields, "name")
    if settings.name:
        out[name.key] = settings.name
    return out


def node_extensions_khr(node: NodePhysics, ref: Ref, node_ref: Callable[[NodeRef], Any],
                        mesh_ref: Callable[[MeshRef], Any], issues: list[Issue] | None = None, *,
                        at: str = "", dialect: Dialect = KHR) -> dict[str, dict[str, Any]]:
    """{"KHR_physics_rigid_bodies": {...}} for one node, or {} (pointers relative to `at`; the structure is
    KHR's, its tables are `dialect`'s)."""
    body: dict[str, Any] = {}
    body_at = join(at, "extensions", BODY_EXTENSION)
    if issues is not None:  # what an OMI file held that the model does not read stays in the OMI spelling
        issues.extend(unknown_keys.not_written(node, dialect.name, at))
        for extension in registry.extension_units():  # another dialect's extension units: named
            if extension.dialect != dialect.name and extension.node_losses is not None:
                issues.extend(extension.node_losses(node, at))
    if node.motion is not None:
        motion = motion_to_khr(node.motion, join(body_at, "motion"), issues)
        if motion is not None:
            body["motion"] = motion
    if node.collider is not None:
        collider = collider_to_khr(node.collider, ref, mesh_ref, join(body_at, "collider"), issues)
        if collider is not None:
            body["collider"] = collider
    if node.trigger is not None:
        trigger = trigger_to_khr(node.trigger, ref, node_ref, mesh_ref, at=join(body_at, "trigger"),
                                 issues=issues)
        if trigger is not None:
            body["trigger"] = trigger
    if node.joint is not None:
        joint = _joint(node.joint, ref, node_ref, join(body_at, "joint"), issues)
        if joint is not None:
            body["joint"] = joint
    return {BODY_EXTENSION: body} if body else {}


def _joint(joint: Joint, ref: Ref, node_ref: Callable[[NodeRef], Any], at: Where,
           issues: list[Issue] | None) -> dict[str, Any] | None:
    connected = node_ref(joint.connected_node) if joint.connected_node is not None else None
    if connected is None:
        _note(issues, join(at, "connectedNode"), "a joint whose connected node is not exported", "dropped")
        return None
    out: dict[str, Any] = {"connectedNode": connected,
                           "joint": ref("physicsJoints", joint_settings_to_khr(joint.settings, at, issues))}
    if joint.enable_collision:
        out["enableCollision"] = True
    return out
