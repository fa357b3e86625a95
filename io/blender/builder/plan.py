"""Which bodies a rigid-body build makes, read from the objects' physics (model values, `inputs`), and
where their shapes sit.

A body is an object with `motion`, or a collider with no body above it (a static body of its own); its
shapes are its own collider and those of its descendants up to the next body.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TypeAlias, cast

import bpy
from mathutils import Matrix, Vector

from ...omi import model
from ..tables import axes
from ..tables.markers import GENERATED, is_shape_mesh, made_for
from .inputs import ObjectPhysics, Parts, Switches
from .shapes import MESH_TYPES, PRIMITIVE_TYPES, TOLERANCE, ShapeMeshes, bounds_match

PartsOf = Callable[[bpy.types.Object], Parts]


@dataclass
class PlannedShape:
    """One collider shape of a body, with the object that holds it."""

    carrier: bpy.types.Object
    shape: model.Shape  # glTF axes; a convex/trimesh mesh is the object holding it
    offset: Matrix | None  # the shape's place on the carrier (Blender axes); None: its origin
    material: model.PhysicsMaterial | None
    filter: model.CollisionFilter | None

    @property
    def own_mesh(self) -> bool:
        """A convex/trimesh shape made from its carrier's own mesh."""
        return self.shape.mesh is self.carrier


@dataclass
class PlannedBody:
    owner: bpy.types.Object
    motion: str  # STATIC, KINEMATIC or DYNAMIC
    motion_values: model.Motion | None = None  # the owner's motion when it has one
    shapes: list[PlannedShape] = field(default_factory=list)
    compound: bool = False
    carriers: list[tuple[PlannedShape, bpy.types.Object, bool]] = field(default_factory=list)  # (shape, object, made)
    rigid: bpy.types.Object | None = None  # the object with the Blender rigid body: the owner, or its proxy
    center_built: bool = False  # its proxy's origin is the file's centre of mass


def center_of_mass(body: PlannedBody) -> Vector | None:
    """A dynamic body's centre of mass off its origin (Blender axes, the object's own), or None."""
    motion = body.motion_values
    if body.motion != 'DYNAMIC' or motion is None or motion.center_of_mass is None \
            or not any(motion.center_of_mass) or not body.shapes:
        return None
    return Vector(axes.vec_to_blender(motion.center_of_mass))


def motion_owner(obj: bpy.types.Object | None, parts: PartsOf) -> bpy.types.Object | None:
    """The nearest object from `obj` up whose physics has motion (`parts`: how an object's parts are read)."""
    while obj is not None and not parts(obj).motion:
        obj = obj.parent
    return obj


def rigid_body_owner(obj: bpy.types.Object | None, parts: PartsOf) -> bpy.types.Object | None:
    """The object that carries the Blender rigid body of the body `obj` belongs to (None: no body)."""
    owner = motion_owner(obj, parts)
    if owner is not None:
        return owner
    while obj is not None:
        if parts(obj).shaped:
            return obj
        obj = obj.parent
    return None


def rigid_object(body: bpy.types.Object | None) -> bpy.types.Object | None:
    """The object with the Blender rigid body of a body object: itself, or the mesh generated for it."""
    if body is None or body.rigid_body is not None:
        return body
    for made in made_for(body):
        if made.get(GENERATED) == "body" and made.rigid_body is not None:
            return made
    return None


def shape_carrier(obj: bpy.types.Object, parts: PartsOf) -> bpy.types.Object | None:
    """The object whose Blender rigid body shape stands for `obj`'s collider shape (None: none does).

    That is `obj` itself, the generated object made for its shape, or the body (or the mesh generated
    for it) whose own rigid body took the shape of its only collider.
    """
    made = [other for other in made_for(obj) if other.rigid_body is not None]
    for other in made:
        if other.get(GENERATED) != "body":
            return other
    rigid = obj.rigid_body
    if rigid is not None and rigid.collision_shape != 'COMPOUND':
        return obj
    body = rigid_object(rigid_body_owner(obj, parts))
    if body is not None and body.rigid_body is not None and body.rigid_body.collision_shape != 'COMPOUND':
        return body
    return None


def children_map() -> dict[bpy.types.Object, list[bpy.types.Object]]:
    """Parent -> children (Object.children walks all of bpy.data each time)."""
    children: dict[bpy.types.Object, list[bpy.types.Object]] = {}
    for obj in bpy.data.objects:  # not bl_scene.objects: that would rebuild the scene's object cache first
        if obj.parent is not None:
            children.setdefault(obj.parent, []).append(obj)
    return children


def _shape_of(obj: bpy.types.Object, found: ObjectPhysics | None) -> PlannedShape:
    collider = None if found is None else found.physics.collider
    assert found is not None and collider is not None and collider.shape is not None  # asked of shaped ones only
    return PlannedShape(obj, collider.shape, found.collider_offset, collider.physics_material,
                        collider.collision_filter)


