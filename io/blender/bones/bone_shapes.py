"""A shape fitted to one bone for a ragdoll part: from the vertices the bone moves most, else its length.

The points are taken in the part's frame (the bone's glTF node frame, io/blender/bones/rig.py), where
the bone runs along +Z (glTF +Y), so a capsule needs no turn: its axis is the bone's.
"""

from __future__ import annotations

from dataclasses import dataclass

import bpy
import numpy as np
from mathutils import Matrix, Vector

from .. import fit

MIN_WEIGHT = 0.5  # a vertex belongs to the bone whose group holds at least this weight, and the most
_THIN = 0.1  # radius / bone length of a shape made from the bone's length alone


@dataclass(frozen=True)
class BoneShape:
    shape_type: str  # 'CAPSULE', 'BOX', or 'SPHERE' (a capsule's vertices no longer than wide)
    center: Vector  # in the part's frame
    radius: float = 0.0
    mid_height: float = 0.0
    size: Vector | None = None
    from_vertices: int = 0  # how many vertices it was fitted to (0: from the bone's length)

    @property
    def volume(self) -> float:
        if self.size is not None:
            return self.size.x * self.size.y * self.size.z
        if self.shape_type == 'SPHERE':
            return 4.0 * np.pi * self.radius ** 3 / 3.0
        return np.pi * self.radius ** 2 * (self.mid_height + 4.0 * self.radius / 3.0)


def skinned_meshes(armature: bpy.types.Object) -> list[bpy.types.Object]:
    """Mesh objects deformed by the armature (an Armature modifier pointing at it)."""
    return [obj for obj in bpy.data.objects if obj.type == 'MESH' and any(
        isinstance(modifier, bpy.types.ArmatureModifier) and modifier.object == armature for modifier in obj.modifiers)]


def bone_points(armature: bpy.types.Object, bone: str, to_part: Matrix) -> np.ndarray:
    """The rest positions (in the part's frame) of the skinned vertices that `bone` moves most."""
    found: list[Vector] = []
    for obj in skinned_meshes(armature):
        group = obj.vertex_groups.get(bone)
        if group is None:
            continue
        deforming = {index for index, vertex_group in enumerate(obj.vertex_groups)
                     if vertex_group.name in armature.data.bones}
        to_local = to_part @ obj.matrix_world
        for vertex in obj.data.vertices:
            weights = {item.group: item.weight for item in vertex.groups if item.group in deforming}
            weight = weights.get(group.index, 0.0)
            if weight >= MIN_WEIGHT and weight >= max(weights.values()):
                found.append(to_local @ vertex.co)
    return np.array([point[:] for point in found], dtype=np.float64).reshape(-1, 3)


def fit_bone(armature: bpy.types.Object, bone: str, part_world: Matrix, shape_type: str) -> BoneShape:
    """A capsule or box around the bone's vertices (at least four), else sized by the bone's length."""
    points = bone_points(armature, bone, part_world.inverted_safe())
    pose = armature.pose
    assert pose is not None, "an armature object has its pose"
    length = pose.bones[bone].length
    if len(points) >= 4:
        if shape_type == 'BOX':
            size, center = fit.box_of_points(points)
            return BoneShape('BOX', center, size=Vector([max(side, 1e-3) for side in size[:]]),
                             from_vertices=len(points))
        radius, mid_height, center = fit.capsule_along_z(points)
        if mid_height <= 0.0:  # no longer than wide: a ball (a capsule's mid-height must be above 0)
            ball_center, ball_radius = fit.min_enclosing_ball(points)
            return BoneShape('SPHERE', Vector(ball_center), radius=max(ball_radius, 1e-3), from_vertices=len(points))
        return BoneShape('CAPSULE', center, radius=max(radius, 1e-3), mid_height=mid_height,
                         from_vertices=len(points))
    radius = max(_THIN * length, 1e-3)
    center = Vector((0.0, 0.0, length / 2.0))
    if shape_type == 'BOX':
        return BoneShape('BOX', center, size=Vector((2 * radius, 2 * radius, length)))
    return BoneShape('CAPSULE', center, radius=radius, mid_height=length - 2 * radius)  # radius: a tenth of it
