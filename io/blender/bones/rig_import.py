"""Import: physics on glTF nodes that Blender's importer made bones of becomes ragdoll rig parts (see rig.py).

`add_parts` runs once the importer made its objects and before the settings are written: each such node
gets an object at its node frame (a mesh for a body or shape, an empty for a joint alone), entered in the
import's node -> object map, so the settings, the joints' connected nodes and the rigid-body build treat
it like any node's object. Physics children the importer hung on the bone (a compound's colliders, joint
frames, joints' connected frames) move under the part. `tie_parts` runs after the build: bones follow their
dynamic parts, static and kinematic parts ride on their animated bones.
"""

from __future__ import annotations

from collections.abc import Iterable, MutableMapping
from dataclasses import dataclass
from typing import Any

import bpy
from mathutils import Matrix, Quaternion

from ...omi import model, node_poses
from .. import gltf_compat, import_repair
from ..tables import axes, markers
from . import rig


@dataclass
class ImportedPart:
    index: int
    armature: bpy.types.Object
    bone: str
    obj: bpy.types.Object
    dynamic: bool  # the bone follows it; else it rides on the bone


def _world(pose: node_poses.Pose) -> Matrix:
    w, x, y, z = axes.quat_to_blender(pose.rotation)
    return Matrix.LocRotScale(axes.vec_to_blender(pose.translation), Quaternion((w, x, y, z)),
                              axes.size_to_blender(pose.scale))


def _parents(nodes: list) -> dict[int, int]:
    return {child: index for index, node in enumerate(nodes) for child in node.children or [] if isinstance(child, int)}


def add_parts(gltf: Any, doc: model.PhysicsDocument, objects: MutableMapping[int, bpy.types.Object],
              physics_nodes: Iterable[int], issues: list[model.Issue]) -> list[ImportedPart]:
    """Make the objects of the physics nodes that are bones (see the module docstring); the parts made."""
    connected = {node.joint.connected_node for node in doc.nodes.values() if node.joint is not None}
    bones = {index: bone for index, bone in gltf_compat.imported_bones(gltf).items()
             if (index in doc.nodes or index in connected) and index not in objects}
    if not bones:
        return []
    nodes = gltf.data.nodes or []
    parents = _parents(nodes)
    physics_nodes = [index for index in physics_nodes if index in objects]
    # a joint's connected frame that is no bone but hangs on one (a child of a bone node) moves with its part too
    physics_nodes += sorted(index for index in connected - set(physics_nodes) if index is not None and index in objects)
    # Worlds from the file: the importer's objects have no evaluated world matrix yet in its hooks.
    poses = node_poses.world_poses([import_repair.node_json(node) for node in nodes], parents,
                                   [*bones, *physics_nodes])
    parts: list[ImportedPart] = []
    scene = bpy.context.scene
    assert scene is not None, "the import runs in a scene"
    for index in sorted(bones, key=lambda i: _depth(i, parents)):  # parents first: a compound's body exists
        armature, bone = bones[index]
        physics = doc.nodes.get(index) or model.NodePhysics()  # none: a joint's connected frame
        name = nodes[index].name or bone
        collection = armature.users_collection[0] if armature.users_collection else scene.collection
        world = _world(poses[index])
        if physics.motion is None and physics.collider is None and physics.trigger is None:
            obj = bpy.data.objects.new(name, None)  # a joint frame alone
            obj.empty_display_size = 0.1
            obj[markers.BONE_PART] = bone
            obj.matrix_world = world
            collection.objects.link(obj)
        else:
            obj = rig.new_part(name, world, collection, bone)
        objects[index] = obj
        dynamic = physics.motion is not None and physics.motion.type == "dynamic"
        owner = _owner_part(index, parents, {part.index: part for part in parts}, doc)
        if physics.motion is None and owner is not None:
            obj.parent = owner.obj  # a shape or joint frame of the body above
            obj.parent_bone = owner.bone
            obj.matrix_basis = owner.obj.matrix_world.inverted_safe() @ world
        parts.append(ImportedPart(index, armature, bone, obj, dynamic))
        issues.append(model.Issue(f"/nodes/{index}", f"bone {bone!r} of {armature.name!r}: " + _said(
            obj, index in doc.nodes, dynamic, owner), "info"))
    _adopt_children(parts, {objects[index]: _world(poses[index]) for index in physics_nodes})
    return parts


def _said(obj: bpy.types.Object, has_physics: bool, dynamic: bool, owner: ImportedPart | None) -> str:
    what = f"its physics is on the ragdoll part {obj.name!r}" if has_physics else \
        f"a joint's connected frame, on the empty {obj.name!r}"
    if owner is not None:
        return f"{what}, under the part {owner.obj.name!r} of the body it belongs to"
    return f"{what} (" + ("the bone follows it in the simulation)" if dynamic else "it moves with the animated bone)")


def _depth(index: int, parents: dict[int, int]) -> int:
    depth = 0
    while index in parents and depth <= len(parents):
        index, depth = parents[index], depth + 1
    return depth


def _owner_part(index: int, parents: dict[int, int], parts: dict[int, ImportedPart],
                doc: model.PhysicsDocument) -> ImportedPart | None:
    """The part of the nearest body above a node without motion, when that body is a bone part."""
    if index in doc.nodes and doc.nodes[index].motion is not None:
        return None
    current, steps = parents.get(index), 0
    while current is not None and steps <= len(parents):
        physics = doc.nodes.get(current)
        if physics is not None and physics.motion is not None:
            return parts.get(current)
        current, steps = parents.get(current), steps + 1
    return None


def _adopt_children(parts: list[ImportedPart], worlds: dict[bpy.types.Object, Matrix]) -> None:
    """Physics objects the importer hung on a part's bone (a compound's colliders, joint frames) go under the
    part, where the file puts them (`worlds`)."""
    by_bone = {(part.armature, part.bone): part.obj for part in parts if part.obj.type == 'MESH'}
    for obj, world in worlds.items():
        parent = obj.parent
        if parent is not None and obj.parent_type == 'BONE':
            part = by_bone.get((parent, obj.parent_bone))
            if part is not None:
                obj.parent = part
                obj.parent_type = 'OBJECT'
                obj.parent_bone = part[markers.BONE_PART]  # unused by Blender here; the exporter's way to the bone
                obj.matrix_parent_inverse = Matrix.Identity(4)
                obj.matrix_basis = part.matrix_world.inverted_safe() @ world


def tie_parts(parts: list[ImportedPart]) -> None:
    """After the rigid-body build: bones follow their dynamic parts; other parts ride on their bones."""
    for part in parts:
        if part.obj.parent is not None:
            continue  # part of a body above it
        if part.dynamic:
            rig.follow_part(part.armature, part.bone, part.obj)
        else:
            rig.ride_bone(part.obj, part.armature, part.bone)
            if part.obj.rigid_body is not None:
                part.obj.rigid_body.kinematic = True  # Blender moves an 'Animated' body with its parent bone
