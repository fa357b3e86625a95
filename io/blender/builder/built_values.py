"""What a build wrote into each Blender rigid body, kept on the object, so that *Sync from Blender* can tell
the values an artist changed in Blender's own panels from those it only approximates.

Blender's rigid bodies hold a few of a body's values (its motion type, mass, collision shape type,
friction, restitution, collision collections) and approximate the rest (a sphere fitted to a cube, a
gravity factor, a physics material's combine modes are not held at all). Reading every rigid body
back would replace what the settings say with the approximations; comparing with what the build wrote
changes only the values the artist edited since, and names each of them.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from operator import attrgetter
from typing import Any, cast

import bpy

from ..tables.markers import BUILT, BUILT_BODIES, BUILT_PARENT, EDITS, IN_STEP

# Each group of Blender rigid-body properties and the part of the OMI settings it stands for.
GROUPS: dict[str, tuple[str, ...]] = {
    "motion type": ("type", "kinematic", "enabled"),
    "mass": ("mass",),
    "collision shape": ("collision_shape", "mesh_source"),
    "friction": ("friction",),
    "restitution": ("restitution",),
    "collision collections": ("collision_collections",),
    "damping": ("linear_damping", "angular_damping"),
    "collision margin": ("use_margin", "collision_margin"),
}


def _value(rigid_body: bpy.types.RigidBodyObject, name: str) -> object:
    value = getattr(rigid_body, name)
    return list(value) if name == "collision_collections" else value


def current(obj: bpy.types.Object) -> dict[str, list[object]]:
    """The object's rigid-body values now, by group."""
    rigid_body = obj.rigid_body
    assert rigid_body is not None, "asked only of objects with a rigid body (record and changed check)"
    return {group: [_value(rigid_body, name) for name in names] for group, names in GROUPS.items()}


_NAMES = tuple(name for names in GROUPS.values() for name in names)
_READ_ALL = attrgetter(*_NAMES)  # all the record's values in one call
_COLLECTIONS = _NAMES.index("collision_collections")
_MASS = _NAMES.index("mass")  # the value bodies share least: the texts are kept around it
_TEXTS: dict[tuple[object, ...], tuple[str, str]] = {}  # the other values -> the record's text before and after it


def _group_text(group: str, values: Iterable[object]) -> str:
    items = [list(item) if isinstance(item, tuple) else item for item in values]
    return f"{json.dumps(group)}: {json.dumps(items)}"


def _around_mass(values: tuple[object, ...]) -> tuple[str, str]:
    """The record's text before and after the mass, for these values (the mass left out)."""
    parts, at = [], 0
    for group, names in GROUPS.items():
        parts.append("\0" if group == "mass" else _group_text(group, values[at:at + len(names)]))
        at += len(names)
    head, tail = ("{" + ", ".join(parts) + "}").split("\0")
    return head + f"{json.dumps('mass')}: [", "]" + tail


def _text(rigid_body: bpy.types.RigidBodyObject) -> str:
    """`json.dumps(current(obj))`, made once for all the bodies that hold the same values but for their mass
    (equal values give texts that read back equal)."""
    values = list(_READ_ALL(rigid_body))
    values[_COLLECTIONS] = tuple(cast(Iterable[bool], values[_COLLECTIONS]))
    mass = values[_MASS]
    values[_MASS] = None
    key = tuple(values)
    found = _TEXTS.get(key)
    if found is None:
        if len(_TEXTS) > 4096:
            _TEXTS.clear()
        found = _TEXTS[key] = _around_mass(key)
    mass_text = repr(mass) if isinstance(mass, float) and math.isfinite(mass) else json.dumps(mass)
    return found[0] + mass_text + found[1]


def record(objects: Iterable[bpy.types.Object | None]) -> None:
    """Keep what the build wrote into each object's rigid body (objects without one are passed over)."""
    for obj in objects:
        rigid_body = None if obj is None else obj.rigid_body
        if obj is not None and rigid_body is not None:
            obj[BUILT] = _text(rigid_body)


