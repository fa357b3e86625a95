"""OMI settings -> Blender rigid bodies and rigid body constraints: one translation for import and sync.

`build_rigid_bodies` reads the objects' OMI settings only, so the glTF import and the "settings ->
Blender rigid bodies" operator give the same result; `clear_rigid_bodies` undoes it.

How OMI meets Blender (Bullet):
- A body is an object with `motion` (dynamic -> ACTIVE, kinematic -> ACTIVE + Animated, static ->
  PASSIVE); a collider without a body above it is a PASSIVE body of its own. The body's own object
  carries the Blender rigid body, so the simulation moves the objects the file describes; Blender
  needs it to be a mesh object (the importer turns empty physics nodes into mesh objects).
- Blender derives primitive shapes from the mesh bounds and centres them on the object. A body whose
  only collider is its own object, with a mesh of the collider's exact bounds (or the convex/trimesh
  source), uses it directly. Otherwise the body is a COMPOUND: its direct children with a fitting
  mesh carry their shapes, and generated mesh objects (wire, not rendered) carry the others at the
  collider's place. Blender ignores a compound child's scale, so scaled shapes are baked.
- Colliders on indirect descendants belong to the nearest body above them; a nested body is separate.
- Triggers get no Blender rigid body: Blender has no overlap-only body, and any rigid body in its
  world takes part in contacts, so leaving them out is the only way they never push anything.
- Joints become constraint objects (generated empties, parented to the joint's body) at the joint's
  frame in `rigidbody_world.constraints`; see `rigid_body_joints` for the limit mapping.
- What Blender cannot express stays in the settings and is named once in a warning.

Markers (ID properties, so export and clear can tell what was made here):
- GENERATED on objects and meshes made here: never exported, deleted and remade at will;
- SHAPE_MESH on an object whose mesh data stands for its physics shape rather than visible geometry
  (the importer turns an empty collider node into such a mesh object): export writes no mesh for it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

import bpy
from mathutils import Matrix, Quaternion, Vector

from ...properties import library
from ..omi import model
from . import rigid_body_filters, rigid_body_joints
from .bullet import BULLET_COMBINE
from .rigid_body_shapes import (
    MESH_TYPES,
    PRIMITIVE_TYPES,
    TOLERANCE,
    ShapeMeshes,
    bounds_match,
    collision_shape,
    is_tapered,
    still_primitive,
)

GENERATED = "omi_generated"
SHAPE_MESH = "omi_shape_mesh"
OWNER = "omi_owner"
FOLLOW = "OMI rigid body"  # the Child Of constraint between a non-mesh body and its generated rigid body
GENERATED_COLLECTION = "OMI Rigid Bodies"
WORLD_COLLECTION = "RigidBodyWorld"
CONSTRAINTS_COLLECTION = "RigidBodyConstraints"

_AXIS_IDS = ('X', 'Y', 'Z')
# Turns that put the constraint's working axis ('Z' for hinges, 'X' for the others) on a joint axis.
_ALIGN = {
    ('Z', 0): Quaternion((0.0, 1.0, 0.0), math.pi / 2), ('Z', 1): Quaternion((1.0, 0.0, 0.0), -math.pi / 2),
    ('Z', 2): Quaternion(), ('X', 0): Quaternion(), ('X', 1): Quaternion((0.0, 0.0, 1.0), math.pi / 2),
    ('X', 2): Quaternion((0.0, 1.0, 0.0), -math.pi / 2),
}

# Names of what Blender rigid bodies cannot express, for the one "kept in the settings" warning.
LINEAR_VELOCITY = "initial linear velocity"
ANGULAR_VELOCITY = "initial angular velocity"
GRAVITY_FACTOR = "gravity factor"
CENTER_OF_MASS = "center of mass offset"
INERTIA = "inertia"
FRICTION_COMBINE = f"friction combine modes other than {BULLET_COMBINE!r} (Bullet multiplies the two bodies' friction)"
RESTITUTION_COMBINE = (f"restitution combine modes other than {BULLET_COMBINE!r} (Bullet multiplies the two "
                       "bodies' restitution)")
STATIC_FRICTION = "static friction (Blender has one friction: the dynamic one is used)"
TRIGGERS = "triggers (no Blender rigid body: they must not collide)"
MIXED_SURFACES = "different physics materials or collision filters within one body (the first is used)"
TAPERED = "tapered capsules and cylinders (convex hulls)"
BAKED_SCALE = "non-uniformly scaled shapes inside a body (convex hulls)"


# --- markers -----------------------------------------------------------------------------------------


def is_generated(id_data: bpy.types.ID) -> bool:
    """True for objects and meshes made by this module: export skips them, clear deletes them."""
    return GENERATED in id_data


def is_shape_mesh(obj: bpy.types.Object) -> bool:
    """True when the object's mesh stands for its physics shape: not exported as visible geometry."""
    return obj.type == 'MESH' and bool(obj.get(SHAPE_MESH))


