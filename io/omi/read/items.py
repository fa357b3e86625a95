"""JSON -> model for the document-level items (shapes, physics materials, collision filters, joint settings)
and a body's motion values, driven by a dialect's field tables (`dialects/base.py`).

Every value goes through `fields.read_fields`, so bounds and defaults are those of the table; what
differs in structure (a shape's per-type sub-object and its legacy forms, a limit's axes, a drive's
required keys, the motion type's aliases) is written out here once.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from .. import model
from ..checks import rulebook
from ..conventions import capsule_mid_height, held_choice
from ..dialects import unknown_keys
from ..dialects.base import Dialect
from ..dialects.fields import Field, field, read_field, read_fields
from ..dialects.khr import PLANE_BOX_INFINITE_SIZE, PLANE_BOX_THICKNESS
from ..dialects.omi import LEGACY_FLAT_SHAPE_KEYS, LEGACY_HULL_TYPE, LEGACY_IS_TRIGGER_KEY, LEGACY_SHAPE_RADIUS_KEY
from ..json_types import (
    MISSING,
    Issues,
    Where,
    describe,
    get,
    index_list_or,
    index_or_none,
    int_or,
    join,
    list_or_none,
    obj_or_none,
    report,
)
from ..model import (
    NOTHING_UNKNOWN,
    CollisionFilter,
    Issue,
    JointDrive,
    JointLimit,
    JointSettings,
    PhysicsMaterial,
    Shape,
    Unknown,
    Vec3,
)


class ItemReader:
    """Reads items of one document in one dialect; `revision` records a revision met on the way."""

    def __init__(self, issues: list[Issue], mesh_count: int, revision: Callable[[str, Where], None],
                 dialect: Dialect) -> None:
        self.issues = issues
        self.mesh_count = mesh_count
        self.revision = revision
        self.dialect = dialect
        self.revisions_seen: set[str] = set()

    def kept(self, fields: Iterable[Field], container: Mapping[str, Any], at: Where, what: str, *,
             known: Iterable[str] = (), quiet: Iterable[str] = (), raw: Mapping[str, str] | None = None) -> Unknown:
        """The object's keys the tables do not declare, and `raw` (the file's spelling of enum values read as
        their fallback), kept for export (`unknown_keys.collect`); in a dialect that does not keep them, each is
        named as not kept and nothing is returned."""
        found = unknown_keys.collect(fields, container, at, self.issues, what, dialect=self.dialect.name,
                                     known=known, quiet=quiet, keep=self.dialect.keeps_unknown)
        return Unknown({**raw, **found}, self.dialect.name) if raw else found

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
        if shape_type == LEGACY_HULL_TYPE:
            shape_type = "convex"
            if not legacy_collider:
                self.issues.append(rulebook.note(join(at, "type"), "hull_renamed"))
        if shape_type not in self.dialect.shape_fields:
            self.issues.append(rulebook.note(join(at, "type"), "unknown_shape_type", value=describe(type_value)))
            return None
        details_raw = get(shape, type_value)
        if details_raw is MISSING and shape_type != type_value:
            details_raw = get(shape, shape_type)
        fields = self.dialect.shape_fields[shape_type]
        legacy_keys = (LEGACY_SHAPE_RADIUS_KEY,) if shape_type in model.ROUND_SHAPE_TYPES else ()
        if details_raw is MISSING:
            details, details_at = shape, at  # no sub-object: defaults (ERRATA) or flat legacy values
            if not legacy_collider and any(key in shape for key in LEGACY_FLAT_SHAPE_KEYS):
                self.revision(rulebook.REV_FLAT_SHAPE, at)
            elif not legacy_collider:
                self.issues.append(rulebook.note(at, "shape_without_details", shape_type=shape_type))
            top_known: tuple[str, ...] = ("type", *legacy_keys)
            type_unknown = NOTHING_UNKNOWN
        else:
            details_key = type_value if type_value in shape else shape_type
            details_at = join(at, details_key)
            details = obj_or_none(details_raw, details_at, self.issues, f"{type_value} values") or {}
            top_known, type_unknown = ("type", details_key), NOTHING_UNKNOWN
            if not legacy_collider:
                inner = self.kept(fields, details, details_at, shape_type, known=legacy_keys)
                if inner:
                    type_unknown = Unknown({shape_type: dict(inner)}, inner.dialect)
        read = self.shape_values(shape_type, details, details_at)
        if read is None:
            return read
        if legacy_collider:  # an OMI_collider entry: its other keys go to the shape it becomes
            top_known = (*top_known, LEGACY_IS_TRIGGER_KEY)
        unknown = self.kept(fields if details is shape else (), shape, at, "legacy collider" if legacy_collider
                            else "shape", known=top_known, quiet=("name",))
        return dataclasses.replace(read, unknown=unknown, type_unknown=type_unknown) if unknown or type_unknown \
            else read

    def shape_values(self, shape_type: str, details: Mapping[str, Any], at: Where) -> Shape | None:
        fields = self.dialect.shape_fields[shape_type]
        if shape_type in model.MESH_SHAPE_TYPES and model.is_shape_type(shape_type):
            mesh_value = get(details, "mesh")
            mesh = index_or_none(mesh_value, self.mesh_count, join(at, "mesh"), self.issues, "mesh")
            if mesh is None and (mesh_value is MISSING or mesh_value == -1):
                self.issues.append(rulebook.note(join(at, "mesh") if mesh_value is not MISSING else at, "mesh_missing",
                                              shape_type=shape_type))
            return Shape(shape_type, mesh=mesh)
        if shape_type == "plane":
            return self.plane_box(read_fields(fields, details, at, self.issues), at)
        if not model.is_shape_type(shape_type):  # a dialect table's type the model lacks (a table's own bug)
            raise ValueError(f"the {self.dialect.name} tables declare shape type {shape_type!r}, which the model "
                             "does not hold")
        if shape_type in model.ROUND_SHAPE_TYPES and LEGACY_SHAPE_RADIUS_KEY in details \
                and self.dialect.legacy_extensions:  # a dialect with legacy revisions reads their forms
            return self.legacy_round_shape(shape_type, details, at)
        shape = Shape(shape_type, **read_fields(fields, details, at, self.issues))
        if self.dialect.degenerate_shapes_dropped and rulebook.degenerate(shape):
            self.issues.append(rulebook.note(at, "degenerate_shape", shape_type=shape_type))
            return None
        return shape

    def plane_box(self, values: dict[str, Any], at: Where) -> Shape:
        """A KHR plane as the thin box Blender can simulate (see dialects/khr.py PLANE_BOX_*)."""
        size_x = values["size_x"] or PLANE_BOX_INFINITE_SIZE
        size_z = values["size_z"] or PLANE_BOX_INFINITE_SIZE
        infinite = " (infinite extents made finite)" if values["size_x"] is None or values["size_z"] is None else ""
        sides = "" if values["double_sided"] else "; one-sided in KHR, the box collides on both sides"
        self.issues.append(rulebook.note(at, "khr_plane", size_x=size_x, size_z=size_z, thickness=PLANE_BOX_THICKNESS,
                                      half=PLANE_BOX_THICKNESS / 2.0, sides=infinite + sides))
        return Shape("box", size=(size_x, PLANE_BOX_THICKNESS, size_z))

    def legacy_round_shape(self, shape_type: model.ShapeType, details: Mapping[str, Any], at: Where) -> Shape:
        """Capsule or cylinder with a single `radius`: the old form (full-height capsules), unless the
        current radiusTop/radiusBottom are there too (then `radius` is ignored)."""
        fields = self.dialect.shape_fields[shape_type]
        if "radiusTop" in details or "radiusBottom" in details:
            values = read_fields(fields[:1], details, at, self.issues)  # height first, as the messages go
            self.issues.append(rulebook.note(join(at, LEGACY_SHAPE_RADIUS_KEY), "radius_ignored"))
            values.update(read_fields(fields[1:], details, at, self.issues))
            return Shape(shape_type, **values)
        height = read_field(field(fields, "height"), details, at, self.issues)
        radius = read_field(Field("radius", LEGACY_SHAPE_RADIUS_KEY, default=model.DEFAULT_RADIUS, minimum=0.0,
                                  what=f"{shape_type} radius"), details, at, self.issues)
        if shape_type == "cylinder":
            return Shape("cylinder", height=height, radius_top=radius, radius_bottom=radius)
        self.revisions_seen.add(rulebook.REV_FULL_HEIGHT_CAPSULE)
        full_height = model.DEFAULT_CYLINDER_HEIGHT if height is None else height  # the old default: 2.0
        mid_height = capsule_mid_height(full_height, radius)
        if mid_height <= 0.0:
            self.issues.append(rulebook.note(at, "capsule_too_short", radius=radius, height=full_height))
            return Shape("sphere", radius=radius)
        self.issues.append(rulebook.note(at, "full_height_capsule", radius=radius, height=full_height,
                                      mid_height=mid_height))
        return Shape("capsule", height=mid_height, radius_top=radius, radius_bottom=radius)

    # --- materials and filters -------------------------------------------------------------------

    def read_material(self, raw: object, at: Where) -> PhysicsMaterial | None:
        material = obj_or_none(raw, at, self.issues, "physics material")
        if material is None:
            return None
        fields = self.dialect.material_fields
        return PhysicsMaterial(**read_fields(fields, material, at, self.issues),
                               unknown=self.kept(fields, material, at, "physics material"))

    def read_filter(self, raw: object, at: Where) -> CollisionFilter | None:
        collision_filter = obj_or_none(raw, at, self.issues, "collision filter")
        if collision_filter is None:
            return None
        values = read_fields(self.dialect.filter_fields, collision_filter, at, self.issues)
        if "collideWithSystems" in collision_filter and "notCollideWithSystems" in collision_filter:
            found = rulebook.filter_masks(at, values["collide_with_systems"], values["not_collide_with_systems"])
            if found is not None:
                self.issues.append(found)
                if found.severity == "error":
                    return None
        return CollisionFilter(**values, unknown=self.kept(self.dialect.filter_fields, collision_filter, at,
                                                           "collision filter"))

    # --- joint settings --------------------------------------------------------------------------

    def read_joint_settings(self, raw: object, at: Where) -> JointSettings | None:
        settings = obj_or_none(raw, at, self.issues, "joint settings")
        if settings is None:
            return None
        limits_raw = list_or_none(get(settings, "limits"), join(at, "limits"), self.issues, "limits") or []
        drives_raw = list_or_none(get(settings, "drives"), join(at, "drives"), self.issues, "drives") or []
        limits = [self.read_limit(item, join(at, "limits", i)) for i, item in enumerate(limits_raw)]
        drives = [self.read_drive(item, join(at, "drives", i)) for i, item in enumerate(drives_raw)]
        if not limits_raw and not drives_raw:
            self.issues.append(rulebook.note(at, "joint_does_nothing"))
        fields = self.dialect.joint_settings_fields
        name = read_field(field(fields, "name"), settings, at, self.issues)
        return JointSettings(tuple(limit for limit in limits if limit is not None),
                             tuple(drive for drive in drives if drive is not None), name,
                             self.kept(fields, settings, at, "joint"))

    def read_limit(self, raw: object, at: Where) -> JointLimit | None:
        limit = obj_or_none(raw, at, self.issues, "limit")
        if limit is None:
            return None
        fields = self.dialect.limit_fields
        axes: dict[str, Any] = {spec.attr: index_list_or(get(limit, spec.key), (), join(at, spec.key), self.issues,
                                                         maximum=2, what=spec.key)
                                for spec in fields if spec.kind == "special"}
        values = read_fields(fields, limit, at, self.issues)
        found = rulebook.limit_rules(at, axes["linear_axes"], axes["angular_axes"], values["min"], values["max"])
        if found is not None:
            self.issues.append(found)
            return None
        if axes["linear_axes"] and axes["angular_axes"]:
            self.issues.append(rulebook.note(at, "limit_both_kinds"))
        return JointLimit(**axes, **values, unknown=self.kept(fields, limit, at, "joint limit"))

    def read_drive(self, raw: object, at: Where) -> JointDrive | None:
        drive = obj_or_none(raw, at, self.issues, "drive")
        if drive is None:
            return None
        fields = self.dialect.drive_fields
        texts: dict[str, Any] = {}
        spelled: dict[str, str] = {}  # the file's spelling of values read as their fallback
        for spec in (field(fields, "type"), field(fields, "mode")):
            value = get(drive, spec.key)
            if not isinstance(value, str):
                found = "missing" if value is MISSING else f"not a string ({describe(value)})"
                report(self.issues, join(at, spec.key) if value is not MISSING else at,
                       f"drive {spec.key} is {found}; drive dropped")
                return None
            if value not in spec.choices and self.dialect.keeps_unknown:
                self.issues.append(rulebook.note(join(at, spec.key), "unknown_drive_value", key=spec.key,
                                              value=describe(value), known=", ".join(spec.choices),
                                              fallback=spec.fallback))
                spelled[spec.key] = value
                value = spec.fallback
            elif value not in spec.choices:
                self.issues.append(rulebook.note(join(at, spec.key), "unknown_drive_value_as_is", key=spec.key,
                                              value=describe(value), known=", ".join(spec.choices),
                                              kept=repr(held_choice(value, spec.choices))))
            texts[spec.attr] = value
        axis_key = field(fields, "axis").key
        axis_value = get(drive, axis_key)
        axis = None if axis_value is MISSING else _axis(axis_value)
        if axis is None:
            found = "missing" if axis_value is MISSING else f"{describe(axis_value)}, not 0, 1 or 2"
            report(self.issues, join(at, axis_key) if axis_value is not MISSING else at,
                   f"drive axis is {found}; drive dropped")
            return None
        values = read_fields(fields, drive, at, self.issues)
        if self.dialect.paired_drive_gains:
            attrs = {spec.key: spec.attr for spec in fields}
            for target, gain in rulebook.DRIVE_GAIN_PAIRS:
                if gain in drive and values[attrs[target]] is None:
                    self.issues.append(rulebook.note(join(at, gain), "drive_gain_without_target", gain=gain,
                                                  target=target))
                    values[attrs[gain]] = 0.0
        return JointDrive(**texts, axis=axis, **values, unknown=self.kept(fields, drive, at, "joint drive",
                                                                               raw=spelled))

    # --- motion ----------------------------------------------------------------------------------

    def motion_type(self, motion: Mapping[str, Any], at: Where) -> model.MotionType:
        """The motion type, aliases of intermediate revisions read as their current name."""
        spec = field(self.dialect.motion_fields, "type")
        type_value = get(motion, spec.key)
        fallback: model.MotionType = "dynamic"
        if type_value is MISSING:
            self.issues.append(rulebook.note(at, "motion_without_type"))
            return spec.default if model.is_motion_type(spec.default) else fallback
        if type_value in spec.choices and model.is_motion_type(type_value):
            return type_value
        if isinstance(type_value, str) and type_value in rulebook.MOTION_TYPE_ALIASES:
            motion_type, note = rulebook.MOTION_TYPE_ALIASES[type_value]
            self.issues.append(rulebook.issue(join(at, spec.key), note, "info"))
            return motion_type
        self.issues.append(rulebook.note(join(at, spec.key), "unknown_motion_type", value=describe(type_value),
                                      fallback=spec.fallback))
        return spec.fallback if model.is_motion_type(spec.fallback) else fallback

    def motion_unknown(self, motion: Mapping[str, Any], at: Where) -> Unknown:
        """The motion's keys the table does not declare, kept (an unknown motion type is not: its enum is closed)."""
        return self.kept(self.dialect.motion_fields, motion, at, "motion")

    def motion_values(self, motion: Mapping[str, Any], at: Where) -> dict[str, Any]:
        """Every motion value but the type (the legacy body reads these next to its `type` too)."""
        values = read_fields(self.dialect.motion_fields, motion, at, self.issues)
        orientation_key = field(self.dialect.motion_fields, "inertia_orientation").key
        values["inertia_orientation"] = unit_quaternion(values["inertia_orientation"], join(at, orientation_key),
                                                        self.issues)
        return values