_READ: dict[str, dict | None] = {}  # records read, by their text: a scene's bodies share a few


def _read(text: str) -> dict | None:
    found = _READ.get(text, False)
    if found is False:
        if len(_READ) > 4096:
            _READ.clear()
        try:
            loaded = json.loads(text)
        except ValueError:
            loaded = None
        found = _READ[text] = loaded if isinstance(loaded, dict) else None
    return found if isinstance(found, dict) else None


def changed(obj: bpy.types.Object) -> set[str] | None:
    """The groups whose values differ from what the last build wrote; None when no build wrote this rigid
    body (made by hand, or before this record existed)."""
    text = obj.get(BUILT)
    if obj.rigid_body is None or not isinstance(text, str):
        return None
    built = _read(text)
    if built is None:
        return None
    now = current(obj)
    return {group for group, values in now.items() if built.get(group) != values}


def edits(obj: bpy.types.Object) -> int:
    """How many times the object's settings were edited (counted by the live link)."""
    value = obj.get(EDITS, 0)
    return value if isinstance(value, int) else 0


def in_step(obj: bpy.types.Object) -> bool:
    """Whether the object's rigid bodies were built from its settings as they are now."""
    return obj.get(IN_STEP) == edits(obj)


def mark_in_step(objects: Iterable[bpy.types.Object]) -> None:
    """Say that a build made these objects' rigid bodies from their settings as they are now."""
    for obj in objects:
        count = edits(obj)
        if obj.get(IN_STEP) != count:
            obj[IN_STEP] = count


_CONSTRAINT_NAMES: list[str] = []  # the constraint's values by name, read once from its RNA (a walk of it is slow)
_CONSTRAINT_READ: list[attrgetter[tuple[object, ...]]] = []  # all of them at once
_CONSTRAINT_ARRAYS: list[int] = []  # where the values are arrays (the RNA's, the same for every constraint)
_CONSTRAINT_TEXTS: dict[tuple[object, ...], str] = {}  # a constraint's values -> their JSON: joints share many


def _constraint_tuple(obj: bpy.types.Object) -> tuple[object, ...]:
    """The numbers, switches and choices of the object's rigid body constraint, in `_CONSTRAINT_NAMES`' order
    (arrays as tuples)."""
    constraint = obj.rigid_body_constraint
    assert constraint is not None, "asked only of constraint objects"
    if not _CONSTRAINT_NAMES:
        _CONSTRAINT_NAMES.extend(prop.identifier for prop in constraint.bl_rna.properties
                                 if prop.type in ('FLOAT', 'INT', 'BOOLEAN', 'ENUM') and prop.identifier != "rna_type")
        _CONSTRAINT_READ.append(attrgetter(*_CONSTRAINT_NAMES))
        _CONSTRAINT_ARRAYS.extend(index for index, value in enumerate(_CONSTRAINT_READ[0](constraint))
                                  if hasattr(value, "__len__") and not isinstance(value, str))
    values = _CONSTRAINT_READ[0](constraint)
    if not _CONSTRAINT_ARRAYS:
        return values
    listed = list(values)
    for index in _CONSTRAINT_ARRAYS:
        listed[index] = tuple(cast(Iterable[object], listed[index]))
    return tuple(listed)


def _constraint_values(obj: bpy.types.Object) -> dict[str, object]:
    """The numbers, switches and choices of the object's rigid body constraint (not the bodies it joins)."""
    return {name: list(value) if isinstance(value, tuple) else value
            for name, value in zip(_CONSTRAINT_NAMES, _constraint_tuple(obj), strict=True)}