def mark_shape_mesh(obj: bpy.types.Object) -> None:
    """Declare the object's mesh a physics shape display: wire, not rendered, never exported as geometry."""
    obj[SHAPE_MESH] = True
    obj.display_type = 'WIRE'
    _hide_from_render(obj)


def _hide_from_render(obj: bpy.types.Object) -> None:
    # Ray visibility rather than hide_render: hide_render resyncs every collection on each change.
    obj.visible_camera = False
    obj.visible_shadow = False
    obj.visible_diffuse = False
    obj.visible_glossy = False
    obj.visible_transmission = False
    obj.visible_volume_scatter = False


# --- the world ---------------------------------------------------------------------------------------


def ensure_world(bl_scene: bpy.types.Scene) -> bpy.types.RigidBodyWorld:
    """The scene's rigid body world with its body and constraint collections, created when missing.

    Creating the world has no data API; the operator is cheap while the scene is small, so the importer
    calls this before it creates the file's objects.
    """
    if bl_scene.rigidbody_world is None:
        with bpy.context.temp_override(scene=bl_scene):
            bpy.ops.rigidbody.world_add()
    world = bl_scene.rigidbody_world
    if world.collection is None:
        world.collection = bpy.data.collections.new(WORLD_COLLECTION)
    if world.constraints is None:
        world.constraints = bpy.data.collections.new(CONSTRAINTS_COLLECTION)
    return world


def _generated_collection(bl_scene: bpy.types.Scene) -> bpy.types.Collection:
    """The scene's collection of generated objects (not rendered), created when missing."""
    for child in bl_scene.collection.children:
        if is_generated(child):
            return child
    collection = bpy.data.collections.new(GENERATED_COLLECTION)
    collection[GENERATED] = True
    collection.hide_render = True
    bl_scene.collection.children.link(collection)
    return collection


# --- reading the settings ----------------------------------------------------------------------------


@dataclass
class _Shape:
    """One collider shape of a body, with the object whose settings hold it."""

    carrier: bpy.types.Object
    pg: object  # OMIShapeSettings
    material: str
    filter: str


@dataclass
class _Body:
    owner: bpy.types.Object
    motion: str  # STATIC, KINEMATIC or DYNAMIC
    shapes: list[_Shape] = field(default_factory=list)
    compound: bool = False
    carriers: list[tuple[_Shape, bpy.types.Object, bool]] = field(default_factory=list)  # (shape, object, made)
    rigid: bpy.types.Object | None = None  # the object with the Blender rigid body: the owner, or its proxy


def _settings(obj: bpy.types.Object):
    return getattr(obj, "omi_physics", None)


def _has_shape_collider(obj: bpy.types.Object) -> bool:
    settings = _settings(obj)
    return bool(settings and settings.use_collider and not settings.collider.is_compound)


def _motion_owner(obj: bpy.types.Object | None) -> bpy.types.Object | None:
    while obj is not None:
        settings = _settings(obj)
        if settings is not None and settings.use_motion:
            return obj
        obj = obj.parent
    return None


def body_object(obj: bpy.types.Object) -> bpy.types.Object | None:
    """The object that carries the Blender rigid body of the body `obj` belongs to (None: no body)."""
    owner = _motion_owner(obj)
    if owner is not None:
        return owner
    while obj is not None:
        if _has_shape_collider(obj):
            return obj
        obj = obj.parent
    return None


def _made_for(obj: bpy.types.Object) -> list[bpy.types.Object]:
    scene_objects = obj.users_scene[0].objects if obj.users_scene else ()
    return [made for made in scene_objects if is_generated(made) and made.get(OWNER) == obj]


