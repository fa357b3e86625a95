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
from ..tables.markers import BUILT, FOLLOW, GENERATED, IN_STEP, JOINT_CONSTRAINT, OWNER, STAND_IN, is_generated
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


def stands_for(obj: bpy.types.Object) -> bpy.types.Object | None:
    """The object whose physics this object's rigid body simulates: itself, or for a generated stand-in (a
    body whose centre of mass is off its origin, a non-mesh body) the artist's object; None for the other
    generated objects (shape carriers, anchors, motors)."""
    if not is_generated(obj):
        return obj
    owner = obj.get(OWNER)
    return owner if obj.get(GENERATED) == STAND_IN and isinstance(owner, bpy.types.Object) else None


def joint_of(obj: bpy.types.Object) -> bpy.types.Object | None:
    """The joint object a generated constraint object was built for; None for any other object."""
    owner = obj.get(OWNER)
    return owner if obj.get(GENERATED) == JOINT_CONSTRAINT and isinstance(owner, bpy.types.Object) else None


def needs_build(obj: bpy.types.Object, members: set[int]) -> bool:
    """An object a build gave a rigid body that is not in this scene's world (`world_members`): appended."""
    return obj.get(BUILT) is not None and obj.session_uid not in members


def _joints_holding(bl_scene: bpy.types.Scene, bodies: set[bpy.types.Object]) -> list[bpy.types.Object]:
    """The joint objects whose Blender constraints sit on or hold these bodies (or their generated stand-ins):
    a rebuild of a body removes the constraint objects under it, so the joints they stand for are rebuilt
    with it (a ragdoll part holds its child part's joint)."""
    world = bl_scene.rigidbody_world
    constraints = None if world is None else world.constraints
    if constraints is None:
        return []

    def touches(obj: bpy.types.Object | None) -> bool:
        if obj is None:
            return False
        owner = obj.get(OWNER) if is_generated(obj) else None
        return obj in bodies or (isinstance(owner, bpy.types.Object) and owner in bodies)

    found = []
    for made in constraints.objects:
        constraint = made.rigid_body_constraint
        if constraint is None or not (touches(made.parent) or touches(constraint.object1)
                                      or touches(constraint.object2)):
            continue
        joint = made.get(OWNER) if is_generated(made) else made
        if isinstance(joint, bpy.types.Object):
            found.append(joint)
    return found


def rebuild(bl_scene: bpy.types.Scene, objects: Iterable[bpy.types.Object], physics_of: PhysicsOf,
            issues: list[model.Issue] | None = None) -> int:
    """Rebuild what these objects take part in, and nothing else; the number of objects brought in step.

    An object without physics loses what a build made for it (a rigid body the artist made by hand, with
    no build record, stays); the body above it is rebuilt without its shape. The joints holding a rebuilt
    body are rebuilt with it.
    """
    changed = [obj for obj in dict.fromkeys(objects) if not is_generated(obj)]
    if not changed:
        return 0
    tagged = [obj for obj in changed if physics_of(obj) is not None]
    untagged = [obj for obj in changed if physics_of(obj) is None]
    cleared = [obj for obj in untagged if obj.get(BUILT) is not None or obj.get(IN_STEP) is not None]
    above = [body for obj in changed if (body := _body_above(obj, physics_of)) is not None]
    joints = [joint for joint in _joints_holding(bl_scene, {*tagged, *above, *cleared})
              if joint not in changed and physics_of(joint) is not None]
    if cleared:
        clear_rigid_bodies(cleared)
        for obj in cleared:
            if obj.get(BUILT) is not None:
                del obj[BUILT]
    if tagged or above or joints:
        # once each: a joint on a body is both changed and above its changed parts (twice, it got two constraints)
        build_rigid_bodies(bl_scene, list(dict.fromkeys([*tagged, *above, *joints])), physics_of, issues,
                           keep_rigid_bodies=True)
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
