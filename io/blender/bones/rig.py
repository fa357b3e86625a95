"""A ragdoll rig: Blender has no rigid bodies on bones, so a bone's physics lives on an object of its own.

- A dynamic bone part is a rigid-body object at the bone's glTF node frame; an empty under it (BONE_TARGET)
  sits at the bone's own frame, and the bone copies that empty's world transform (a Copy Transforms
  constraint named FOLLOW_BONE). Copy Transforms rather than Child Of: a child bone's own pose already
  holds its parent's motion, which Child Of would add a second time.
- A static or kinematic bone part rides on the animated bone instead (parented to it) and its Blender rigid
  body is 'Animated', so the simulation moves it with the bone.
- `parts_of` finds the parts of an armature again, for export and the overlay: this rig, and the common
  hand-made one (a bone with Copy Transforms or Child Of to a rigid-body object).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeAlias, cast

import bpy
from mathutils import Matrix

from ..tables.markers import BONE_PART, BONE_TARGET, is_generated

FOLLOW_BONE = "OMI ragdoll"  # the bone constraint that makes a bone follow its part
_FOLLOWING = ('COPY_TRANSFORMS', 'CHILD_OF')
_Following: TypeAlias = "bpy.types.CopyTransformsConstraint | bpy.types.ChildOfConstraint"  # _FOLLOWING's types


@dataclass(frozen=True)
class BonePart:
    """A rigid-body object standing for one bone's physics."""

    armature: bpy.types.Object
    bone: str
    part: bpy.types.Object
    follows_simulation: bool  # the bone follows the part (dynamic); else the part rides on the bone


def new_part(name: str, world: Matrix, collection: bpy.types.Collection, bone: str) -> bpy.types.Object:
    """An empty-mesh object at `world` to carry a bone's physics (the rigid-body build gives it its shape)."""
    part = bpy.data.objects.new(name, bpy.data.meshes.new(name))
    part[BONE_PART] = bone
    part.display_type = 'WIRE'
    part.matrix_world = world
    collection.objects.link(part)
    return part


def pose(armature: bpy.types.Object) -> bpy.types.Pose:
    """An armature object's pose (the stubs allow None: objects of other types have none)."""
    return cast(bpy.types.Pose, armature.pose)


def armature_data(armature: bpy.types.Object) -> bpy.types.Armature:
    """An armature object's data (the stubs type Object.data as any object data, or None)."""
    return cast(bpy.types.Armature, armature.data)


def pose_world(armature: bpy.types.Object, bone: str) -> Matrix:
    return armature.matrix_world @ pose(armature).bones[bone].matrix


def follow_part(armature: bpy.types.Object, bone: str, part: bpy.types.Object, *, mute: bool = False) -> None:
    """Make the bone copy the part: an empty under the part at the bone's current frame, copied in world space."""
    unfollow(armature, bone)
    target = bpy.data.objects.new(f"{part.name} bone", None)
    target[BONE_TARGET] = bone
    target.empty_display_type = 'ARROWS'
    target.empty_display_size = 0.1
    target.hide_render = True
    for collection in part.users_collection:
        collection.objects.link(target)
    target.parent = part
    target.matrix_parent_inverse = Matrix.Identity(4)
    target.matrix_basis = part.matrix_world.inverted_safe() @ pose_world(armature, bone)
    constraints = pose(armature).bones[bone].constraints
    constraint = cast(bpy.types.CopyTransformsConstraint, constraints.new('COPY_TRANSFORMS'))
    constraint.name = FOLLOW_BONE
    constraint.target = target
    constraint.mute = mute


def unfollow(armature: bpy.types.Object, bone: str) -> None:
    """Remove the bone's follow constraint and its target empty."""
    pose_bone = pose(armature).bones[bone]
    constraint = pose_bone.constraints.get(FOLLOW_BONE)
    if constraint is None:
        return
    target = cast(bpy.types.CopyTransformsConstraint, constraint).target  # follow_part made it
    pose_bone.constraints.remove(constraint)
    if target is not None and target.get(BONE_TARGET) is not None:
        bpy.data.objects.remove(target)