def rigid_object(body: bpy.types.Object | None) -> bpy.types.Object | None:
    """The object with the Blender rigid body of a body object: itself, or the mesh generated for it."""
    if body is None or body.rigid_body is not None:
        return body
    for made in _made_for(body):
        if made.get(GENERATED) == "body" and made.rigid_body is not None:
            return made
    return None


def shape_carrier(obj: bpy.types.Object) -> bpy.types.Object | None:
    """The object whose Blender rigid body shape stands for `obj`'s collider shape (None: none does).

    That is `obj` itself, the generated object made for its shape, or the body (or the mesh generated
    for it) whose own rigid body took the shape of its only collider.
    """
    made = [other for other in _made_for(obj) if other.rigid_body is not None]
    for other in made:
        if other.get(GENERATED) != "body":
            return other
    rigid = obj.rigid_body
    if rigid is not None and rigid.collision_shape != 'COMPOUND':
        return obj
    body = rigid_object(body_object(obj))
    if body is not None and body.rigid_body.collision_shape != 'COMPOUND':
        return body
    return None


def _children_map(bl_scene: bpy.types.Scene) -> dict[bpy.types.Object, list[bpy.types.Object]]:
    """Parent -> children for the scene (Object.children walks all of bpy.data each time)."""
    children: dict[bpy.types.Object, list[bpy.types.Object]] = {}
    for obj in bpy.data.objects:  # not bl_scene.objects: that would rebuild the scene's object cache first
        if obj.parent is not None:
            children.setdefault(obj.parent, []).append(obj)
    return children


def _shape_of(obj: bpy.types.Object) -> _Shape:
    collider = _settings(obj).collider
    return _Shape(obj, collider.shape, collider.physics_material, collider.collision_filter)


def _plan_bodies(objects: Iterable[bpy.types.Object], children) -> dict[bpy.types.Object, _Body]:
    """Every body the objects take part in, each with all of its collider shapes."""
    owners: dict[bpy.types.Object, str] = {}
    for obj in objects:
        settings = _settings(obj)
        if settings is None:
            continue
        if settings.use_motion or settings.use_collider:
            owner = _motion_owner(obj)
            if owner is not None:
                owners[owner] = _settings(owner).motion.motion_type
            elif _has_shape_collider(obj):
                owners[obj] = 'STATIC'
    bodies: dict[bpy.types.Object, _Body] = {}
    for owner, motion in owners.items():
        body = _Body(owner, motion)
        bodies[owner] = body
        if not _settings(owner).use_motion:
            body.shapes.append(_shape_of(owner))
            continue
        pending = [owner]
        while pending:
            obj = pending.pop()
            if _has_shape_collider(obj):
                body.shapes.append(_shape_of(obj))
            pending.extend(child for child in children.get(obj, ()) if not _settings(child).use_motion)
    return bodies


# --- matrices ----------------------------------------------------------------------------------------


class _Frames:
    """World matrices from the objects' own transforms, without waiting for a depsgraph evaluation."""

    def __init__(self) -> None:
        self._world: dict[bpy.types.Object, Matrix] = {}

    def world(self, obj: bpy.types.Object) -> Matrix:
        found = self._world.get(obj)
        if found is None:
            if obj.parent is None:
                found = obj.matrix_basis.copy()
            elif obj.parent_type == 'OBJECT':
                found = self.world(obj.parent) @ obj.matrix_parent_inverse @ obj.matrix_basis
            else:  # bone parents and the like: trust the last evaluation
                found = obj.matrix_world.copy()
            self._world[obj] = found
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
_NO_COLLECTIONS = (False,) * rigid_body_filters.COLLECTION_COUNT


def _is_identity(matrix: Matrix) -> bool:
    if matrix == _IDENTITY:
        return True
    return all(abs(matrix[i][j] - (1.0 if i == j else 0.0)) <= TOLERANCE for i in range(4) for j in range(4))


def _unit_scale(matrix: Matrix) -> bool:
    return all(abs(s - 1.0) <= TOLERANCE for s in matrix.to_scale())


