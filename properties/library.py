"""The scene libraries of physics materials and collision filters, and their model values.

Objects refer to library entries by name, so the library is where a material or filter has its one
home in Blender. Values are compared with a float32 tolerance because PropertyGroup floats are float32.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import bpy

from ..io.omi import model
from ..io.omi.json_types import shortest_float32
from . import scene_physics
from .convert_common import kept
from .scene import COMBINE_FROM_OMI, COMBINE_TO_OMI, OMICollisionFilter, OMIPhysicsMaterial, OMISystemName

_Value = TypeVar("_Value", model.PhysicsMaterial, model.CollisionFilter)  # a library entry's model value
_Entry = TypeVar("_Entry", OMIPhysicsMaterial, OMICollisionFilter)  # a library entry

DEFAULT_MATERIAL_NAME = "Material"
DEFAULT_FILTER_NAME = "Filter"

# Presets. Frictions are the kind of coefficients found in introductory physics and engineering tables
# (e.g. Serway & Jewett, "Physics for Scientists and Engineers", table of coefficients of friction; the
# Engineering ToolBox "Friction and Friction Coefficients" page), for the material sliding on itself.
# Restitutions are typical drop-test values for a ball of the material on a hard floor; they vary a lot
# with speed and temperature, so treat them as starting points. Combine modes are the game-engine
# habit: ice stays slippery against anything (minimum), rubber stays bouncy against anything (maximum).
MATERIAL_PRESETS: dict[str, model.PhysicsMaterial] = {
    # Ice on ice: static 0.1, kinetic 0.03 (textbook table); ice barely bounces.
    "Ice": model.PhysicsMaterial(0.1, 0.03, 0.05, "minimum", "average", name="Ice"),
    # Rubber on dry concrete: static 1.0, kinetic 0.8 (textbook table); a rubber ball keeps ~80% speed.
    "Rubber": model.PhysicsMaterial(1.0, 0.8, 0.8, "average", "maximum", name="Rubber"),
    # Steel on steel (dry): static 0.74, kinetic 0.57 (textbook table); steel balls on steel ~0.6.
    "Metal": model.PhysicsMaterial(0.74, 0.57, 0.6, "average", "average", name="Metal"),
    # Wood on wood (dry): static 0.25-0.5, kinetic ~0.2 (textbook table); wooden balls ~0.5.
    "Wood": model.PhysicsMaterial(0.4, 0.2, 0.5, "average", "average", name="Wood"),
}

# Common collision layers. Each filter puts the object in one system named like the preset.
FILTER_PRESETS: dict[str, model.CollisionFilter] = {
    # Level geometry: everything hits it.
    "Environment": model.CollisionFilter(("Environment",), name="Environment"),
    "Player": model.CollisionFilter(("Player",), name="Player"),
    "Enemy": model.CollisionFilter(("Enemy",), name="Enemy"),
    # Projectiles pass through each other and through trigger volumes.
    "Projectile": model.CollisionFilter(("Projectile",), (), ("Projectile", "Trigger"), name="Projectile"),
    # Triggers only detect players.
    "Trigger": model.CollisionFilter(("Trigger",), ("Player",), (), name="Trigger"),
}

_NUMBERED = re.compile(r"^(.*)\.(\d{3,})$")


def unique_name(existing: Iterable[str], base: str) -> str:
    """`base`, or Blender-style `base.001`, `base.002`, ... : the first name not in `existing`."""
    taken = set(existing)
    if base not in taken:
        return base
    match = _NUMBERED.match(base)
    stem = match.group(1) if match else base
    number = 1
    while f"{stem}.{number:03d}" in taken:
        number += 1
    return f"{stem}.{number:03d}"


def find_material(bl_scene: bpy.types.Scene, name: str):
    """The library material called `name`, or None."""
    if not name:
        return None
    return scene_physics(bl_scene).physics_materials.get(name)


def find_filter(bl_scene: bpy.types.Scene, name: str):
    """The library collision filter called `name`, or None."""
    if not name:
        return None
    return scene_physics(bl_scene).collision_filters.get(name)


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-7)


def materials_equal(a: model.PhysicsMaterial, b: model.PhysicsMaterial) -> bool:
    """Same physics (names ignored), up to float32 precision."""
    return (
        _close(a.static_friction, b.static_friction)
        and _close(a.dynamic_friction, b.dynamic_friction)
        and _close(a.restitution, b.restitution)
        and a.friction_combine == b.friction_combine
        and a.restitution_combine == b.restitution_combine
    )


def filters_equal(a: model.CollisionFilter, b: model.CollisionFilter) -> bool:
    """Same membership and mask lists (names ignored)."""
    return (
        tuple(a.collision_systems) == tuple(b.collision_systems)
        and tuple(a.collide_with_systems) == tuple(b.collide_with_systems)
        and tuple(a.not_collide_with_systems) == tuple(b.not_collide_with_systems)
    )


def material_to_model(pg: OMIPhysicsMaterial) -> model.PhysicsMaterial:
    """A library material PropertyGroup as a model value carrying its name (floats as in `convert._float`)."""
    return model.PhysicsMaterial(
        static_friction=shortest_float32(pg.static_friction),
        dynamic_friction=shortest_float32(pg.dynamic_friction),
        restitution=shortest_float32(pg.restitution),
        friction_combine=COMBINE_TO_OMI[pg.friction_combine],
        restitution_combine=COMBINE_TO_OMI[pg.restitution_combine],
        name=pg.name,
        unknown=kept(pg.unknown_json),
    )


def write_material(pg: OMIPhysicsMaterial, value: model.PhysicsMaterial) -> None:
    """Set a library material's values (not its name) from a model value."""
    pg.static_friction = value.static_friction
    pg.dynamic_friction = value.dynamic_friction
    pg.restitution = value.restitution
    pg.friction_combine = COMBINE_FROM_OMI.get(value.friction_combine, 'AVERAGE')
    pg.restitution_combine = COMBINE_FROM_OMI.get(value.restitution_combine, 'AVERAGE')
    pg.unknown_json = value.unknown.text