def ride_bone(part: bpy.types.Object, armature: bpy.types.Object, bone: str) -> None:
    """Parent the part to the bone, keeping where it is."""
    world = part.matrix_world.copy()
    part.parent = armature
    part.parent_type = 'BONE'
    part.parent_bone = bone
    pose_bone = pose(armature).bones[bone]
    bone_tail = armature.matrix_world @ pose_bone.matrix @ Matrix.Translation((0.0, pose_bone.length, 0.0))
    part.matrix_parent_inverse = Matrix.Identity(4)
    part.matrix_basis = bone_tail.inverted_safe() @ world  # a bone child hangs from the bone's tail


def reparent_keeping_world(obj: bpy.types.Object, parent: bpy.types.Object) -> None:
    world = obj.matrix_world.copy()
    obj.parent = parent
    obj.parent_type = 'OBJECT'
    obj.matrix_parent_inverse = Matrix.Identity(4)
    obj.matrix_basis = parent.matrix_world.inverted_safe() @ world


def _is_body(obj: bpy.types.Object) -> bool:
    """A Blender rigid body, or this rig's part (which has none when the import built no rigid bodies)."""
    return obj.rigid_body is not None or obj.get(BONE_PART) is not None


def part_of_target(target: bpy.types.Object | None) -> bpy.types.Object | None:
    """The part a bone follows through `target`: this rig's bone target's parent, or a rigid-body object."""
    if target is None or is_generated(target):
        return None
    if target.get(BONE_TARGET) is not None:
        return target.parent
    return target if _is_body(target) else None


def parts_of(armature: bpy.types.Object,
             scene_objects: bpy.types.bpy_prop_collection[bpy.types.Object] | None = None) -> list[BonePart]:
    """The bone parts of an armature: bones following a part, and this rig's parts riding on a bone."""
    found: list[BonePart] = []
    if armature.type != 'ARMATURE' or armature.pose is None:
        return found
    for pose_bone in armature.pose.bones:
        for constraint in pose_bone.constraints:
            if constraint.type in _FOLLOWING and getattr(constraint, "subtarget", "") == "":
                part = part_of_target(cast("_Following", constraint).target)
                if part is not None:
                    found.append(BonePart(armature, pose_bone.name, part, True))
                    break
    for child in armature.children if scene_objects is None else scene_objects:
        if child.parent is armature and child.parent_type == 'BONE' and child.get(BONE_PART) is not None:
            found.append(BonePart(armature, child.parent_bone, child, False))
    # A bone's shape or joint frame that belongs to the body of a bone above it hangs under that body's part,
    # and is still its own bone's physics.
    bones = {part.bone for part in found}
    for bone_part in list(found):
        for child in bone_part.part.children_recursive:
            bone = child.get(BONE_PART)
            if isinstance(bone, str) and bone not in bones and bone in armature.pose.bones:
                found.append(BonePart(armature, bone, child, False))
                bones.add(bone)
    return found


POSED = "OMI ragdoll animated"  # the Child Of constraint that makes a part follow its bone while animated


def set_simulated(armature: bpy.types.Object, simulated: bool) -> int:
    """Switch the armature's dynamic parts: simulated (bodies move, bones copy them) or animated (bones play
    their animation, bodies follow them as 'Animated' rigid bodies, ready to take over); how many switched."""
    switched = 0
    for found in parts_of(armature):
        if not found.follows_simulation:
            continue
        pose_bone = pose(armature).bones[found.bone]
        for constraint in pose_bone.constraints:
            if constraint.type in _FOLLOWING and part_of_target(cast("_Following", constraint).target) is found.part:
                constraint.mute = not simulated
        posed = found.part.constraints.get(POSED)
        if posed is not None:
            found.part.constraints.remove(posed)
        if not simulated:
            child_of = cast(bpy.types.ChildOfConstraint, found.part.constraints.new('CHILD_OF'))
            child_of.name = POSED
            child_of.target = armature
            child_of.subtarget = found.bone
            rest_bone = armature_data(armature).bones[found.bone]
            rest = armature.matrix_world @ rest_bone.matrix_local  # where the part was made
            child_of.inverse_matrix = rest.inverted_safe()
            child_of.set_inverse_pending = False
        if found.part.rigid_body is not None:
            found.part.rigid_body.kinematic = not simulated
        switched += 1
    return switched
