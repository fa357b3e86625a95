"""Blender rigid bodies as OMI physics: one mapping, used by the export of untagged objects and by
*Sync from Blender* (which stores the same model values in the objects' settings).

Constraints: `adopt_constraints`.

The mapping follows what Blender's Bullet simulation does, not only what its panels show:
- ACTIVE is dynamic; ACTIVE with "Animated" (or with "Dynamic" off) is kinematic; PASSIVE is static,
  and PASSIVE with "Animated" is a moving (kinematic) collider.
- Primitive shapes take their size from the object's bounding box but are centred on its origin (box:
  the box's size; sphere: the largest half-size; capsule, cylinder and cone: the largest X/Y half-size as
  radius and the Z size as full height). A cone is a cylinder whose top radius is 0.
- Bullet multiplies the friction and the restitution of two touching bodies (`bullet.BULLET_COMBINE`),
  so the physics material says "multiply" for both.
- Two bodies collide when they share a collision collection; a filter whose systems and collide-with
  systems are both the body's collections says exactly that.
- A COMPOUND parent is one body made of its direct rigid-body children's shapes, with the parent's
  mass, friction, restitution and collections.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import cast

import bpy

from ...omi import conventions, model
from ...omi.json_types import shortest_float32
from ..tables import axes, constraints
from ..tables.bullet import BULLET_COMBINE

COLLISION_SYSTEM_NAME = "Collision Collection {}"
MIN_THICKNESS = 0.01  # metres given to a flat side: OMI sizes must be > 0

@dataclass(frozen=True)
class RigidBodyMesh:
    """The mesh of a Blender convex hull or mesh collider: the object and whether modifiers apply."""

    object: bpy.types.Object
    evaluated: bool = True




def warn(issues: list[model.Issue] | None, obj: bpy.types.Object, message: str,
          severity: model.Severity = "warning") -> None:
    if issues is not None:
        issues.append(model.Issue("", f"object {obj.name!r}: {message}", severity))




# --- bodies ------------------------------------------------------------------------------------------


def compound_parent(obj: bpy.types.Object) -> bpy.types.Object | None:
    """The COMPOUND parent whose body this object's collider belongs to, if any."""
    parent = obj.parent
    if parent is not None and parent.rigid_body is not None and parent.rigid_body.collision_shape == 'COMPOUND':
        return parent
    return None


def collision_mask(rigid_body: bpy.types.RigidBodyObject) -> tuple[bool, ...]:
    # The 20 switches; a slice copies them at once (a tuple), where iterating reads each through RNA. (The
    # newest stubs type bpy_prop_array without items: neither iterable nor indexable.)
    return cast("tuple[bool, ...]", rigid_body.collision_collections)[:]


def filters_needed(bl_scene: bpy.types.Scene) -> bool:
    """True when the scene's rigid bodies do not all share the same collision collections.

    When they do, every body collides with every other one, which is what no filter at all means.
    """
    world = bl_scene.rigidbody_world
    if world is None or world.collection is None:
        return False
    first = None
    for obj in world.collection.all_objects:
        body = obj.rigid_body  # once per object
        if body is None:
            continue
        mask = collision_mask(body)
        if first is None:
            first = mask
        elif mask != first:  # (a tuple of bools: compared in C, where a set hashed each)
            return True
    return False


def _collision_filter(rigid_body: bpy.types.RigidBodyObject) -> model.CollisionFilter:
    systems = tuple(COLLISION_SYSTEM_NAME.format(index + 1)
                    for index, used in enumerate(collision_mask(rigid_body)) if used)
    return model.CollisionFilter(collision_systems=systems, collide_with_systems=systems)


@functools.lru_cache(maxsize=4096)
def _float32_of(value: float, _negative: bool) -> float:
    return shortest_float32(value)


def _float32(value: float) -> float:
    """`shortest_float32`, remembered: a scene's bodies share a handful of masses and frictions. The sign
    is part of the key because -0.0 == 0.0."""
    return _float32_of(value, math.copysign(1.0, value) < 0.0)


@functools.lru_cache(maxsize=1024)
def _material_of(friction: float, restitution: float, _signs: tuple[float, float]) -> model.PhysicsMaterial:
    return model.PhysicsMaterial(
        static_friction=_float32(friction),  # float32 values as the settings path reads them
        dynamic_friction=_float32(friction),
        restitution=_float32(restitution),
        friction_combine=BULLET_COMBINE,
        restitution_combine=BULLET_COMBINE,
    )


def _material(rigid_body: bpy.types.RigidBodyObject) -> model.PhysicsMaterial:
    """The body's material; remembered per value, with the signs in the key because -0.0 == 0.0."""
    friction, restitution = rigid_body.friction, rigid_body.restitution
    return _material_of(friction, restitution, (math.copysign(1.0, friction), math.copysign(1.0, restitution)))


def surface(rigid_body: bpy.types.RigidBodyObject, *, with_filter: bool) -> model.Collider:
    """A rigid body's material (and collision filter) with no shape: what a generated stand-in's compound body
    says of the collider it stands for."""
    return model.Collider(physics_material=_material(rigid_body),
                          collision_filter=_collision_filter(rigid_body) if with_filter else None)