def plan_bodies(objects: Iterable[bpy.types.Object], children: dict[bpy.types.Object, list[bpy.types.Object]],
                switches: Switches) -> dict[bpy.types.Object, PlannedBody]:
    """Every body the objects take part in, each with all of its collider shapes."""
    owners: dict[bpy.types.Object, model.Motion | None] = {}  # body owner -> its motion (None: a static collider)
    for obj in objects:
        moves, collider, shaped, _trigger, _joint = switches(obj)
        if moves or collider:
            owner = obj if moves else motion_owner(obj, switches)
            if owner is not None:
                if owner not in owners:
                    found = switches.physics(owner)
                    owners[owner] = None if found is None else found.physics.motion
            elif shaped:
                owners[obj] = None
    bodies: dict[bpy.types.Object, PlannedBody] = {}
    for owner, motion in owners.items():
        body = PlannedBody(owner, 'STATIC' if motion is None else motion.type.upper(), motion)
        bodies[owner] = body
        if motion is None:
            body.shapes.append(_shape_of(owner, switches.physics(owner)))
            continue
        pending = [owner]
        while pending:
            obj = pending.pop()
            if switches(obj).shaped:
                body.shapes.append(_shape_of(obj, switches.physics(obj)))
            below = children.get(obj)
            if below:
                pending.extend(child for child in below if not switches(child).motion)
    return bodies


Bounds: TypeAlias = dict[tuple[bpy.types.Mesh, int], tuple[model.Shape, bool]]  # see `fits_shape`


def fits_shape(obj: bpy.types.Object, shape: PlannedShape, bounds: Bounds, shape_mesh: bool | None = None) -> bool:
    """Whether the object's own mesh, as Blender reads it, is exactly the shape (`bounds`: the answers for
    meshes already measured, which many objects share, by mesh and shape object: hashing a shape's values
    costs more than measuring is saved; `shape_mesh`: `is_shape_mesh(obj)` when the caller knows it)."""
    if obj.type != 'MESH' or obj is not shape.carrier or shape.offset is not None:
        return False
    if shape.shape.type in MESH_TYPES:
        return shape.own_mesh
    if is_shape_mesh(obj) if shape_mesh is None else shape_mesh:
        return True
    mesh = cast("bpy.types.Mesh", obj.data)  # a MESH's data
    key = (mesh, id(shape.shape))
    found = bounds.get(key)
    if found is None:
        found = bounds[key] = (shape.shape, bounds_match(mesh, shape.shape))  # the shape kept: its id stays its own
    return found[1]


# --- matrices ----------------------------------------------------------------------------------------


class Frames:
    """World matrices from the objects' own transforms, without waiting for a depsgraph evaluation."""

    def __init__(self) -> None:
        self._world: dict[bpy.types.Object, Matrix] = {}

    def world(self, obj: bpy.types.Object) -> Matrix:
        found = self._world.get(obj)
        if found is not None:
            return found
        chain = [obj]  # up to the first ancestor already known (a loop, not recursion: chains may be deep)
        while (parent := chain[-1].parent) is not None and chain[-1].parent_type == 'OBJECT' \
                and parent not in self._world:
            chain.append(parent)
        for item in reversed(chain):
            if item.parent is None:
                found = item.matrix_basis.copy()
            elif item.parent_type == 'OBJECT':
                found = self._world[item.parent] @ item.matrix_parent_inverse @ item.matrix_basis
            else:  # bone parents and the like: trust the last evaluation
                found = item.matrix_world.copy()
            self._world[item] = found
        return self._world[obj]

    def relative(self, obj: bpy.types.Object, base: bpy.types.Object) -> Matrix:
        """`obj` in `base`'s frame; exact (no inversion) when `base` is an ancestor."""
        local = Matrix.Identity(4)
        current: bpy.types.Object | None = obj
        while current is not None and current is not base and current.parent_type == 'OBJECT':
            local = current.matrix_parent_inverse @ current.matrix_basis @ local
            current = current.parent
        if current is base:
            return local
        return self.world(base).inverted_safe() @ self.world(obj)



_IDENTITY = Matrix.Identity(4)


def is_identity(matrix: Matrix) -> bool:
    if matrix == _IDENTITY:
        return True
    return all(abs(matrix[i][j] - (1.0 if i == j else 0.0)) <= TOLERANCE for i in range(4) for j in range(4))


def unit_scale(matrix: Matrix) -> bool:
    return all(abs(s - 1.0) <= TOLERANCE for s in matrix.to_scale().to_tuple())


def placement(shape: PlannedShape, frames: Frames) -> Matrix:
    """Where the shape sits in world space (a collision mesh object sits where it is)."""
    mesh_object = shape.shape.mesh
    if shape.shape.type in MESH_TYPES and mesh_object is not None and mesh_object is not shape.carrier:
        return frames.world(mesh_object)
    world = frames.world(shape.carrier)
    return world if shape.offset is None else world @ shape.offset


# --- shape meshes (see `shapes`) ----------------------------------------------------------------------


def source_mesh(shape: PlannedShape) -> bpy.types.Mesh | None:
    """The mesh data a convex/trimesh shape is made from."""
    source = shape.shape.mesh
    if source is None or source.type != 'MESH':
        return None
    return source.data


def refresh_shape_meshes(shapes: Iterable[tuple[bpy.types.Object, model.Shape | None]]) -> None:
    """Give shape-mesh objects the exact mesh of their own primitive collider shape (a vertex-less one without).

    Objects holding a convex/trimesh shape's mesh keep it.
    """
    cache = ShapeMeshes(GENERATED)
    for obj, shape in shapes:
        if not is_shape_mesh(obj):
            continue
        if shape is not None and shape.type in PRIMITIVE_TYPES:
            obj.data = cache.shape(shape)
        elif shape is None or shape.type not in MESH_TYPES:
            obj.data = cache.body()