def unit_quaternion(orientation: tuple[float, ...], at: Where, issues: Issues) -> model.Quat:
    """A quaternion normalized (warned), identity for a zero one (reported)."""
    length = math.hypot(*orientation)  # no overflow for huge components, unlike a sum of squares
    if length < 1e-9:
        report(issues, at, "inertiaOrientation is a zero quaternion; using identity")
        return model.IDENTITY_QUAT
    if abs(length - 1.0) > 1e-3:
        report(issues, at, "inertiaOrientation is not a unit quaternion; normalized", "warning")
        x, y, z, w = (component / length for component in orientation)
        return (x, y, z, w)
    x, y, z, w = orientation
    return (x, y, z, w)


def _axis(value: object) -> int | None:
    """A drive axis: 0, 1 or 2 (2.0 accepted)."""
    return int_or(value, None, minimum=0, maximum=2)


def inertia_diagonal(numbers: tuple[float, ...], at: Where, issues: list[Issue]) -> Vec3:
    """The diagonal of a legacy 3x3 inertia tensor given as 9 numbers."""
    diagonal = (numbers[0], numbers[4], numbers[8])
    if any(value < 0.0 for value in diagonal):
        report(issues, at, "inertiaTensor has a negative diagonal term; using automatic inertia")
        return model.ZERO3
    if any(abs(numbers[i]) > 1e-12 for i in (1, 2, 3, 5, 6, 7)):
        issues.append(rulebook.note(at, "inertia_off_diagonal"))
    return diagonal