# Motions and primitive shapes are made once per value (a frozen dataclass costs about 1 us to make, and a
# level's bodies repeat a few): the model values are immutable, so every body may hold the same one.
_STATIC = model.Motion(type="static")
_KINEMATIC = model.Motion(type="kinematic")


@functools.lru_cache(maxsize=4096)
def _dynamic(mass: float, _negative: bool) -> model.Motion:
    return model.Motion(type="dynamic", mass=shortest_float32(mass))  # float32, as the settings path reads it


def _motion(obj: bpy.types.Object, rigid_body: bpy.types.RigidBodyObject,
            issues: list[model.Issue] | None) -> model.Motion:
    if rigid_body.type == 'PASSIVE':
        return _KINEMATIC if rigid_body.kinematic else _STATIC
    if rigid_body.kinematic:
        return _KINEMATIC
    if not rigid_body.enabled:
        warn(issues, obj, "its rigid body has 'Dynamic' off, so it only follows its animation: exported as "
              "kinematic", "info")
        return _KINEMATIC
    # damping (in neither OMI nor KHR) is named once for the whole export: peer_findings.damped
    # The newest stubs type bpy_prop_array without items (not iterable): three switches each.
    if any(cast("Iterable[bool]", obj.lock_location)) or any(cast("Iterable[bool]", obj.lock_rotation)):
        warn(issues, obj, "its transform locks keep it from moving or turning in Blender's simulation; OMI has "
              "no such locks, so they were not exported")
    if rigid_body.use_start_deactivated:
        warn(issues, obj, "'Start Deactivated' has no OMI equivalent: the body starts awake")
    mass = rigid_body.mass
    return _dynamic(mass, math.copysign(1.0, mass) < 0.0)  # the sign in the key: -0.0 == 0.0


def _half_sizes(obj: bpy.types.Object, depsgraph: bpy.types.Depsgraph) -> tuple[float, float, float]:
    """Half the bounding box size (modifiers applied, object scale not), as Bullet sizes its shapes."""
    # corner[:] rather than tuple(corner): slicing copies the three floats at once (measured 0.2 us against
    # 2.3 us for iterating the RNA array), the whole box 4x faster.
    columns = tuple(zip(*(corner[:] for corner in obj.evaluated_get(depsgraph).bound_box), strict=True))
    half_x, half_y, half_z = ((max(column) - min(column)) / 2.0 for column in columns)
    return half_x, half_y, half_z


class Bounds:
    """Half sizes of the evaluated bounding boxes (`_half_sizes`), read once per mesh that objects use
    without modifiers or shape keys: their evaluated meshes are then the mesh itself, so a level's
    thousand linked crates cost one read."""

    def __init__(self, depsgraph: bpy.types.Depsgraph) -> None:
        self.depsgraph = depsgraph
        self._by_mesh: dict[bpy.types.Mesh, tuple[float, float, float]] = {}

    def half_sizes(self, obj: bpy.types.Object) -> tuple[float, float, float]:
        mesh = cast("bpy.types.Mesh", obj.data) if obj.type == 'MESH' and not obj.modifiers else None  # a MESH's data
        if mesh is None:
            return _half_sizes(obj, self.depsgraph)
        found = self._by_mesh.get(mesh)  # (only meshes without shape keys are kept: asked once per mesh)
        if found is None:
            if mesh.shape_keys is not None:
                return _half_sizes(obj, self.depsgraph)
            found = self._by_mesh[mesh] = _half_sizes(obj, self.depsgraph)
        return found


def _thick(value: float, obj: bpy.types.Object, what: str, issues: list[model.Issue] | None) -> float:
    if value > 0.0:
        return value
    warn(issues, obj, f"its {what} is flat; exported {MIN_THICKNESS * 100:g} cm thick")
    return MIN_THICKNESS


def _shape(obj: bpy.types.Object, rigid_body: bpy.types.RigidBodyObject, kind: str, bounds: Bounds,
           issues: list[model.Issue] | None) -> model.Shape | None:
    """The shape of a rigid body whose collision shape is `kind` (read once by the caller)."""
    if kind in ('CONVEX_HULL', 'MESH'):
        if obj.type != 'MESH':
            warn(issues, obj, f"a {kind.lower().replace('_', ' ')} collider needs a mesh object; collider skipped")
            return None
        if kind == 'CONVEX_HULL' and rigid_body.use_margin and rigid_body.collision_margin > 0.0:
            warn(issues, obj, f"its collision margin ({rigid_body.collision_margin:.3g} m) makes the hull "
                  "larger in Blender; exported without it")
        if kind == 'MESH' and rigid_body.type == 'ACTIVE':
            warn(issues, obj, "a moving triangle-mesh collider is not supported by most engines; "
                  "a Convex Hull is safer", "info")
        mesh = RigidBodyMesh(obj, evaluated=rigid_body.mesh_source != 'BASE')
        return model.Shape("convex" if kind == 'CONVEX_HULL' else "trimesh", mesh=mesh)
    halves = bounds.half_sizes(obj)
    if min(halves) > 0.0:  # no flat side to report: the same sizes make the same shape (remembered)
        return _sized_shape(kind, *halves)
    return _sized_shape.__wrapped__(kind, *halves, lambda value, what: _thick(value, obj, what, issues))