def _shape_offset(pg) -> Matrix:
    if not pg.use_offset:
        return Matrix.Identity(4)
    return Matrix.LocRotScale(Vector(pg.offset_location), Quaternion(pg.offset_rotation.to_quaternion()), None)


def _placement(shape: _Shape, frames: _Frames) -> Matrix:
    """Where the shape sits in world space (a collision mesh object sits where it is)."""
    pg = shape.pg
    if pg.shape_type in MESH_TYPES and pg.mesh_source == 'OBJECT' and pg.mesh_object is not None:
        return frames.world(pg.mesh_object)
    return frames.world(shape.carrier) @ _shape_offset(pg)


# --- shape meshes (see rigid_body_shapes) -------------------------------------------------------------


def _source_mesh(shape: _Shape) -> bpy.types.Mesh | None:
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
        settings = _settings(obj)
        shape = settings.collider.shape if _has_shape_collider(obj) else None
        if shape is not None and shape.shape_type in PRIMITIVE_TYPES:
            obj.data = cache.shape(shape)
        elif shape is None or shape.shape_type not in MESH_TYPES:
            obj.data = cache.body()


# --- the build ---------------------------------------------------------------------------------------


class _Report:
    """Issues for the caller, with what Blender cannot express gathered into one warning."""

    def __init__(self, issues: list[model.Issue] | None) -> None:
        self.issues = issues if issues is not None else []
        self.unsupported: dict[str, dict[str, None]] = {}  # feature -> object names, in order

    def warn(self, obj: bpy.types.Object, pointer: str, message: str) -> None:
        self.issues.append(model.Issue(pointer, f"object {obj.name!r}: {message}"))

    def cannot(self, feature: str, obj: bpy.types.Object) -> None:
        self.unsupported.setdefault(feature, {})[obj.name] = None

    def finish(self) -> None:
        if not self.unsupported:
            return
        parts = []
        for feature, found in self.unsupported.items():
            names = list(found)
            shown = ", ".join(repr(name) for name in names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5
                                                                  else "")
            parts.append(f"{feature} ({shown})")
        self.issues.append(model.Issue("", "Blender rigid bodies cannot express " + "; ".join(parts)
                                       + ": kept in the OMI settings and exported unchanged"))


def _note_motion(body: _Body, report: _Report) -> None:
    settings = _settings(body.owner)
    if not settings.use_motion:
        return
    motion = settings.motion
    zero = (0.0, 0.0, 0.0)
    checks = (
        (LINEAR_VELOCITY, tuple(motion.linear_velocity) != zero),
        (ANGULAR_VELOCITY, tuple(motion.angular_velocity) != zero),
        (GRAVITY_FACTOR, not math.isclose(motion.gravity_factor, 1.0, abs_tol=1e-6)),
        (CENTER_OF_MASS, tuple(motion.center_of_mass) != zero),
        (INERTIA, tuple(motion.inertia_diagonal) != zero or abs(abs(motion.inertia_orientation[0]) - 1.0) > 1e-6),
    )
    for feature, used in checks:
        if used:
            report.cannot(feature, body.owner)


def _fits(obj: bpy.types.Object, shape: _Shape) -> bool:
    """Whether the object's own mesh, as Blender reads it, is exactly the shape."""
    pg = shape.pg
    if obj.type != 'MESH' or obj is not shape.carrier or pg.use_offset:
        return False
    if pg.shape_type in MESH_TYPES:
        return pg.mesh_source == 'SELF' or pg.mesh_object is obj
    return is_shape_mesh(obj) or bounds_match(obj.data, pg)


