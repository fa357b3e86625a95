"""Which bodies a rigid-body build makes, read from the objects' OMI settings, and where their shapes sit.

A body is an object with `motion`, or a collider with no body above it (a static body of its own); its
shapes are its own collider and those of its descendants up to the next body.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol

import bpy
from mathutils import Matrix, Quaternion, Vector

from ...omi import model
from ..tables.markers import GENERATED, is_shape_mesh, made_for
from .shapes import MESH_TYPES, PRIMITIVE_TYPES, TOLERANCE, ShapeMeshes


class SettingsSource(Protocol):
    """Model values the build needs from the settings layer: the scene library's entries by name (None:
    no such entry) and a joint object's limits and drives (glTF axes, as the export writes them)."""

    def material(self, name: str) -> model.PhysicsMaterial | None: ...

    def collision_filter(self, name: str) -> model.CollisionFilter | None: ...

    def joint_settings(self, obj: bpy.types.Object) -> model.JointSettings: ...


@dataclass
class PlannedShape:
    """One collider shape of a body, with the object whose settings hold it."""

    carrier: bpy.types.Object
    pg: Any  # the shape's settings group (OMIShapeSettings: a layer above, so not named here)
    material: str
    filter: str


@dataclass
class PlannedBody:
    owner: bpy.types.Object
    motion: str  # STATIC, KINEMATIC or DYNAMIC
    motion_pg: Any = None  # the owner's motion settings group (OMIMotionSettings) when it has motion
    shapes: list[PlannedShape] = field(default_factory=list)
    compound: bool = False
    carriers: list[tuple[PlannedShape, bpy.types.Object, bool]] = field(default_factory=list)  # (shape, object, made)
    rigid: bpy.types.Object | None = None  # the object with the Blender rigid body: the owner, or its proxy


def settings_of(obj: bpy.types.Object):
    return getattr(obj, "omi_physics", None)


class Parts(NamedTuple):
    """Which parts an object's settings enable."""

    motion: bool
    collider: bool
    shaped: bool  # a collider with a shape of its own
    trigger: bool
    joint: bool


_NO_PARTS = Parts(False, False, False, False, False)


def parts_of(obj: bpy.types.Object) -> Parts:
    settings = settings_of(obj)
    if settings is None:
        return _NO_PARTS
    collider = bool(settings.use_collider)
    return Parts(bool(settings.use_motion), collider, collider and not settings.collider.is_compound,
                 bool(settings.use_trigger), bool(settings.use_joint))


def has_shape_collider(obj: bpy.types.Object) -> bool:
    return parts_of(obj).shaped


def motion_owner(obj: bpy.types.Object | None,
                 parts: Callable[[bpy.types.Object], Parts] = parts_of) -> bpy.types.Object | None:
    """The nearest object from `obj` up whose settings have motion (`parts`: how settings are read)."""
    while obj is not None and not parts(obj).motion:
        obj = obj.parent
    return obj


def rigid_body_owner(obj: bpy.types.Object) -> bpy.types.Object | None:
    """The object that carries the Blender rigid body of the body `obj` belongs to (None: no body)."""
    owner = motion_owner(obj)
    if owner is not None:
        return owner
    while obj is not None:
        if has_shape_collider(obj):
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


def shape_carrier(obj: bpy.types.Object) -> bpy.types.Object | None:
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
    body = rigid_object(rigid_body_owner(obj))
    if body is not None and body.rigid_body.collision_shape != 'COMPOUND':
        return body
    return None



def children_map() -> dict[bpy.types.Object, list[bpy.types.Object]]:
    """Parent -> children (Object.children walks all of bpy.data each time)."""
    children: dict[bpy.types.Object, list[bpy.types.Object]] = {}
    for obj in bpy.data.objects:  # not bl_scene.objects: that would rebuild the scene's object cache first
        if obj.parent is not None:
            children.setdefault(obj.parent, []).append(obj)
    return children


