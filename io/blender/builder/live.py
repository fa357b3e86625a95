"""The live link's build: bring the Blender rigid bodies of a few changed objects in step with their physics.

Each object's settings edits are counted on it (`EDITS`); a build writes the count it was made from
(`IN_STEP`). Both live in the object's data, so an undo, a redo, a saved file or an appended object
brings back a pair that says whether its rigid bodies match its settings, with no walk of its settings.
The settings side (which objects were edited, when to build) is `properties/edits.py`; this module takes
model values only, as every build does.
"""

from __future__ import annotations

from collections.abc import Iterable

import bpy

from ...omi import model
from ..tables.markers import BUILT, FOLLOW, IN_STEP, is_generated
from .built_values import mark_in_step
from .inputs import PhysicsOf
from .rigid_body import build_rigid_bodies
from .rigid_body_world import clear_rigid_bodies


def _body_above(obj: bpy.types.Object, physics_of: PhysicsOf) -> bpy.types.Object | None:
    """The nearest ancestor with physics: a compound body whose shapes may include `obj`'s."""
    parent = obj.parent
    while parent is not None and physics_of(parent) is None:
        parent = parent.parent
    return parent


def world_members(bl_scene: bpy.types.Scene) -> set[int]:
    """The session ids of the objects in the scene's rigid body world (asking the collection object by object
    walks it each time)."""
    world = bl_scene.rigidbody_world
    collection = None if world is None else world.collection
    return set() if collection is None else {obj.session_uid for obj in collection.objects}


def needs_build(obj: bpy.types.Object, members: set[int]) -> bool:
    """An object a build gave a rigid body that is not in this scene's world (`world_members`): appended."""
    return obj.get(BUILT) is not None and obj.session_uid not in members


def rebuild(bl_scene: bpy.types.Scene, objects: Iterable[bpy.types.Object], physics_of: PhysicsOf,
            issues: list[model.Issue] | None = None) -> int:
    """Rebuild what these objects take part in, and nothing else; the number of objects brought in step.

    An object without physics loses what a build made for it (a rigid body the artist made by hand, with
    no build record, stays); the body above it is rebuilt without its shape.
    """
    changed = [obj for obj in dict.fromkeys(objects) if not is_generated(obj)]
    if not changed:
        return 0
    tagged = [obj for obj in changed if physics_of(obj) is not None]
    untagged = [obj for obj in changed if physics_of(obj) is None]
    cleared = [obj for obj in untagged if obj.get(BUILT) is not None or obj.get(IN_STEP) is not None]
    if cleared:
        clear_rigid_bodies(cleared)
        for obj in cleared:
            if obj.get(BUILT) is not None:
                del obj[BUILT]
    above = [body for obj in changed if (body := _body_above(obj, physics_of)) is not None]
    if tagged or above:
        build_rigid_bodies(bl_scene, [*tagged, *above], physics_of, issues, keep_rigid_bodies=True)
    mark_in_step(changed)
    return len(changed)


def hold_follows(objects: Iterable[bpy.types.Object]) -> list[str]:
    """Mute the constraints that make non-mesh bodies follow their generated rigid bodies, for an export:
    the file's node animation is what was authored, not the preview's simulation. The names of the objects
    muted, for `release_follows`."""
    held: list[str] = []
    for obj in objects:
        follow = obj.constraints.get(FOLLOW) if obj.constraints else None
        if follow is not None and not follow.mute:
            follow.mute = True
            held.append(obj.name)
    return held


def release_follows(names: Iterable[str]) -> None:
    for name in names:
        obj = bpy.data.objects.get(name)
        follow = None if obj is None else obj.constraints.get(FOLLOW)
        if follow is not None:
            follow.mute = False