class _Builder:
    def __init__(self, bl_scene: bpy.types.Scene, report: _Report) -> None:
        self.scene = bl_scene
        self.report = report
        self.frames = _Frames()
        self.meshes = ShapeMeshes(GENERATED)
        self.world = ensure_world(bl_scene)
        self.generated = _generated_collection(bl_scene)
        self.built_before = set(self.world.collection.objects)  # rigid bodies this build leaves alone
        self.linked: set[bpy.types.Object] = set(self.built_before)

    # -- first: decide, assign meshes, create and link objects (linking makes rigid_body and rigid_body_constraint)

    def prepare_body(self, body: _Body, bodies: dict) -> None:
        owner = body.owner
        shapes = body.shapes
        rigid = body.rigid = owner if owner.type == 'MESH' else self._proxy(body)
        ours = rigid is not owner or is_shape_mesh(owner)  # its mesh data may be replaced
        if len(shapes) == 1 and ours and shapes[0].pg.shape_type in PRIMITIVE_TYPES and not shapes[0].pg.use_offset \
                and (shapes[0].carrier is owner or _is_identity(self.frames.relative(shapes[0].carrier, owner))):
            # One collider right on the body: the body's own display mesh becomes the shape.
            rigid.data = self.meshes.shape(shapes[0].pg)
            body.carriers.append((shapes[0], rigid, False))
            self._link_body(rigid)
            return
        if len(shapes) == 1 and rigid is owner and _fits(owner, shapes[0]):
            body.carriers.append((shapes[0], owner, False))
            self._link_body(owner)
            return
        body.compound = bool(shapes)
        if ours and not any(shape.carrier is rigid for shape in shapes):
            rigid.data = self.meshes.body()
        for shape in shapes:
            body.carriers.append(self._carrier(body, shape, bodies))
        self._link_body(rigid)

    def _proxy(self, body: _Body) -> bpy.types.Object:
        """A generated mesh object that carries the rigid body of a body whose object is not a mesh.

        It starts where the body is; a dynamic body then follows it, and it follows any other body, with
        a Child Of constraint on the follower.
        """
        owner = body.owner
        self.report.warn(owner, "", f"a {owner.type.lower()} cannot be a Blender rigid body: a generated mesh "
                                    f"object carries it, and a {FOLLOW!r} constraint keeps the two together")
        proxy = bpy.data.objects.new(f"{owner.name} rigid body", self.meshes.body())
        proxy[GENERATED] = "body"
        proxy[OWNER] = owner
        proxy.display_type = 'WIRE'
        start = self.frames.world(owner)
        proxy.matrix_basis = start
        self.generated.objects.link(proxy)
        follower, leader = (owner, proxy) if body.motion == 'DYNAMIC' else (proxy, owner)
        constraint = follower.constraints.new('CHILD_OF')
        constraint.name = FOLLOW
        constraint.target = leader
        constraint.inverse_matrix = start.inverted_safe()
        constraint.set_inverse_pending = False
        return proxy

    def _carrier(self, body: _Body, shape: _Shape, bodies: dict) -> tuple[_Shape, bpy.types.Object, bool]:
        carrier = shape.carrier
        direct = carrier.parent is body.rigid and carrier.parent_type == 'OBJECT'
        if direct and carrier not in bodies and _fits(carrier, shape) \
                and _unit_scale(carrier.matrix_parent_inverse @ carrier.matrix_basis):
            if is_shape_mesh(carrier) and shape.pg.shape_type in PRIMITIVE_TYPES:
                carrier.data = self.meshes.shape(shape.pg)
            self._link_body(carrier)
            return shape, carrier, False
        made = bpy.data.objects.new(f"{carrier.name} shape", self.meshes.body())
        made[GENERATED] = "shape"
        made[OWNER] = carrier
        made.parent = body.rigid
        made.display_type = 'WIRE'
        self.generated.objects.link(made)
        self._link_body(made)
        return shape, made, True

    def _link_body(self, obj: bpy.types.Object) -> None:
        """Into the world's collection: a mesh object gets its `rigid_body` right away (no depsgraph update)."""
        if obj not in self.linked:
            self.linked.add(obj)
            self.world.collection.objects.link(obj)

    def prepare_joint(self, obj: bpy.types.Object) -> list[tuple[bpy.types.Object, object]]:
        """Constraint objects for one joint object, each with what `finish_joint` needs."""
        joint = _settings(obj).joint
        other = joint.connected_object
        if other is None:
            self.report.warn(obj, "/joint/connected_object", "joint is connected to nothing: no Blender constraint")
            return []
        first, second = rigid_object(body_object(obj)), rigid_object(body_object(other))
        if first is None or second is None:
            lonely = obj if first is None else other
            self.report.warn(obj, "/joint", f"{lonely.name!r} is in no body: no Blender constraint")
            return []
        if first is second:
            self.report.warn(obj, "/joint", f"joins {first.name!r} to itself: no Blender constraint")
            return []
        frame = self.frames.world(obj)
        location, rotation, _scale = frame.decompose()
        other_location, other_rotation, _ = self.frames.world(other).decompose()
        rest_offset = tuple(rotation.inverted() @ (other_location - location))
        rest_rotated = rotation.rotation_difference(other_rotation).angle > 1e-3
        specs, notes = rigid_body_joints.plan_constraints(_limits(joint), _drives(joint), rest_offset, rest_rotated)
        for note in notes:
            self.report.cannot(note, obj)
        if not specs:
            self.report.warn(obj, "/joint", "joint limits and drives constrain nothing: no Blender constraint")
        made = []
        for index, spec in enumerate(specs):
            empty = bpy.data.objects.new(f"{obj.name} {spec.type.lower()}" + (f" {index}" if index else ""), None)
            empty[GENERATED] = "joint"
            empty[OWNER] = obj
            empty.empty_display_type = 'ARROWS'
            empty.empty_display_size = 0.25
            empty.parent = first
            align = _ALIGN[(spec.align, spec.axis)] if spec.align else Quaternion()
            world = Matrix.LocRotScale(location, rotation @ align, None)
            empty.matrix_basis = self.frames.world(first).inverted_safe() @ world
            self.generated.objects.link(empty)
            self.world.constraints.objects.link(empty)
            made.append((empty, (spec, first, second, joint.enable_collision)))
        return made

    # -- then: rigid body and constraint settings

    def finish_body(self, body: _Body, collections_of: dict[bpy.types.Object, tuple[bool, ...]]) -> None:
        owner = body.owner
        rigid = body.rigid.rigid_body if body.rigid is not None else None
        if rigid is None:
            return
        _note_motion(body, self.report)
        rigid.type = 'PASSIVE' if body.motion == 'STATIC' else 'ACTIVE'
        rigid.kinematic = body.motion == 'KINEMATIC'
        rigid.enabled = True
        if body.motion != 'STATIC':
            mass = _settings(owner).motion.mass
            if mass < 0.001:
                self.report.warn(owner, "/motion/mass", f"mass {mass:g} kg is below Blender's 0.001 kg: 0.001 used")
            rigid.mass = max(mass, 0.001)
        material = self._material(body)
        rigid.friction = model.DEFAULT_FRICTION if material is None else material.dynamic_friction
        rigid.restitution = model.DEFAULT_RESTITUTION if material is None else material.restitution
        collections = collections_of.get(owner, _NO_COLLECTIONS) if body.shapes else _NO_COLLECTIONS
        rigid.collision_collections = collections
        if not body.shapes:
            self.report.warn(owner, "/collider", "body has no collider shape: it collides with nothing")
            rigid.collision_shape = 'SPHERE'
            return
        if not body.compound:
            self._shape_settings(rigid, body.carriers[0][0], body.rigid is body.carriers[0][0].carrier)
            return
        rigid.collision_shape = 'COMPOUND'
        owner_world = self.frames.world(owner)
        for shape, carrier, made in body.carriers:
            if made:
                self._place(carrier, shape, owner_world)
            child = carrier.rigid_body
            if child is None:
                continue
            child.type = rigid.type
            child.collision_collections = collections
            self._shape_settings(child, shape, own_mesh=not made)

    def _place(self, made: bpy.types.Object, shape: _Shape, owner_world: Matrix) -> None:
        """Put a generated carrier at its shape's place; Blender ignores a compound child's scale, so bake it."""
        relative = owner_world.inverted_safe() @ _placement(shape, self.frames)
        location, rotation, scale = relative.decompose()
        made.matrix_basis = Matrix.LocRotScale(location, rotation, None)
        pg = shape.pg
        scale = (1.0, 1.0, 1.0) if _unit_scale(relative) else tuple(scale)
        if pg.shape_type in MESH_TYPES:
            source = _source_mesh(shape)
            if source is None:
                self.report.warn(shape.carrier, "/collider/shape", f"{pg.shape_type.lower()} shape has no mesh: "
                                                                   "shape skipped")
                made.data = self.meshes.body()
            else:
                made.data = source if scale == (1.0, 1.0, 1.0) else self.meshes.scaled_copy(source, scale)
            return
        made.data = self.meshes.shape(pg, scale)
        if not still_primitive(pg.shape_type, scale):
            made[GENERATED] = "shape hull"  # the baked mesh is no longer the primitive: use its hull
            self.report.cannot(BAKED_SCALE, shape.carrier)

    def _shape_settings(self, rigid: bpy.types.RigidBodyObject, shape: _Shape, own_mesh: bool) -> None:
        pg = shape.pg
        kind = collision_shape(pg)
        if rigid.id_data.get(GENERATED) == "shape hull":
            kind = 'CONVEX_HULL'
        if is_tapered(pg):
            self.report.cannot(TAPERED, shape.carrier)
        rigid.collision_shape = kind
        if kind in ('CONVEX_HULL', 'MESH'):
            # The settings' own mesh is written with modifiers applied; generated meshes have none.
            rigid.mesh_source = 'FINAL' if own_mesh and pg.mesh_source == 'SELF' else 'BASE'
        if kind == 'MESH':
            rigid.use_margin = True
            rigid.collision_margin = 0.0  # a triangle mesh's margin would thicken it

    def _material(self, body: _Body) -> model.PhysicsMaterial | None:
        """The body's physics material: Blender has one per body (the first name, when colliders differ)."""
        surfaces = {(shape.material, shape.filter) for shape in body.shapes}
        if len(surfaces) > 1:
            self.report.cannot(MIXED_SURFACES, body.owner)
        name = min((shape.material for shape in body.shapes), default="")
        entry = library.find_material(self.scene, name)
        if entry is None:
            if name:
                self.report.warn(body.owner, "/collider/physics_material",
                                 f"physics material {name!r} is not in the scene library: default used")
            return None
        material = library.material_to_model(entry)
        if material.friction_combine != BULLET_COMBINE:
            self.report.cannot(FRICTION_COMBINE, body.owner)
        if material.restitution_combine != BULLET_COMBINE:
            self.report.cannot(RESTITUTION_COMBINE, body.owner)
        if not math.isclose(material.static_friction, material.dynamic_friction, abs_tol=1e-6):
            self.report.cannot(STATIC_FRICTION, body.owner)
        return material

    def finish_joint(self, empty: bpy.types.Object, plan) -> None:
        spec, first, second, enable_collision = plan
        constraint = empty.rigid_body_constraint
        if constraint is None:
            return
        constraint.type = spec.type
        constraint.object1 = first
        constraint.object2 = second
        constraint.enabled = True
        constraint.disable_collisions = not enable_collision
        for name, value in spec.values.items():
            setattr(constraint, name, value)


