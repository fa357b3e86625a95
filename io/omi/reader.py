"""glTF JSON (any OMI physics revision) -> the data model.

Revisions read (names recorded in `PhysicsDocument.revisions`, see `rules.REV_*`):
- current: OMI_physics_body `motion`/`collider`/`trigger`, physics materials, collision filters,
  explicit compound triggers, tapered radii with mid-height capsules; OMI_physics_joint limits/drives;
- shapes without their per-type sub-object (defaults), or with the values on the shape itself;
- `rigid` (and `character`/`vehicle`) as a motion type;
- legacy OMI_physics_body `type` enum with node-level `OMI_physics_shape: {"shape": i}` children;
- legacy OMI_collider (`colliders`, `isTrigger`, `hull`, full-height capsules).

Everything invalid is dropped with an Issue and everything valid is kept. `read_document` never
raises: the input is narrowed through `json_types` and checked with `rules`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import model, rules
from .json_types import (
    MISSING,
    ROOT,
    Where,
    bool_or,
    describe,
    float_or,
    get,
    index_list_or,
    index_or_none,
    int_or,
    is_number,
    join,
    list_or_none,
    obj_or_none,
    report,
    sequence_items,
    str_list_or,
    str_or,
    vec_or,
)
from .model import (
    Collider,
    CollisionFilter,
    Issue,
    Joint,
    JointDrive,
    JointLimit,
    JointSettings,
    Motion,
    NodePhysics,
    PhysicsDocument,
    PhysicsMaterial,
    Shape,
    Trigger,
)

BODY = model.BODY_EXTENSION
SHAPE = model.SHAPE_EXTENSION
JOINT = model.JOINT_EXTENSION
COLLIDER = model.LEGACY_COLLIDER_EXTENSION

FLAT_SHAPE_KEYS = ("size", "radius", "radiusTop", "radiusBottom", "height", "mesh")
LEGACY_MOTION_KEYS = ("mass", "linearVelocity", "angularVelocity", "centerOfMass", "inertiaTensor")
INTERNAL_ERROR = "internal reader error"


def read_document(gltf: Mapping[str, Any]) -> PhysicsDocument:
    """The physics of a glTF document (already parsed JSON), with every problem as an Issue."""
    doc = PhysicsDocument()
    try:
        _Reader(gltf, doc).read()
    except Exception as error:  # last resort: a reader bug must not break an import
        doc.nodes.clear()
        doc.warn("", f"{INTERNAL_ERROR} ({type(error).__name__}: {error}); physics not read", "error")
    return doc


def validate(gltf: Mapping[str, Any]) -> list[Issue]:
    """Every rule violation in a glTF document (the issues of reading it)."""
    return read_document(gltf).issues


def read_mesh_references(doc: PhysicsDocument) -> set[int]:
    """The glTF mesh indices that convex/trimesh shapes use."""
    meshes: set[int] = set()
    for node in doc.nodes.values():
        for part in (node.collider, node.trigger):
            shape = part.shape if part is not None else None
            if shape is not None and isinstance(shape.mesh, int) and not isinstance(shape.mesh, bool):
                meshes.add(shape.mesh)
    return meshes


@dataclass
class _Node:
    """What one node says, while reading (frozen into NodePhysics at the end)."""

    motion: Motion | None = None
    collider: Collider | None = None
    trigger: Trigger | None = None
    joint: Joint | None = None
    # compound trigger still to resolve: explicit members (pointer, index) or implicit (`trigger: {}`)
    compound_members: list[tuple[Where, int]] | None = None
    implicit_compound: bool = False
    legacy_trigger_body: bool = False
    legacy_shapes: list[tuple[Where, Shape, bool]] = field(default_factory=list)  # (pointer, shape, is_trigger)


class _Reader:
    def __init__(self, gltf: object, doc: PhysicsDocument) -> None:
        self.doc = doc
        self.issues = doc.issues
        if not isinstance(gltf, Mapping):
            report(self.issues, "", f"a glTF document must be an object, got {describe(gltf)}")
            gltf = {}
        self.gltf: Mapping = gltf
        self.nodes_json: list = list_or_none(get(gltf, "nodes"), "/nodes", self.issues, "nodes") or []
        self.mesh_count = len(sequence_items(get(gltf, "meshes")))
        self.hierarchy = rules.Hierarchy(self.nodes_json, self.issues)
        self.nodes: dict[int, _Node] = {}
        self.noted: set[str] = set()
        self.joint_nodes: list[int] = []  # nodes with an OMI_physics_joint key, in index order
        self.extensions = obj_or_none(get(gltf, "extensions"), "/extensions", self.issues, "extensions") or {}

    # --- bookkeeping -----------------------------------------------------------------------------

    def revision(self, name: str, at: Where) -> None:
        """Record a revision; legacy ones get one 'info' issue per file."""
        if name not in self.doc.revisions and name in rules.LEGACY_REVISION_NOTES:
            self.issues.append(rules.issue(at, rules.LEGACY_REVISION_NOTES[name], "info"))
        self.doc.revisions.add(name)

    def once(self, key: str, found: Issue) -> None:
        if key not in self.noted:
            self.noted.add(key)
            self.issues.append(found)

    def node(self, index: int) -> _Node:
        return self.nodes.setdefault(index, _Node())

    # --- top level -------------------------------------------------------------------------------

    def read(self) -> None:
        self.read_document_arrays()
        for index, node_json in enumerate(self.nodes_json):
            self.read_node(index, node_json)
        self.attach_legacy_shapes()
        self.resolve_compound_triggers()
        for index in self.joint_nodes:
            self.read_joint(index, self.nodes_json[index])
        self.check_extensions_used()
        for index in sorted(self.nodes):
            built = self.nodes[index]
            physics = NodePhysics(built.motion, built.collider, built.trigger, built.joint)
            if not physics.is_empty:
                self.doc.nodes[index] = physics

    def document_array(self, extension: str, key: str) -> tuple[Where, list]:
        at = join(ROOT, "extensions", extension)
        container = obj_or_none(get(self.extensions, extension), at, self.issues, extension)
        items = list_or_none(get(container, key), join(at, key), self.issues, key) if container is not None else None
        if key in ("shapes", "physicsJoints", "colliders") and container is not None and (
                items == [] or key not in container):
            found = "empty" if items == [] else "missing"
            self.issues.append(rules.issue(join(at, key), f"{key} is {found} (the schema wants at least one)", "info"))
        return join(at, key), items or []

    def read_document_arrays(self) -> None:
        at, raw = self.document_array(SHAPE, "shapes")
        if raw:
            self.revision(rules.REV_SHAPE, at)
        self.shapes = [self.read_shape(item, join(at, i)) for i, item in enumerate(raw)]
        at, raw = self.document_array(BODY, "physicsMaterials")
        self.materials = [self.read_material(item, join(at, i)) for i, item in enumerate(raw)]
        at, raw = self.document_array(BODY, "collisionFilters")
        self.filters = [self.read_filter(item, join(at, i)) for i, item in enumerate(raw)]
        at, raw = self.document_array(JOINT, "physicsJoints")
        if raw:
            self.revision(rules.REV_JOINT, at)
        self.joint_settings = [self.read_joint_settings(item, join(at, i)) for i, item in enumerate(raw)]
        joint_root = get(self.extensions, JOINT)
        if isinstance(joint_root, Mapping) and "constraints" in joint_root and "physicsJoints" not in joint_root:
            self.issues.append(rules.issue(join(ROOT, "extensions", JOINT, "constraints"),
                                           "the first OMI_physics_joint revision (`constraints`) is not supported; "
                                           "ignored", "warning"))
        at, raw = self.document_array(COLLIDER, "colliders")
        if raw:
            self.revision(rules.REV_COLLIDER, at)
        self.colliders = [self.read_legacy_collider(item, join(at, i)) for i, item in enumerate(raw)]

    def resolve(self, value: object, items: Sequence[Any], at: Where, what: Where) -> Any:
        """The item an index refers to, or None (reported) if the index or the item is unusable."""
        index = index_or_none(value, len(items), at, self.issues, what)
        if index is None:
            return None
        if items[index] is None:
            report(self.issues, at, f"{what} {index} refers to an item that was dropped; dropped")
        return items[index]

    # --- shapes ----------------------------------------------------------------------------------

    def read_shape(self, raw: object, at: Where, *, legacy_collider: bool = False) -> Shape | None:
        shape = obj_or_none(raw, at, self.issues, "shape")
        if shape is None:
            if raw is MISSING:
                report(self.issues, at, "shape is missing")
            return None
        type_value = get(shape, "type")
        if type_value is MISSING:
            report(self.issues, at, "shape has no type; dropped")
            return None
        if not isinstance(type_value, str):
            report(self.issues, join(at, "type"), f"shape type must be a string, got {describe(type_value)}; "
                   "shape dropped")
            return None
        shape_type = type_value
        if shape_type == "hull":
            shape_type = "convex"
            if not legacy_collider:
                self.issues.append(rules.issue(join(at, "type"), "shape type 'hull' is now 'convex'", "info"))
        if shape_type not in model.SHAPE_TYPES:
            self.issues.append(rules.unknown_shape_type(join(at, "type"), type_value))
            return None
        details_raw = get(shape, type_value)
        if details_raw is MISSING and shape_type != type_value:
            details_raw = get(shape, shape_type)
        if details_raw is MISSING:
            details, details_at = shape, at  # no sub-object: defaults (ERRATA) or flat legacy values
            if not legacy_collider and any(key in shape for key in FLAT_SHAPE_KEYS):
                self.revision(rules.REV_FLAT_SHAPE, at)
            elif not legacy_collider:
                self.issues.append(rules.issue(at, f"shape has no `{shape_type}` sub-object: all defaults (the "
                                                   "schema wants it written, even empty)", "info"))
        else:
            details_at = join(at, type_value if type_value in shape else shape_type)
            details = obj_or_none(details_raw, details_at, self.issues, f"{type_value} values") or {}
        return self.shape_values(shape_type, details, details_at)

    def shape_values(self, shape_type: str, details: Mapping, at: Where) -> Shape:
        issues = self.issues
        if shape_type == "box":
            size = vec_or(get(details, "size"), 3, model.DEFAULT_BOX_SIZE, join(at, "size"), issues,
                          exclusive_minimum=0.0, what="box size")
            return Shape("box", size=size)
        if shape_type == "sphere":
            radius = float_or(get(details, "radius"), model.DEFAULT_RADIUS, join(at, "radius"), issues,
                              minimum=0.0, what="sphere radius")
            return Shape("sphere", radius=radius)
        if shape_type in model.MESH_SHAPE_TYPES:
            mesh_value = get(details, "mesh")
            mesh = index_or_none(mesh_value, self.mesh_count, join(at, "mesh"), issues, "mesh")
            if mesh is None and (mesh_value is MISSING or mesh_value == -1):
                issues.append(rules.mesh_missing(shape_type, join(at, "mesh") if mesh_value is not MISSING else at))
            return Shape(shape_type, mesh=mesh)
        return self.round_shape(shape_type, details, at)

    def round_shape(self, shape_type: str, details: Mapping, at: Where) -> Shape:
        """Capsule or cylinder, in the current form or the old single-radius form."""
        issues = self.issues
        has_new_radii = "radiusTop" in details or "radiusBottom" in details
        height = float_or(get(details, "height"), None, join(at, "height"), issues, exclusive_minimum=0.0,
                          what=f"{shape_type} height")
        if "radius" in details and not has_new_radii:
            radius = float_or(get(details, "radius"), model.DEFAULT_RADIUS, join(at, "radius"), issues,
                              minimum=0.0, what=f"{shape_type} radius")
            if shape_type == "cylinder":
                return Shape("cylinder", height=height, radius_top=radius, radius_bottom=radius)
            self.doc.revisions.add(rules.REV_FULL_HEIGHT_CAPSULE)
            full_height = model.DEFAULT_CYLINDER_HEIGHT if height is None else height  # old default: 2.0
            mid_height = full_height - 2.0 * radius
            if mid_height <= 0.0:
                issues.append(rules.capsule_too_short(at, radius, full_height))
                return Shape("sphere", radius=radius)
            issues.append(rules.full_height_capsule(at, radius, full_height, mid_height))
            return Shape("capsule", height=mid_height, radius_top=radius, radius_bottom=radius)
        if "radius" in details:
            issues.append(rules.radius_ignored(join(at, "radius")))
        top = float_or(get(details, "radiusTop"), model.DEFAULT_RADIUS, join(at, "radiusTop"), issues,
                       minimum=0.0, what="radiusTop")
        bottom = float_or(get(details, "radiusBottom"), model.DEFAULT_RADIUS, join(at, "radiusBottom"), issues,
                          minimum=0.0, what="radiusBottom")
        return Shape(shape_type, height=height, radius_top=top, radius_bottom=bottom)

    def read_legacy_collider(self, raw: object, at: Where) -> tuple[Shape, bool] | None:
        """An OMI_collider colliders[] entry: (shape, is_trigger)."""
        shape = self.read_shape(raw, at, legacy_collider=True)
        if shape is None:
            return None
        is_trigger = bool_or(get(raw, "isTrigger"), False, join(at, "isTrigger"), self.issues, "isTrigger")
        return shape, is_trigger

    # --- materials and filters -------------------------------------------------------------------

    def read_material(self, raw: object, at: Where) -> PhysicsMaterial | None:
        material = obj_or_none(raw, at, self.issues, "physics material")
        if material is None:
            return None
        values: dict[str, Any] = {}
        for key, name, default in (("staticFriction", "static_friction", model.DEFAULT_FRICTION),
                                   ("dynamicFriction", "dynamic_friction", model.DEFAULT_FRICTION),
                                   ("restitution", "restitution", model.DEFAULT_RESTITUTION)):
            values[name] = float_or(get(material, key), default, join(at, key), self.issues, minimum=0.0, what=key)
        for key, name in (("frictionCombine", "friction_combine"), ("restitutionCombine", "restitution_combine")):
            mode = str_or(get(material, key), model.DEFAULT_COMBINE, join(at, key), self.issues, key)
            if mode not in model.COMBINE_MODES:
                report(self.issues, join(at, key), f"{key} {describe(mode)} is not one of "
                       f"{', '.join(model.COMBINE_MODES)}; using average")
                mode = model.DEFAULT_COMBINE
            values[name] = mode
        values["name"] = str_or(get(material, "name"), "", join(at, "name"), self.issues, "name")
        return PhysicsMaterial(**values)

    def read_filter(self, raw: object, at: Where) -> CollisionFilter | None:
        collision_filter = obj_or_none(raw, at, self.issues, "collision filter")
        if collision_filter is None:
            return None
        lists = {key: str_list_or(get(collision_filter, key), (), join(at, key), self.issues, key)
                 for key in ("collisionSystems", "collideWithSystems", "notCollideWithSystems")}
        if "collideWithSystems" in collision_filter and "notCollideWithSystems" in collision_filter:
            found = rules.filter_masks(at, lists["collideWithSystems"], lists["notCollideWithSystems"])
            if found is not None:
                self.issues.append(found)
                if found.severity == "error":
                    return None
        name = str_or(get(collision_filter, "name"), "", join(at, "name"), self.issues, "name")
        return CollisionFilter(lists["collisionSystems"], lists["collideWithSystems"],
                               lists["notCollideWithSystems"], name)

    # --- joint settings --------------------------------------------------------------------------

    def read_joint_settings(self, raw: object, at: Where) -> JointSettings | None:
        settings = obj_or_none(raw, at, self.issues, "joint settings")
        if settings is None:
            return None
        limits_raw = list_or_none(get(settings, "limits"), join(at, "limits"), self.issues, "limits") or []
        drives_raw = list_or_none(get(settings, "drives"), join(at, "drives"), self.issues, "drives") or []
        limits = [self.read_limit(item, join(at, "limits", i)) for i, item in enumerate(limits_raw)]
        drives = [self.read_drive(item, join(at, "drives", i)) for i, item in enumerate(drives_raw)]
        kept_limits = tuple(limit for limit in limits if limit is not None)
        kept_drives = tuple(drive for drive in drives if drive is not None)
        if not limits_raw and not drives_raw:
            self.issues.append(rules.issue(at, "joint settings have no limits and no drives; the joint does "
                                               "nothing", "warning"))
        name = str_or(get(settings, "name"), "", join(at, "name"), self.issues, "name")
        return JointSettings(kept_limits, kept_drives, name)

    def read_limit(self, raw: object, at: Where) -> JointLimit | None:
        limit = obj_or_none(raw, at, self.issues, "limit")
        if limit is None:
            return None
        issues = self.issues
        linear = index_list_or(get(limit, "linearAxes"), (), join(at, "linearAxes"), issues, maximum=2,
                               what="linearAxes")
        angular = index_list_or(get(limit, "angularAxes"), (), join(at, "angularAxes"), issues, maximum=2,
                                what="angularAxes")
        low = float_or(get(limit, "min"), None, join(at, "min"), issues, what="min")
        high = float_or(get(limit, "max"), None, join(at, "max"), issues, what="max")
        stiffness = self.infinite_if_negative(get(limit, "stiffness"), join(at, "stiffness"), "stiffness")
        damping = float_or(get(limit, "damping"), 0.0, join(at, "damping"), issues, minimum=0.0, what="damping")
        found = rules.limit_rules(at, linear, angular, low, high)
        if found is not None:
            issues.append(found)
            return None
        if linear and angular:
            issues.append(rules.issue(at, "limit on both linear and angular axes: read as one, written as two "
                                          "(the schema allows one kind per limit)", "info"))
        return JointLimit(linear, angular, low, high, stiffness, damping)

    def infinite_if_negative(self, value: object, at: Where, what: Where) -> float | None:
        """Limit stiffness / drive maxForce: absent or negative means infinite (None), per ERRATA."""
        number = float_or(value, None, at, self.issues, what=what)
        if number is not None and number < 0.0:
            self.issues.append(rules.issue(at, f"negative {what} means infinite (the schema wants it omitted)",
                                           "info"))
            return None
        return number

    def read_drive(self, raw: object, at: Where) -> JointDrive | None:
        drive = obj_or_none(raw, at, self.issues, "drive")
        if drive is None:
            return None
        issues = self.issues
        texts: dict[str, str] = {}
        for key, known in (("type", model.DRIVE_TYPES), ("mode", model.DRIVE_MODES)):
            value = get(drive, key)
            if not isinstance(value, str):
                found = "missing" if value is MISSING else f"not a string ({describe(value)})"
                report(issues, join(at, key) if value is not MISSING else at, f"drive {key} is {found}; drive dropped")
                return None
            if value not in known:
                issues.append(rules.unknown_drive_value(join(at, key), key, value, known))
            texts[key] = value
        axis_value = get(drive, "axis")
        axis = None if axis_value is MISSING else _axis(axis_value)
        if axis is None:
            found = "missing" if axis_value is MISSING else f"{describe(axis_value)}, not 0, 1 or 2"
            report(issues, join(at, "axis") if axis_value is not MISSING else at, f"drive axis is {found}; "
                   "drive dropped")
            return None
        return JointDrive(
            type=texts["type"],
            mode=texts["mode"],
            axis=axis,
            max_force=self.infinite_if_negative(get(drive, "maxForce"), join(at, "maxForce"), "maxForce"),
            position_target=float_or(get(drive, "positionTarget"), None, join(at, "positionTarget"), issues,
                                     what="positionTarget"),
            velocity_target=float_or(get(drive, "velocityTarget"), None, join(at, "velocityTarget"), issues,
                                     what="velocityTarget"),
            stiffness=float_or(get(drive, "stiffness"), 0.0, join(at, "stiffness"), issues, minimum=0.0,
                               what="stiffness"),
            damping=float_or(get(drive, "damping"), 0.0, join(at, "damping"), issues, minimum=0.0, what="damping"),
        )

    # --- nodes: bodies ---------------------------------------------------------------------------

    def node_extensions(self, index: int, node_json: object) -> Mapping:
        if type(node_json) is not dict and not isinstance(node_json, Mapping):
            report(self.issues, join(ROOT, "nodes", index), f"node must be an object, got {describe(node_json)}; "
                   "ignored")
            return {}
        return obj_or_none(get(node_json, "extensions"), join(ROOT, "nodes", index, "extensions"), self.issues,
                           "extensions") or {}

    def read_node(self, index: int, node_json: object) -> None:
        extensions = self.node_extensions(index, node_json)
        if JOINT in extensions:
            self.joint_nodes.append(index)  # read once every body is known
        if BODY not in extensions and SHAPE not in extensions and COLLIDER not in extensions:
            return
        at = join(ROOT, "nodes", index, "extensions")
        body = obj_or_none(get(extensions, BODY), join(at, BODY), self.issues, BODY)
        if body is not None:
            self.read_body(index, body, join(at, BODY))
        shape_ref = obj_or_none(get(extensions, SHAPE), join(at, SHAPE), self.issues, "node-level " + SHAPE)
        if shape_ref is not None:
            self.revision(rules.REV_BODY_TYPE, join(at, SHAPE))
            shape = self.resolve(get(shape_ref, "shape"), self.shapes, join(at, SHAPE, "shape"), "shape")
            if shape is not None:
                self.node(index).legacy_shapes.append((join(at, SHAPE), shape, False))
            elif "shape" not in shape_ref:
                report(self.issues, join(at, SHAPE), "node-level OMI_physics_shape has no `shape`; ignored")
        collider_ref = obj_or_none(get(extensions, COLLIDER), join(at, COLLIDER), self.issues, COLLIDER)
        if collider_ref is not None:
            self.revision(rules.REV_COLLIDER, join(at, COLLIDER))
            entry = self.resolve(get(collider_ref, "collider"), self.colliders, join(at, COLLIDER, "collider"),
                                 "collider")
            if entry is not None:
                self.node(index).legacy_shapes.append((join(at, COLLIDER), entry[0], entry[1]))
            elif "collider" not in collider_ref:
                report(self.issues, join(at, COLLIDER), "node-level OMI_collider has no `collider`; ignored")

    def read_body(self, index: int, body: Mapping, at: Where) -> None:
        current = [key for key in ("motion", "collider", "trigger") if key in body]
        if current:
            self.revision(rules.REV_BODY, at)
            if "type" in body:
                self.issues.append(rules.issue(join(at, "type"), "legacy body `type` next to motion/collider/"
                                                                 "trigger; ignored", "warning"))
        elif "type" in body:
            self.read_legacy_body(index, body, at)
            return
        node = self.node(index)
        if "motion" in body:
            node.motion = self.read_motion(body["motion"], join(at, "motion"))
        if "collider" in body:
            node.collider = self.read_collider(body["collider"], join(at, "collider"))
        if "trigger" in body:
            self.read_trigger(index, body["trigger"], join(at, "trigger"))

    def read_motion(self, raw: object, at: Where) -> Motion | None:
        motion = obj_or_none(raw, at, self.issues, "motion")
        if motion is None:
            return None
        type_value = get(motion, "type")
        if type_value is MISSING:
            self.issues.append(rules.issue(at, "motion has no type; read as dynamic", "warning"))
            motion_type = "dynamic"
        elif type_value in model.MOTION_TYPES:
            motion_type = type_value
        elif isinstance(type_value, str) and type_value in rules.MOTION_TYPE_ALIASES:
            motion_type, note = rules.MOTION_TYPE_ALIASES[type_value]
            self.issues.append(rules.issue(join(at, "type"), note, "info"))
        else:
            self.issues.append(rules.unknown_motion_type(join(at, "type"), type_value))
            motion_type = "dynamic"
        return Motion(motion_type, **self.motion_values(motion, at))

    def motion_values(self, motion: Mapping, at: Where) -> dict[str, Any]:
        issues = self.issues
        values: dict[str, Any] = {
            "mass": float_or(get(motion, "mass"), model.DEFAULT_MASS, join(at, "mass"), issues, minimum=0.0,
                             what="mass"),
            "center_of_mass": vec_or(get(motion, "centerOfMass"), 3, model.ZERO3, join(at, "centerOfMass"), issues,
                                     what="centerOfMass"),
            "linear_velocity": vec_or(get(motion, "linearVelocity"), 3, model.ZERO3, join(at, "linearVelocity"),
                                      issues, what="linearVelocity"),
            "angular_velocity": vec_or(get(motion, "angularVelocity"), 3, model.ZERO3, join(at, "angularVelocity"),
                                       issues, what="angularVelocity"),
            "gravity_factor": float_or(get(motion, "gravityFactor"), model.DEFAULT_GRAVITY_FACTOR,
                                       join(at, "gravityFactor"), issues, what="gravityFactor"),
            "inertia_diagonal": vec_or(get(motion, "inertiaDiagonal"), 3, model.ZERO3, join(at, "inertiaDiagonal"),
                                       issues, minimum=0.0, what="inertiaDiagonal"),
        }
        orientation = vec_or(get(motion, "inertiaOrientation"), 4, model.IDENTITY_QUAT,
                             join(at, "inertiaOrientation"), issues, what="inertiaOrientation")
        length = math.hypot(*orientation)  # no overflow for huge components, unlike a sum of squares
        if length < 1e-9:
            report(issues, join(at, "inertiaOrientation"), "inertiaOrientation is a zero quaternion; using identity")
            orientation = model.IDENTITY_QUAT
        elif abs(length - 1.0) > 1e-3:
            issues.append(rules.issue(join(at, "inertiaOrientation"), "inertiaOrientation is not a unit "
                                                                      "quaternion; normalized", "warning"))
            orientation = tuple(component / length for component in orientation)
        values["inertia_orientation"] = orientation
        return values

    def read_collider(self, raw: object, at: Where) -> Collider | None:
        collider = obj_or_none(raw, at, self.issues, "collider")
        if collider is None:
            return None
        shape = self.resolve(get(collider, "shape"), self.shapes, join(at, "shape"), "shape")
        material = self.resolve(get(collider, "physicsMaterial"), self.materials, join(at, "physicsMaterial"),
                                "physicsMaterial")
        collision_filter = self.resolve(get(collider, "collisionFilter"), self.filters, join(at, "collisionFilter"),
                                        "collisionFilter")
        return Collider(shape, material, collision_filter)

    def read_trigger(self, index: int, raw: object, at: Where) -> None:
        trigger = obj_or_none(raw, at, self.issues, "trigger")
        if trigger is None:
            return
        node = self.node(index)
        shape_value, members_value = get(trigger, "shape"), get(trigger, "nodes")
        shape = self.resolve(shape_value, self.shapes, join(at, "shape"), "shape")
        collision_filter = self.resolve(get(trigger, "collisionFilter"), self.filters, join(at, "collisionFilter"),
                                        "collisionFilter")
        if shape is not None:
            if members_value is not MISSING:
                report(self.issues, join(at, "nodes"), "trigger has both a shape and nodes; nodes dropped")
            node.trigger = Trigger(shape, (), collision_filter)
            return
        if shape_value is not MISSING and shape_value != -1:
            return  # its shape was unusable (reported): no trigger
        members = list_or_none(members_value, join(at, "nodes"), self.issues, "trigger nodes")
        if members_value is not MISSING and members is None:
            return  # `nodes` was not an array (reported): no trigger
        if collision_filter is not None:
            report(self.issues, join(at, "collisionFilter"), "a compound trigger cannot carry a collisionFilter "
                   "(schema); dropped")
        if not members:
            if members is not None:
                report(self.issues, join(at, "nodes"), "trigger nodes is empty; read as if absent", "warning")
            node.implicit_compound = True
            return
        node.compound_members = []
        for position, member in enumerate(members):
            member_at = join(at, "nodes", position)
            member_index = int_or(member, None, member_at, self.issues, minimum=0, what="trigger nodes item")
            if member_index is None:
                continue
            if any(kept == member_index for _ptr, kept in node.compound_members):
                report(self.issues, member_at, f"trigger nodes item {member_index} is repeated; kept once", "warning")
                continue
            node.compound_members.append((member_at, member_index))

    def read_legacy_body(self, index: int, body: Mapping, at: Where) -> None:
        self.revision(rules.REV_BODY_TYPE, at)
        type_value = body["type"]
        if not isinstance(type_value, str) or type_value not in rules.LEGACY_BODY_TYPES:
            report(self.issues, join(at, "type"), f"unknown legacy body type {describe(type_value)}; body dropped")
            return
        motion_type, note = rules.LEGACY_BODY_TYPES[type_value]
        if note:
            self.issues.append(rules.issue(join(at, "type"), note, "info"))
        node = self.node(index)
        if motion_type is None:
            node.legacy_trigger_body = True
            return
        values = self.motion_values({key: body[key] for key in ("mass", "linearVelocity", "angularVelocity",
                                                                  "centerOfMass") if key in body}, at)
        if "inertiaTensor" in body:
            values["inertia_diagonal"] = self.inertia_tensor(body["inertiaTensor"], join(at, "inertiaTensor"))
        node.motion = Motion(motion_type, **values)

    def inertia_tensor(self, raw: object, at: Where) -> tuple[float, float, float]:
        """The diagonal of a legacy 3x3 inertia tensor (9 numbers, flat or as 3 rows)."""
        rows = raw if isinstance(raw, list | tuple) else None
        if rows is not None and len(rows) == 3 and all(isinstance(row, list | tuple) for row in rows):
            rows = [value for row in rows for value in row]
        numbers = vec_or(rows if rows is not None else raw, 9, None, at, self.issues, what="inertiaTensor")
        if numbers is None:
            return model.ZERO3
        diagonal = (numbers[0], numbers[4], numbers[8])
        if any(value < 0.0 for value in diagonal):
            report(self.issues, at, "inertiaTensor has a negative diagonal term; using automatic inertia")
            return model.ZERO3
        if any(abs(numbers[i]) > 1e-12 for i in (1, 2, 3, 5, 6, 7)):
            self.issues.append(rules.inertia_off_diagonal(at))
        return diagonal

    # --- legacy shapes and compound triggers -------------------------------------------------------

    def legacy_body_of(self, index: int) -> int | None:
        """The nearest node (self included) carrying a legacy body `type`."""
        for candidate in self.hierarchy.ancestors_or_self(index):
            if self.has_legacy_type(candidate):
                return candidate
        return None

    def has_legacy_type(self, index: int) -> bool:
        extensions = self.node_json_extensions(index)
        body = get(extensions, BODY)
        return isinstance(body, Mapping) and "type" in body and not any(
            key in body for key in ("motion", "collider", "trigger"))

    def node_json_extensions(self, index: int) -> Mapping:
        node_json = self.nodes_json[index] if 0 <= index < len(self.nodes_json) else None
        extensions = get(node_json, "extensions")
        return extensions if isinstance(extensions, Mapping) else {}

    def attach_legacy_shapes(self) -> None:
        """Node-level OMI_physics_shape / OMI_collider shapes become colliders or triggers."""
        for index in sorted(self.nodes):
            node = self.nodes[index]
            for at, shape, is_trigger in node.legacy_shapes:
                owner = self.legacy_body_of(index)
                under_trigger_body = owner is not None and owner in self.nodes and self.nodes[owner].legacy_trigger_body
                if is_trigger or under_trigger_body:
                    if node.trigger is not None:
                        self.issues.append(rules.issue(at, "node already has a trigger; legacy shape ignored",
                                                       "warning"))
                        continue
                    node.trigger = Trigger(shape)
                elif node.collider is not None:
                    self.issues.append(rules.issue(at, "node already has a collider; legacy shape ignored",
                                                   "warning"))
                else:
                    node.collider = Collider(shape)

    def has_shape_trigger(self, index: int) -> bool:
        built = self.nodes.get(index)
        return built is not None and built.trigger is not None and built.trigger.shape is not None

    def resolve_compound_triggers(self) -> None:
        for index in sorted(self.nodes):
            node = self.nodes[index]
            body_at = join(ROOT, "nodes", index, "extensions", BODY)
            if node.compound_members is not None:
                kept = []
                for at, member in node.compound_members:
                    in_range = member < len(self.nodes_json)
                    if not in_range:
                        report(self.issues, at, f"compound trigger member {member} is not a node; dropped")
                        continue
                    found = rules.compound_member(at, member, index, self.hierarchy.is_descendant(member, index),
                                                  self.has_shape_trigger(member))
                    if found is not None:
                        self.issues.append(found)
                    else:
                        kept.append(member)
                if kept:
                    node.trigger = Trigger(None, tuple(kept))
                else:
                    self.issues.append(rules.trigger_without_members(join(body_at, "trigger")))
            elif node.implicit_compound:
                self.once("empty-trigger", rules.empty_trigger(join(body_at, "trigger")))
                self.group_descendant_triggers(index, join(body_at, "trigger"))
            elif node.legacy_trigger_body:
                if node.trigger is not None:
                    continue  # the trigger body carries its own shape: its children stand alone
                self.group_descendant_triggers(index, join(body_at, "type"))

    def group_descendant_triggers(self, index: int, at: Where) -> None:
        """A compound trigger made of the descendant shape triggers that belong to this node."""
        members = [member for member in self.own_descendants(index) if self.has_shape_trigger(member)]
        if members:
            self.nodes[index].trigger = Trigger(None, tuple(members))
        else:
            self.issues.append(rules.trigger_without_members(at))

    def own_descendants(self, index: int) -> list[int]:
        """Descendants, not entering independent bodies (motion) or other compound triggers."""
        found = []
        stack = list(reversed(self.hierarchy.children.get(index, [])))
        while stack:
            current = stack.pop()
            built = self.nodes.get(current)
            if built is not None and (built.motion is not None or built.compound_members is not None
                                      or built.implicit_compound or built.legacy_trigger_body):
                continue
            found.append(current)
            stack.extend(reversed(self.hierarchy.children.get(current, [])))
        return found

    # --- joints ----------------------------------------------------------------------------------

    def in_body(self, index: int) -> bool:
        """Whether the node is part of a body: itself or an ancestor has a motion or a collider."""
        for candidate in self.hierarchy.ancestors_or_self(index):
            built = self.nodes.get(candidate)
            if built is not None and (built.motion is not None or built.collider is not None):
                return True
        return False

    def read_joint(self, index: int, node_json: object) -> None:
        at = join(ROOT, "nodes", index, "extensions", JOINT)
        joint = obj_or_none(get(get(node_json, "extensions"), JOINT), at, self.issues, JOINT)
        if joint is None:
            return
        self.revision(rules.REV_JOINT, at)
        settings_value, connected_value = get(joint, "joint"), get(joint, "connectedNode")
        if settings_value is MISSING or connected_value is MISSING:
            missing = " and ".join(key for key, value in (("joint", settings_value), ("connectedNode", connected_value))
                                   if value is MISSING)
            report(self.issues, at, f"joint node has no {missing}; joint dropped")
            return
        settings = self.resolve(settings_value, self.joint_settings, join(at, "joint"), "joint")
        if settings is None and settings_value == -1:
            report(self.issues, join(at, "joint"), "joint -1 is not a joint settings index; joint dropped")
        connected = index_or_none(connected_value, len(self.nodes_json), join(at, "connectedNode"), self.issues,
                                  "connectedNode")
        if connected is None and connected_value == -1:
            report(self.issues, join(at, "connectedNode"), "connectedNode -1 is not a node; joint dropped")
        if connected == index:
            report(self.issues, join(at, "connectedNode"), "joint is connected to its own node; joint dropped")
            connected = None
        if settings is None or connected is None:
            return
        enable_collision = bool_or(get(joint, "enableCollision"), False, join(at, "enableCollision"), self.issues,
                                   "enableCollision")
        built = self.nodes.get(index)
        has_own_body = built is not None and not NodePhysics(built.motion, built.collider, built.trigger).is_empty
        has_mesh = isinstance(node_json, Mapping) and "mesh" in node_json
        self.issues.extend(rules.joint_node(at, self.in_body(index), has_own_body, has_mesh))
        if not self.in_body(connected):
            self.issues.append(rules.connected_node_outside_body(join(at, "connectedNode"), connected))
        self.node(index).joint = Joint(settings, connected, enable_collision)

    def check_extensions_used(self) -> None:
        listed = get(self.gltf, "extensionsUsed")
        names = set(listed) if isinstance(listed, list | tuple) and all(isinstance(n, str) for n in listed) else set()
        used = {name for name, revision in ((BODY, rules.REV_BODY), (JOINT, rules.REV_JOINT), (SHAPE, rules.REV_SHAPE))
                if revision in self.doc.revisions}
        for name in sorted(used - names):
            self.issues.append(rules.issue("/extensionsUsed", f"{name} is used but not listed in extensionsUsed",
                                           "warning"))


def _axis(value: object) -> int | None:
    if is_number(value) and float(value).is_integer() and 0 <= value <= 2:  # type: ignore[arg-type, operator]
        return int(value)  # type: ignore[arg-type]
    return None
