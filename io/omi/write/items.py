"""Model -> JSON for the document-level items (shapes, physics materials, collision filters, joint settings)
and a body's motion, driven by a dialect's field tables (`dialects/base.py`).

Every function returns a plain JSON dict with the spec defaults omitted and never NaN, Infinity or -1
(ERRATA: glTFid has minimum 0, JSON has no Infinity), so `json.dumps(..., allow_nan=False)` always
works. A value that could not be written schema-valid (a non-finite number, a zero box side) is left
out, which means the spec default. The keys a file held that the tables do not declare (`model.Unknown`)
are written back next to the known ones, never over them (`fields.write_unknown`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .. import model
from ..dialects.base import LIMIT_RANGE_KEYS, Dialect
from ..dialects.fields import field, finite, json_value, write_fields, write_unknown
from ..dialects.omi import OMI
from ..model import CollisionFilter, JointDrive, JointLimit, JointSettings, Motion, PhysicsMaterial, Shape


def shape_to_json(shape: Shape, mesh_index: Any = None, dialect: Dialect = OMI) -> dict[str, Any]:
    """A shapes[] entry. The per-type sub-object is always written (ERRATA), `{}` when all defaults.

    `mesh_index` is what stands for the mesh of a convex/trimesh shape (an int, or in the export hook a
    placeholder it later replaces with the mesh's index); None leaves `mesh` out.
    """
    shape_type = shape.type if shape.type in model.SHAPE_TYPES else "box"
    details: dict[str, Any] = {}
    if shape_type in model.MESH_SHAPE_TYPES:
        if mesh_index is not None and not (isinstance(mesh_index, int) and mesh_index < 0):
            details["mesh"] = mesh_index
    else:
        write_fields(dialect.shape_fields[shape_type], shape, details)
    kept = shape.type_unknown.fresh() if shape.type_unknown.dialect == dialect.name else {}
    for key, value in (kept.get(shape_type) or {}).items():  # kept for another type: not written
        details.setdefault(key, value)
    out = {"type": shape_type, shape_type: details}
    return write_unknown((), shape, out, dialect.name)


def motion_to_json(motion: Motion, dialect: Dialect = OMI) -> dict[str, Any]:
    type_field = field(dialect.motion_fields, "type")
    out: dict[str, Any] = {"type": motion.type if motion.type in type_field.choices else type_field.default}
    return write_unknown(dialect.motion_fields, motion, write_fields(dialect.motion_fields, motion, out), dialect.name)


def motion_without_mass(motion: Motion) -> tuple[Any, ...]:
    """Every value of a motion but its mass, as a key: a level's dynamic bodies differ mostly in mass, and
    the mass is written apart from the other values (see `mass_json`)."""
    values = dict(vars(motion))
    del values["mass"]
    return tuple(values.values())


def mass_json(motion: Motion, dialect: Dialect = OMI) -> Any:
    """The JSON of a motion's mass, MISSING when not written. A motion written with its mass, and another
    with the same `motion_without_mass` and a written mass, differ only in that value (same key, same
    place): the second is the first's copy with this mass."""
    return json_value(field(dialect.motion_fields, "mass"), motion.mass)


def material_to_json(material: PhysicsMaterial, dialect: Dialect = OMI) -> dict[str, Any]:
    fields = dialect.material_fields
    return write_unknown(fields, material, write_fields(fields, material, {}), dialect.name)


def filter_to_json(collision_filter: CollisionFilter, dialect: Dialect = OMI) -> dict[str, Any]:
    """A collisionFilters[] entry. The spec forbids both masks at once; the allow-list wins then."""
    fields = dialect.filter_fields
    return write_unknown(fields, collision_filter, write_fields(fields, collision_filter, {}), dialect.name)


def _axes(values: Iterable[object]) -> list[int]:
    kept: list[int] = []
    for value in values or ():
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 2 and value not in kept:
            kept.append(value)
    return kept


def limit_to_json(limit: JointLimit, dialect: Dialect = OMI) -> list[dict[str, Any]]:
    """One limit as 0, 1 or 2 limits[] entries: linear and angular axes are written apart (ERRATA)."""
    common: dict[str, Any] = {}
    low = limit.min if limit.min is not None and finite(limit.min) else None
    high = limit.max if limit.max is not None and finite(limit.max) else None
    if low is not None and high is not None and low > high:
        low, high = None, None  # an empty range cannot be written; the reader reports such limits
    for key, value in zip(LIMIT_RANGE_KEYS, (low, high), strict=True):
        if value is not None:
            common[key] = float(value)
    write_fields((spec for spec in dialect.limit_fields if spec.key not in LIMIT_RANGE_KEYS), limit, common)
    entries = []
    for spec in dialect.limit_fields:
        axes = _axes(getattr(limit, spec.attr)) if spec.kind == "special" else []
        if axes:
            entries.append(write_unknown(dialect.limit_fields, limit, {spec.key: axes, **common}, dialect.name))
    return entries


def drive_to_json(drive: JointDrive, dialect: Dialect = OMI) -> dict[str, Any]:
    fields = dialect.drive_fields
    out: dict[str, Any] = {
        field(fields, "type").key: drive.type if isinstance(drive.type, str) and drive.type else "angular",
        field(fields, "mode").key: drive.mode if isinstance(drive.mode, str) and drive.mode else "force",
        field(fields, "axis").key: drive.axis if drive.axis in (0, 1, 2) and not isinstance(drive.axis, bool) else 0,
    }
    return write_unknown(fields, drive, write_fields(fields, drive, out), dialect.name)


def joint_settings_to_json(settings: JointSettings, dialect: Dialect = OMI) -> dict[str, Any]:
    out: dict[str, Any] = {}
    limits = [entry for limit in settings.limits for entry in limit_to_json(limit, dialect)]
    if limits:
        out["limits"] = limits
    if settings.drives:
        out["drives"] = [drive_to_json(drive, dialect) for drive in settings.drives]
    fields = dialect.joint_settings_fields
    return write_unknown(fields, settings, write_fields(fields, settings, out), dialect.name)