def _limits(joint) -> list[rigid_body_joints.Limit]:
    found = []
    for limit in joint.limits:
        angular = limit.kind == 'ANGULAR'
        low = (limit.min_angular if angular else limit.min_linear) if limit.use_min else None
        high = (limit.max_angular if angular else limit.max_linear) if limit.use_max else None
        found.append(rigid_body_joints.Limit(angular, limit.axes, low, high,
                                             limit.stiffness if limit.use_stiffness else None, limit.damping))
    return found


def _drives(joint) -> list[rigid_body_joints.Drive]:
    found = []
    for drive in joint.drives:
        angular = drive.drive_type == 'ANGULAR'
        position = (drive.position_target_angular if angular else drive.position_target_linear) \
            if drive.use_position_target else None
        found.append(rigid_body_joints.Drive(
            angular, _AXIS_IDS.index(drive.axis), drive.mode == 'ACCELERATION',
            drive.max_force if drive.use_max_force else None, position,
            drive.velocity_target if drive.use_velocity_target else None, drive.stiffness, drive.damping))
    return found


def _collision_collections(bl_scene: bpy.types.Scene, bodies: dict[bpy.types.Object, _Body], others: bool,
                           report: _Report) -> dict[bpy.types.Object, tuple[bool, ...]]:
    """Collision collections of the bodies, from their collision filters (the first name, when colliders
    differ). With `others` (rigid bodies built before), every body of the scene is mapped, so that all
    stay consistent.
    """
    names = {owner: {shape.filter for shape in body.shapes} for owner, body in bodies.items() if body.shapes}
    if others:
        for obj in bl_scene.objects:
            if _has_shape_collider(obj) and not is_generated(obj):
                owner = body_object(obj)
                if owner not in bodies:
                    names.setdefault(owner, set()).add(_settings(obj).collider.collision_filter)
    owners = sorted(names, key=lambda owner: owner.name)
    values: dict[str, model.CollisionFilter | None] = {"": None}
    filters = []
    for owner in owners:
        name = min(names[owner])
        if name not in values:
            entry = library.find_filter(bl_scene, name)
            if entry is None:
                report.warn(owner, "/collider/collision_filter",
                            f"collision filter {name!r} is not in the scene library: collides with everything")
            values[name] = None if entry is None else library.filter_to_model(entry)
        filters.append(values[name])
    assignment = rigid_body_filters.assign(filters)
    for problem in assignment.problems:
        report.issues.append(model.Issue("", problem))
    return dict(zip(owners, assignment.collections, strict=True))