def _same_entry(equal: Callable[[_Value, _Value], bool], entry: _Value, value: _Value) -> bool:
    """A library entry stands for an imported value when the physics and the kept unknown keys are the same."""
    return equal(entry, value) and entry.unknown == value.unknown


def _reusable(entries: Iterable[_Entry], value_name: str, equal: Callable[[_Entry], bool]) -> str | None:
    """The name of an entry whose values are `equal` and whose name is `value_name` or a Blender-style
    numbered copy of it (`Ice.001`); any equal entry when `value_name` is empty."""
    for entry in entries:
        match = _NUMBERED.match(entry.name)
        same_name = not value_name or value_name in (entry.name, match.group(1) if match else None)
        if same_name and equal(entry):
            return entry.name
    return None


# While `remembering` (a stack: nested calls share the outermost): (scene, value) -> the entry found or added
# for it. An import asks for the same few values once per node, and each search converts every entry.
_remembered: list[dict[tuple[str, model.PhysicsMaterial | model.CollisionFilter], str]] = []


@contextmanager
def remembering() -> Iterator[None]:
    """Each value's entry searched once meanwhile; for a caller that changes the library only through
    `material_from_model` and `filter_from_model` (an import)."""
    _remembered.append(_remembered[-1] if _remembered else {})
    try:
        yield
    finally:
        _remembered.pop()


def _recall(bl_scene: bpy.types.Scene, value: model.PhysicsMaterial | model.CollisionFilter,
            find: Callable[[], str]) -> str:
    if not _remembered:
        return find()
    known, key = _remembered[-1], (bl_scene.name, value)
    name = known.get(key)
    if name is None:
        name = known[key] = find()
    return name