def record_constraint(obj: bpy.types.Object, *, exact: bool, frame: dict[str, object] | None = None) -> None:
    """Keep what the build wrote into a joint's constraint object, whether reading the joint's constraints back
    gives its settings (`joint_readback`), and how the build placed it (`frame`: None keeps the one kept)."""
    if frame is None:
        frame = constraint_frame(obj)
    values = _constraint_tuple(obj)
    part = _CONSTRAINT_TEXTS.get(values)
    if part is None:  # `json.dumps` of the whole record, the constraint's part made once per distinct values
        if len(_CONSTRAINT_TEXTS) > 4096:
            _CONSTRAINT_TEXTS.clear()
        part = _CONSTRAINT_TEXTS[values] = json.dumps(
            dict(zip(_CONSTRAINT_NAMES, values, strict=True)) if not _CONSTRAINT_ARRAYS else
            {name: list(value) if isinstance(value, tuple) else value
             for name, value in zip(_CONSTRAINT_NAMES, values, strict=True)})
    obj[BUILT] = f'{{"constraint": {part}, "exact": {json.dumps(exact)}, "frame": {json.dumps(frame)}}}'
    record_bodies(obj)


ENDS = ("object1", "object2")  # a constraint's two bodies: the joint's, then the connected one's


def record_bodies(obj: bpy.types.Object) -> None:
    """Keep the bodies the constraint joins now: the objects themselves, so that a rename is no change."""
    constraint = obj.rigid_body_constraint
    assert constraint is not None, "asked only of constraint objects"
    obj[BUILT_BODIES] = {end: body for end in ENDS if (body := getattr(constraint, end)) is not None}


def record_frames(joint: bpy.types.Object, frames: Iterable[bpy.types.Object | None]) -> None:
    """Keep, on each frame of a joint just built (its object, its connected one), the frame's parent now and
    the joints built from it: moved into another body, the frame calls for their rebuild (`reparented`)."""
    for frame in frames:
        if frame is None:
            continue
        kept: Any = frame.get(BUILT_PARENT)  # an ID property group, or None
        before = kept.get("joints") if hasattr(kept, "get") else None
        joints = [other for other in (before or ()) if isinstance(other, bpy.types.Object) and other != joint]
        record: dict[str, object] = {"joints": [*joints, joint]}
        if frame.parent is not None:
            record["parent"] = frame.parent
        frame[BUILT_PARENT] = record


def reparented(obj: bpy.types.Object) -> list[bpy.types.Object]:
    """The joints built from this frame when it had another parent; none when it has the same, or is no joint's
    frame (`record_frames`)."""
    kept: Any = obj.get(BUILT_PARENT)  # an ID property group, or None
    if not hasattr(kept, "get") or kept.get("parent") == obj.parent:
        return []
    return [joint for joint in kept.get("joints") or () if isinstance(joint, bpy.types.Object)]


def bodies_changed(obj: bpy.types.Object) -> list[str]:
    """The ends (`ENDS`) whose body differs from the one kept (`record_bodies`); none without a record."""
    kept = obj.get(BUILT_BODIES)
    constraint = obj.rigid_body_constraint
    if constraint is None or kept is None or not hasattr(kept, "get"):
        return []
    return [end for end in ENDS if kept.get(end) != getattr(constraint, end)]


def constraint_frame(obj: bpy.types.Object) -> dict[str, object] | None:
    """How the build placed this constraint object (`joint_readback.Frame`), as kept with its record."""
    text = obj.get(BUILT)
    built = _read(text) if isinstance(text, str) else None
    found = None if built is None else built.get("frame")
    return found if isinstance(found, dict) else None


def constraint_changed(obj: bpy.types.Object) -> bool | None:
    """Whether the constraint differs from what the last build wrote (None: no build record); None also for
    objects without a constraint."""
    text = obj.get(BUILT)
    built = _read(text) if isinstance(text, str) and obj.rigid_body_constraint is not None else None
    if built is None or "constraint" not in built:
        return None
    return bool(built["constraint"] != _constraint_values(obj))  # JSON keeps a float exactly


def constraint_exact(obj: bpy.types.Object) -> bool:
    """Whether the joint's settings read back from this constraint object (`record_constraint`)."""
    text = obj.get(BUILT)
    built = _read(text) if isinstance(text, str) else None
    return bool(built is not None and built.get("exact"))