def clear_rigid_bodies(objects: Iterable[bpy.types.Object]) -> None:
    """Remove what `build_rigid_bodies` made for these objects: generated objects and rigid bodies."""
    targets = set(objects)
    if not targets:
        return
    doomed = [obj for obj in bpy.data.objects
              if is_generated(obj) and (obj.get(OWNER) in targets or obj.parent in targets)]
    for obj in targets:
        follow = obj.constraints.get(FOLLOW)
        if follow is not None:
            obj.constraints.remove(follow)
    keep = [obj for obj in targets if obj.rigid_body is not None and not is_generated(obj)]
    if keep:
        scenes = {bl_scene for obj in keep for bl_scene in obj.users_scene}
        for bl_scene in scenes:
            selected = [obj for obj in keep if bl_scene in obj.users_scene]
            with bpy.context.temp_override(scene=bl_scene, selected_objects=selected, object=selected[0],
                                           active_object=selected[0]):
                bpy.ops.rigidbody.objects_remove()
    if doomed:
        bpy.data.batch_remove(doomed)


def build_rigid_bodies(bl_scene: bpy.types.Scene, objects: Iterable[bpy.types.Object],
                       issues: list[model.Issue] | None = None) -> None:
    """Blender rigid bodies and constraints for the bodies and joints these objects take part in.

    Works from the objects' OMI settings only, replacing what an earlier build made for them; problems
    and what Blender cannot express go to `issues`.
    """
    report = _Report(issues)
    kept, joints = [], []
    for obj in objects:
        settings = _settings(obj)
        if settings is None or is_generated(obj):
            continue
        kept.append(obj)
        if settings.use_joint:
            joints.append(obj)
        if settings.use_trigger:
            report.cannot(TRIGGERS, obj)
    bodies = _plan_bodies(kept, _children_map(bl_scene))
    if not bodies and not joints:
        report.finish()
        return
    carriers = [shape.carrier for body in bodies.values() for shape in body.shapes]
    clear_rigid_bodies([*bodies, *carriers, *joints])
    builder = _Builder(bl_scene, report)
    for body in bodies.values():
        builder.prepare_body(body, bodies)
    for body in bodies.values():
        parent_body = body_object(body.owner.parent) if body.owner.parent is not None else None
        if parent_body is not None and parent_body in bodies and bodies[parent_body].compound \
                and body.owner.parent is bodies[parent_body].rigid:
            report.warn(body.owner, "", f"a body right under the compound body {parent_body.name!r} is simulated as "
                                        "part of it (Blender takes a compound's rigid-body children as its shapes)")
    planned_joints = [made for obj in joints for made in builder.prepare_joint(obj)]
    collections_of = _collision_collections(bl_scene, bodies, bool(builder.built_before), report)
    for body in bodies.values():
        builder.finish_body(body, collections_of)
    for owner, collections in collections_of.items():  # bodies built before stay consistent with these
        rigid = rigid_object(owner) if owner not in bodies else None
        if rigid is not None and tuple(rigid.rigid_body.collision_collections) != collections:
            rigid.rigid_body.collision_collections = collections
    for empty, plan in planned_joints:
        builder.finish_joint(empty, plan)
    cache = builder.world.point_cache
    cache.frame_start = min(cache.frame_start, bl_scene.frame_start)
    cache.frame_end = max(cache.frame_end, bl_scene.frame_end)
    report.finish()
