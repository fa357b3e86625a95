"""Where a body's mass lives: one home at a time, never two copies kept in step.

Blender's rigid body holds a mass, so once the object has a rigid body its Rigid Body > Mass *is* the body's
mass: the add-on's panel draws that property, a script or a driver may set it, an F-curve keys it, and the
settings' `motion.mass` reads and writes it. The settings store a mass of their own (the ID property
`motion["mass"]`) only while no rigid body can hold it: before the first build, on a body simulated by a
generated stand-in (its rigid body belongs to another object), or a mass below Blender's floor (OMI allows
0). Such a stored value, when present, is the mass; a build then derives Blender's value from it.

Around what takes a rigid body away (a rebuild, a clear, Blender's own Remove), `release` moves the mass
into the settings first; after a build `settle` hands it back to the rigid body that now holds it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable
from typing import Any

import bpy

from ..io.blender.tables.bullet import BLENDER_MIN_MASS, blender_mass
from ..io.blender.tables.markers import BUILT
from ..io.omi import model

KEY = "mass"


def holds(value: float) -> bool:
    """Whether a Blender rigid body can hold this mass as it is (finite, not below Blender's floor)."""
    return math.isfinite(value) and value >= BLENDER_MIN_MASS


def _rigid_body(motion: Any) -> bpy.types.RigidBodyObject | None:
    owner = motion.id_data
    return getattr(owner, "rigid_body", None) if isinstance(owner, bpy.types.Object) else None


def get_mass(motion: Any) -> float:
    """The settings' stored mass when there is one, else Blender's Rigid Body mass, else the default."""
    stored = motion.get(KEY)
    if isinstance(stored, int | float):
        return float(stored)
    rigid = _rigid_body(motion)
    return float(rigid.mass) if rigid is not None else model.DEFAULT_MASS


def set_mass(motion: Any, value: float) -> None:
    """Into Blender's rigid body when it can hold it (and the stored copy goes); else stored, and Blender's
    rigid body simulates the nearest mass it can."""
    rigid = _rigid_body(motion)
    if rigid is not None and holds(value):
        rigid.mass = value
        if KEY in motion:
            del motion[KEY]
        return
    motion[KEY] = value
    if rigid is not None:
        rigid.mass = blender_mass(value, model.DEFAULT_MASS)


def mass_home(motion: Any) -> tuple[bpy.types.bpy_struct, str]:
    """(struct, property) the panel draws for a body's mass: Blender's own property when it is the home."""
    rigid = _rigid_body(motion)
    return (rigid, "mass") if rigid is not None and KEY not in motion else (motion, "mass")


def _built_mass(obj: bpy.types.Object) -> float | None:
    """The mass the last build or adopted edit recorded for the object's rigid body (`builder/built_values`)."""
    text = obj.get(BUILT)
    try:
        found = json.loads(text)["mass"][0] if isinstance(text, str) else None
    except (ValueError, KeyError, IndexError, TypeError):
        return None
    return float(found) if isinstance(found, int | float) else None


def release(objects: Iterable[bpy.types.Object]) -> None:
    """Store each body's mass in its settings before its rigid body is remade or removed (or after Blender's
    own Remove took it: the mass it last recorded)."""
    for obj in objects:
        motion = obj.omi_physics.motion  # type: ignore[attr-defined]  # registered by the add-on
        settings = obj.omi_physics  # type: ignore[attr-defined]  # registered by the add-on
        if obj.library is not None or KEY in motion or not settings.use_motion:
            continue
        value = obj.rigid_body.mass if obj.rigid_body is not None else _built_mass(obj)
        if value is not None:
            motion[KEY] = value


def settle(objects: Iterable[bpy.types.Object]) -> None:
    """After a build: where the object's own rigid body now holds the stored mass, that copy goes."""
    for obj in objects:
        motion = obj.omi_physics.motion  # type: ignore[attr-defined]  # registered by the add-on
        stored = motion.get(KEY)
        rigid = obj.rigid_body
        if obj.library is None and rigid is not None and isinstance(stored, int | float) and holds(float(stored)) \
                and math.isclose(rigid.mass, stored, rel_tol=1e-6):
            del motion[KEY]


def migrate(group: bpy.types.PropertyGroup) -> None:
    """An older file stored the mass in the settings and in the rigid body, the rigid body's winning where it
    was edited in Blender's panel: one copy stays, the one that was read."""
    owner = group.id_data
    motion = group.get("motion")
    rigid = getattr(owner, "rigid_body", None)
    if rigid is None or motion is None or not hasattr(motion, "keys"):
        return
    stored = motion.get(KEY, model.DEFAULT_MASS)
    if not isinstance(stored, int | float):
        return
    edited = rigid.type == 'ACTIVE' and not motion.get("infinite_mass") \
        and abs(rigid.mass - blender_mass(float(stored), model.DEFAULT_MASS)) > 1e-6 * max(1.0, rigid.mass)
    value = float(rigid.mass if edited else stored)
    if holds(value) and math.isclose(rigid.mass, value, rel_tol=1e-6):
        if KEY in motion:
            del motion[KEY]
    else:
        motion[KEY] = value
