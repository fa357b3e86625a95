"""The scene's rigid body world, the hidden collections of generated objects and of imported shape helpers;
undoing a build.

Linking an object into `rigidbody_world.collection` creates its rigid body at once (an empty linked into
`.constraints` gets its constraint); `clear_rigid_bodies` removes what the build made.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable

import bpy

from ..tables.markers import (
    FOLLOW,
    GENERATED,
    GENERATED_COLLECTION,
    SHAPE_COLLECTION,
    SHAPE_MESH,
    is_generated,
    owner,
)
from .kinematic_drive import release_drive
from .locks import release_locks

WORLD_COLLECTION = "RigidBodyWorld"
CONSTRAINTS_COLLECTION = "RigidBodyConstraints"


def ensure_world(bl_scene: bpy.types.Scene) -> bpy.types.RigidBodyWorld:
    """The scene's rigid body world with its body and constraint collections, created when missing.

    Creating the world has no data API; the operator is cheap while the scene is small, so the importer
    calls this before it creates the file's objects.
    """
    if bl_scene.rigidbody_world is None:
        with bpy.context.temp_override(scene=bl_scene):
            bpy.ops.rigidbody.world_add()
    world = bl_scene.rigidbody_world
    assert world is not None, "rigidbody.world_add made the scene's rigid body world"
    if world.collection is None:
        world.collection = bpy.data.collections.new(WORLD_COLLECTION)
    if world.constraints is None:
        world.constraints = bpy.data.collections.new(CONSTRAINTS_COLLECTION)
    return world


def hidden_collection(bl_scene: bpy.types.Scene, name: str, marker: str) -> bpy.types.Collection:
    """The scene's child collection carrying the ID property `marker`, created when missing: not rendered and
    hidden in every view layer (the eye: out of the artist's way, still evaluated, simulated and exported)."""
    for child in bl_scene.collection.children:
        if child.get(marker) is not None:
            return child
    collection = bpy.data.collections.new(name)
    collection[marker] = True
    collection.hide_render = True
    bl_scene.collection.children.link(collection)
    for view_layer in bl_scene.view_layers:
        layer = view_layer.layer_collection.children.get(collection.name)
        if layer is not None:
            layer.hide_viewport = True
    return collection


def generated_collection(bl_scene: bpy.types.Scene) -> bpy.types.Collection:
    """The scene's collection of generated objects (not rendered, hidden), created when missing."""
    return hidden_collection(bl_scene, GENERATED_COLLECTION, GENERATED)


def tuck_away(bl_scene: bpy.types.Scene, objects: Iterable[bpy.types.Object]) -> None:
    """Move objects into the scene's hidden collection of shape helpers, out of every other collection of
    the scene (the rigid body world's collections are no scene's children: their rigid bodies stay)."""
    collection = hidden_collection(bl_scene, SHAPE_COLLECTION, SHAPE_MESH)
    ordered = list(dict.fromkeys(objects))
    if not ordered:
        return
    moving, held = set(ordered), set(collection.objects)
    for obj in ordered:
        if obj not in held:
            collection.objects.link(obj)
    # Each collection's members read once: `Object.users_collection` walks every collection of the file per object.
    for holder in (bl_scene.collection, *bl_scene.collection.children_recursive):
        if holder != collection:
            for obj in [member for member in holder.objects if member in moving]:
                holder.objects.unlink(obj)


def clear_rigid_bodies(objects: Iterable[bpy.types.Object],
                       keep_rigid_bodies: Collection[bpy.types.Object] = ()) -> None:
    """Remove what `build_rigid_bodies` made for these objects: generated objects and rigid bodies.

    `keep_rigid_bodies`: objects a build is about to set anew, whose rigid body stays (removing one
    changes the world's collection, and Blender then rebuilds the whole scene's dependency graph).
    """
    targets = set(objects)
    if not targets:
        return
    doomed = [obj for obj in bpy.data.objects
              if is_generated(obj) and (owner(obj) in targets or obj.parent in targets)]
    for obj in targets:
        release_locks(obj)
        release_drive(obj)
        follow = obj.constraints.get(FOLLOW)
        if follow is not None:
            obj.constraints.remove(follow)
    keep = [obj for obj in targets
            if obj.rigid_body is not None and not is_generated(obj) and obj not in keep_rigid_bodies]
    if keep:
        scenes = {bl_scene for obj in keep for bl_scene in obj.users_scene}
        for bl_scene in scenes:
            selected = [obj for obj in keep if bl_scene in obj.users_scene]
            with bpy.context.temp_override(scene=bl_scene, selected_objects=selected, object=selected[0],
                                           active_object=selected[0]):
                bpy.ops.rigidbody.objects_remove()
    if doomed:
        bpy.data.batch_remove(doomed)