def _shape_of(obj: bpy.types.Object) -> PlannedShape:
    collider = settings_of(obj).collider
    return PlannedShape(obj, collider.shape, collider.physics_material, collider.collision_filter)


class Switches:
    """Each object's `Parts`, read once per build (every settings read makes RNA wrappers)."""

    def __init__(self) -> None:
        self._found: dict[bpy.types.Object, Parts] = {}

    def __call__(self, obj: bpy.types.Object) -> Parts:
        found = self._found.get(obj)
        if found is None:
            found = self._found[obj] = parts_of(obj)
        return found

    def motion_owner(self, obj: bpy.types.Object | None) -> bpy.types.Object | None:
        return motion_owner(obj, self)


def plan_bodies(objects: Iterable[bpy.types.Object], children,
                switches: Switches | None = None) -> dict[bpy.types.Object, PlannedBody]:
    """Every body the objects take part in, each with all of its collider shapes."""
    switches = switches if switches is not None else Switches()
    owners: dict[bpy.types.Object, Any] = {}  # body owner -> its motion group (None: a static collider body)
    for obj in objects:
        motion, collider, shaped, _trigger, _joint = switches(obj)
        if motion or collider:
            owner = switches.motion_owner(obj)
            if owner is not None:
                if owner not in owners:
                    owners[owner] = settings_of(owner).motion
            elif shaped:
                owners[obj] = None
    bodies: dict[bpy.types.Object, PlannedBody] = {}
    for owner, motion_pg in owners.items():
        body = PlannedBody(owner, 'STATIC' if motion_pg is None else motion_pg.motion_type, motion_pg)
        bodies[owner] = body
        if motion_pg is None:
            body.shapes.append(_shape_of(owner))
            continue
        pending = [owner]
        while pending:
            obj = pending.pop()
            if switches(obj).shaped:
                body.shapes.append(_shape_of(obj))
            pending.extend(child for child in children.get(obj, ()) if not switches(child).motion)
    return bodies



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
        return found

    def relative(self, obj: bpy.types.Object, base: bpy.types.Object) -> Matrix:
        """`obj` in `base`'s frame; exact (no inversion) when `base` is an ancestor."""
        local = Matrix.Identity(4)
        current = obj
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
    return all(abs(s - 1.0) <= TOLERANCE for s in matrix.to_scale())


def _shape_offset(pg) -> Matrix:
    if not pg.use_offset:
        return Matrix.Identity(4)
    return Matrix.LocRotScale(Vector(pg.offset_location), Quaternion(pg.offset_rotation.to_quaternion()), None)


def placement(shape: PlannedShape, frames: Frames) -> Matrix:
    """Where the shape sits in world space (a collision mesh object sits where it is)."""
    pg = shape.pg
    if pg.shape_type in MESH_TYPES and pg.mesh_source == 'OBJECT' and pg.mesh_object is not None:
        return frames.world(pg.mesh_object)
    return frames.world(shape.carrier) @ _shape_offset(pg)


# --- shape meshes (see rigid_body_shapes) -------------------------------------------------------------


def source_mesh(shape: PlannedShape) -> bpy.types.Mesh | None:
    """The mesh data a convex/trimesh shape is made from."""
    pg = shape.pg
    source = shape.carrier if pg.mesh_source == 'SELF' else pg.mesh_object
    if source is None or source.type != 'MESH':
        return None
    return source.data


def refresh_shape_meshes(objects: Iterable[bpy.types.Object]) -> None:
    """Give shape-mesh objects the exact mesh of their own primitive collider (a vertex-less one without).

    Objects holding a convex/trimesh shape's mesh keep it.
    """
    cache = ShapeMeshes(GENERATED)
    for obj in objects:
        if not is_shape_mesh(obj):
            continue
        settings = settings_of(obj)
        shape = settings.collider.shape if has_shape_collider(obj) else None
        if shape is not None and shape.shape_type in PRIMITIVE_TYPES:
            obj.data = cache.shape(shape)
        elif shape is None or shape.shape_type not in MESH_TYPES:
            obj.data = cache.body()