def _as_is(value: float, _what: str) -> float:
    return value


@functools.lru_cache(maxsize=1024)
def _sized_shape(kind: str, half_x: float, half_y: float, half_z: float,
                 thick: Callable[[float, str], float] = _as_is) -> model.Shape | None:
    """A primitive shape of Blender's `kind` from half its bounding box; `thick(value, what)` makes a flat
    side thick (and reports it)."""
    if kind == 'BOX':
        size = tuple(thick(2.0 * half, f"box collider's {constraints.AXIS_IDS[axis]} size")
                     for axis, half in enumerate((half_x, half_y, half_z)))
        return model.Shape("box", size=axes.size_to_gltf(size))
    if kind == 'SPHERE':
        return model.Shape("sphere", radius=max(half_x, half_y, half_z))
    radius = max(half_x, half_y)
    height = thick(2.0 * half_z, f"{kind.lower()} collider's height")
    if kind == 'CAPSULE':
        middle = conventions.capsule_mid_height(height, radius)
        if middle <= 0.0:  # Bullet's capsule then has no cylinder part: a ball
            return model.Shape("sphere", radius=radius)
        return model.Shape("capsule", height=middle, radius_top=radius, radius_bottom=radius)
    if kind == 'CYLINDER':
        return model.Shape("cylinder", height=height, radius_top=radius, radius_bottom=radius)
    if kind == 'CONE':  # Bullet's cone: apex up (+Z), centred half-way up
        return model.Shape("cylinder", height=height, radius_top=0.0, radius_bottom=radius)
    return None


_COLLIDERS: dict[tuple[int, int], tuple[model.Shape, model.PhysicsMaterial, model.Collider]] = {}


def _collider(shape: model.Shape, material: model.PhysicsMaterial,
              collision_filter: model.CollisionFilter | None) -> model.Collider:
    """The collider of a shape and a material, one object per remembered pair (shapes and materials are
    remembered per value above): the export writes a value it has met before without hashing it again."""
    if collision_filter is not None:
        return model.Collider(shape=shape, physics_material=material, collision_filter=collision_filter)
    found = _COLLIDERS.get((id(shape), id(material)))
    if found is not None and found[0] is shape and found[1] is material:
        return found[2]
    if len(_COLLIDERS) > 4096:
        _COLLIDERS.clear()
    collider = model.Collider(shape=shape, physics_material=material)
    _COLLIDERS[id(shape), id(material)] = (shape, material, collider)
    return collider


def rigid_body_physics(obj: bpy.types.Object, depsgraph: bpy.types.Depsgraph, issues: list[model.Issue] | None,
                       *, with_filter: bool, bounds: Bounds | None = None) -> model.NodePhysics | None:
    """The OMI body of an object from its Blender rigid body; None when it has none.

    A COMPOUND parent is a body without a shape of its own; its rigid-body children are colliders
    (without motion) carrying the parent's material and filter, as Bullet treats them. Pass one `bounds`
    (made from the same depsgraph) for many objects, so that shared meshes are measured once.
    """
    rigid_body = obj.rigid_body
    if rigid_body is None:
        return None
    parent = compound_parent(obj)
    # each `.rigid_body` costs ~1 us; a compound parent has one (compound_parent)
    owner_body = cast("bpy.types.RigidBodyObject", parent.rigid_body) if parent is not None else rigid_body
    motion = None if parent is not None else _motion(obj, rigid_body, issues)
    if parent is not None and any(abs(component - 1.0) > 1e-6 for component in obj.scale[:]):
        warn(issues, obj, f"it is scaled inside compound parent {parent.name!r}; Blender's simulation ignores "
              "that scale, the export keeps the size you see", "info")
    collider = None
    kind = rigid_body.collision_shape
    if kind == 'COMPOUND':
        if not any(child.rigid_body is not None for child in obj.children):
            warn(issues, obj, "its compound rigid body has no rigid-body children, so it has no collider")
    else:
        shape = _shape(obj, rigid_body, kind, bounds if bounds is not None else Bounds(depsgraph), issues)
        if shape is not None:
            collider = _collider(shape, _material(owner_body), _collision_filter(owner_body) if with_filter else None)
    if motion is None and collider is None:
        return None
    return _body(motion, collider)


_BODIES: dict[tuple[int, int], model.NodePhysics] = {}


def _body(motion: model.Motion | None, collider: model.Collider | None) -> model.NodePhysics:
    """A body of a motion and a collider, one object per remembered pair (as `_collider`)."""
    found = _BODIES.get((id(motion), id(collider)))
    if found is not None and found.motion is motion and found.collider is collider:
        return found
    if len(_BODIES) > 4096:
        _BODIES.clear()
    body = _BODIES[id(motion), id(collider)] = model.NodePhysics(motion=motion, collider=collider)
    return body