def material_from_model(bl_scene: bpy.types.Scene, value: model.PhysicsMaterial) -> str:
    """The name of a library material equal to `value`, added to the library if there is none (see
    `_material_from_model`)."""
    return _recall(bl_scene, value, lambda: _material_from_model(bl_scene, value))


def _material_from_model(bl_scene: bpy.types.Scene, value: model.PhysicsMaterial) -> str:
    """The name of a library material equal to `value`, added to the library if there is none.

    Equal means same values and, when `value` has a name, the same name (or a numbered copy of it): two
    materials that differ only by name stay two entries, and importing a file twice adds nothing new.
    A new entry is named after `value.name` (or "Material"), made unique Blender-style.
    """
    library = scene_physics(bl_scene).physics_materials
    found = _reusable(library, value.name, lambda entry: _same_entry(materials_equal, material_to_model(entry), value))
    if found is not None:
        return found
    entry = library.add()
    entry.name = unique_name((e.name for e in library), value.name or DEFAULT_MATERIAL_NAME)
    write_material(entry, value)
    return entry.name


def _system_names(collection: Iterable[OMISystemName]) -> tuple[str, ...]:
    return tuple(item.name for item in collection if item.use and item.name)


def filter_to_model(pg: OMICollisionFilter) -> model.CollisionFilter:
    """A library filter PropertyGroup as a model value: mode ONLY/EXCEPT fills the matching mask list."""
    listed = _system_names(pg.listed_systems)
    return model.CollisionFilter(
        collision_systems=_system_names(pg.collision_systems),
        collide_with_systems=listed if pg.mode == 'ONLY' else (),
        not_collide_with_systems=listed if pg.mode == 'EXCEPT' else (),
        name=pg.name,
        unknown=kept(pg.unknown_json),
    )


def _fill_names(collection: Any, names: Iterable[str]) -> None:  # OMISystemName entries (add, clear)
    collection.clear()
    for name in names:
        item = collection.add()
        item.name = name
        item.use = True


def write_filter(pg: OMICollisionFilter, value: model.CollisionFilter, issues: list[model.Issue] | None = None) -> None:
    """Set a library filter's systems and mode (not its name) from a model value.

    A filter with both a collide-with and a not-collide-with list is invalid in the spec; the
    collide-with list wins (the stricter mask) and an issue is added.
    """
    _fill_names(pg.collision_systems, value.collision_systems)
    pg.unknown_json = value.unknown.text
    if value.collide_with_systems:
        pg.mode = 'ONLY'
        _fill_names(pg.listed_systems, value.collide_with_systems)
        if value.not_collide_with_systems and issues is not None:
            issues.append(model.Issue(
                "", f"collision filter {value.name!r} has both collide-with and not-collide-with systems; "
                "kept only the collide-with list"))
    elif value.not_collide_with_systems:
        pg.mode = 'EXCEPT'
        _fill_names(pg.listed_systems, value.not_collide_with_systems)
    else:
        pg.mode = 'ALL'
        pg.listed_systems.clear()


def filter_from_model(bl_scene: bpy.types.Scene, value: model.CollisionFilter,
                      issues: list[model.Issue] | None = None) -> str:
    """The name of a library filter equal to `value` (same rule as materials), added if there is none."""
    return _recall(bl_scene, value, lambda: _filter_from_model(bl_scene, value, issues))


def _filter_from_model(bl_scene: bpy.types.Scene, value: model.CollisionFilter,
                       issues: list[model.Issue] | None) -> str:
    library = scene_physics(bl_scene).collision_filters
    found = _reusable(library, value.name, lambda entry: _same_entry(filters_equal, filter_to_model(entry), value))
    if found is not None:
        return found
    entry = library.add()
    entry.name = unique_name((e.name for e in library), value.name or DEFAULT_FILTER_NAME)
    write_filter(entry, value, issues)
    return entry.name
