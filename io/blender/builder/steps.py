"""The rigid-body build's steps: rigid bodies and their shapes for planned bodies, constraint objects for
joints (see `rigid_body` for how OMI meets Blender).

First every object is decided, given its mesh, created and linked (linking makes `rigid_body` and
`rigid_body_constraint`); then the rigid body and constraint settings are written.
"""

from __future__ import annotations

import math
from typing import TypeAlias, cast

import bpy
from mathutils import Matrix, Quaternion, Vector

from ...omi import model
from ..tables.bullet import BLENDER_MIN_MASS, BULLET_COMBINE, blender_mass
from ..tables.markers import ANCHOR, FOLLOW, GENERATED, JOINT_CONSTRAINT, OWNER, STAND_IN, is_shape_mesh
from . import collision_filters, constraint_settings, joint_readback
from .compound_parts import name_mixed_surfaces
from .inputs import Switches
from .motion_stand_ins import settle_motion
from .plan import (
    Bounds,
    Frames,
    PlannedBody,
    PlannedShape,
    center_of_mass,
    fits_shape,
    is_identity,
    placement,
    rigid_body_owner,
    rigid_object,
    source_mesh,
    unit_scale,
)
from .report import (
    BAKED_SCALE,
    CENTERED_BODIES,
    FRICTION_COMBINE,
    NESTED_BODIES,
    RESTITUTION,
    RESTITUTION_COMBINE,
    STATIC_FRICTION,
    TAPERED,
    Report,
    note_motion,
)
from .rigid_body_world import ensure_world, generated_collection
from .shapes import MESH_TYPES, PRIMITIVE_TYPES, ShapeMeshes, collision_shape, is_tapered, still_primitive

NO_COLLECTIONS = (False,) * collision_filters.COLLECTION_COUNT
# What `finish_joint` needs for one constraint object: the constraint, its two rigid-body objects, and
# whether they collide.
JointPlan: TypeAlias = tuple[constraint_settings.ConstraintSpec, bpy.types.Object, bpy.types.Object, bool,
                             joint_readback.Frame]
# Turns that put the constraint's working axis ('Z' for hinges, 'X' for the others) on a joint axis.
_ALIGN = {
    ('Z', 0): Quaternion((0.0, 1.0, 0.0), math.pi / 2), ('Z', 1): Quaternion((1.0, 0.0, 0.0), -math.pi / 2),
    ('Z', 2): Quaternion(), ('X', 0): Quaternion(), ('X', 1): Quaternion((0.0, 0.0, 1.0), math.pi / 2),
    ('X', 2): Quaternion((0.0, 1.0, 0.0), -math.pi / 2),
}


def _write(rigid: bpy.types.RigidBodyObject, name: str, value: object) -> None:
    """Set a rigid-body value only when it differs: every write resets the simulation cache and makes Blender
    rebuild its whole rigid body world, even for the value it held (a live rebuild of one body writes them
    all)."""
    now = getattr(rigid, name)
    if now == value or (isinstance(value, float) and isinstance(now, float)
                        and math.isclose(now, value, rel_tol=1e-7, abs_tol=0.0)):
        return
    setattr(rigid, name, value)


def _name(value: model.PhysicsMaterial | model.CollisionFilter | None) -> str:
    """A library value's name for picking the first ("" for none: no material comes first)."""
    return "" if value is None else value.name


class Builder:
    def __init__(self, bl_scene: bpy.types.Scene, switches: Switches, report: Report) -> None:
        self.scene = bl_scene
        self.switches = switches
        self.report = report
        self.frames = Frames()
        self.meshes = ShapeMeshes(GENERATED)
        self.bounds: Bounds = {}  # see `fits_shape`
        # joint settings (by id, kept) -> their limits and drives in Blender axes: joints share a document's few
        self.joint_models: dict[int, tuple[model.JointSettings, list[constraint_settings.Limit],
                                           list[constraint_settings.Drive]]] = {}
        self.world = ensure_world(bl_scene)
        self.generated = generated_collection(bl_scene)
        # linking here makes an object's rigid body; ensure_world made the collection
        self.world_objects = cast(bpy.types.Collection, self.world.collection).objects
        self.built_before = set(self.world_objects)  # rigid bodies this build leaves alone
        self.linked: set[bpy.types.Object] = set(self.built_before)

    # -- first: decide, assign meshes, create and link objects (linking makes rigid_body and rigid_body_constraint)

    def prepare_body(self, body: PlannedBody, bodies: dict[bpy.types.Object, PlannedBody]) -> None:
        owner = body.owner
        shapes = body.shapes
        nested = body.motion == 'DYNAMIC' and rigid_body_owner(owner.parent, self.switches) is not None
        center = None if nested else center_of_mass(body)
        rigid = body.rigid = owner if owner.type == 'MESH' and not nested and center is None \
            else self._proxy(body, nested=nested, center=center)
        ours = rigid is not owner or is_shape_mesh(owner)  # its mesh data may be replaced
        if len(shapes) == 1 and ours and center is None and shapes[0].shape.type in PRIMITIVE_TYPES \
                and shapes[0].offset is None \
                and (shapes[0].carrier is owner or is_identity(self.frames.relative(shapes[0].carrier, owner))):
            # One collider right on the body: the body's own display mesh becomes the shape.
            rigid.data = self.meshes.shape(shapes[0].shape)
            body.carriers.append((shapes[0], rigid, False))
            self._link_body(rigid)
            return
        if len(shapes) == 1 and rigid is owner and fits_shape(owner, shapes[0], self.bounds, shape_mesh=ours):
            body.carriers.append((shapes[0], owner, False))
            self._link_body(owner)
            return
        body.compound = bool(shapes)
        if ours and not any(shape.carrier is rigid for shape in shapes):
            rigid.data = self.meshes.body()
        for shape in shapes:
            body.carriers.append(self._carrier(body, shape, bodies))
        self._link_body(rigid)

    def _proxy(self, body: PlannedBody, *, nested: bool = False, center: Vector | None = None) -> bpy.types.Object:
        """A generated mesh object that carries the rigid body of a body whose object is not a mesh, of a
        dynamic body inside another body (`nested`: Blender cannot simulate a rigid body whose parent is one), or
        of a dynamic body whose centre of mass is off its origin (`center`, in the object's axes: Blender turns
        a body about its origin, so the proxy's origin is the centre of mass and the shapes a compound around it).

        It starts where the body is (its centre of mass), unparented; a dynamic body then follows it, and it
        follows any other body, with a Child Of constraint on the follower (Copy Transforms for a nested body,
        whose parent moves too).
        """
        owner = body.owner
        if nested:
            self.report.approximate(NESTED_BODIES, owner)
        elif center is not None:
            body.center_built = True
            self.report.approximate(CENTERED_BODIES, owner)
        else:
            self.report.warn(owner, "", f"a {owner.type.lower()} cannot be a Blender rigid body: a generated mesh "
                                        f"object carries it, and a {FOLLOW!r} constraint keeps the two together")
        proxy = bpy.data.objects.new(f"{owner.name} rigid body", self.meshes.body())
        proxy[GENERATED] = STAND_IN
        proxy[OWNER] = owner
        proxy.display_type = 'WIRE'
        start = self.frames.world(owner)
        if center is not None:
            start = start @ Matrix.Translation(center)  # type: ignore[arg-type]  # the newest stubs' Translation takes no Vector
        proxy.matrix_basis = start
        self.generated.objects.link(proxy)
        if nested:
            copy = cast(bpy.types.CopyTransformsConstraint, owner.constraints.new('COPY_TRANSFORMS'))
            copy.name = FOLLOW
            copy.target = proxy
            return proxy
        follower, leader = (owner, proxy) if body.motion == 'DYNAMIC' else (proxy, owner)
        constraint = cast(bpy.types.ChildOfConstraint, follower.constraints.new('CHILD_OF'))
        constraint.name = FOLLOW
        constraint.target = leader
        constraint.inverse_matrix = start.inverted_safe()
        constraint.set_inverse_pending = False
        return proxy

    def _carrier(self, body: PlannedBody, shape: PlannedShape,
                 bodies: dict[bpy.types.Object, PlannedBody]) -> tuple[PlannedShape, bpy.types.Object, bool]:
        carrier = shape.carrier
        direct = carrier.parent is body.rigid and carrier.parent_type == 'OBJECT'
        if direct and carrier not in bodies and fits_shape(carrier, shape, self.bounds) \
                and unit_scale(carrier.matrix_parent_inverse @ carrier.matrix_basis):
            if is_shape_mesh(carrier) and shape.shape.type in PRIMITIVE_TYPES:
                carrier.data = self.meshes.shape(shape.shape)
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

    def link_body(self, obj: bpy.types.Object) -> None:
        self._link_body(obj)

    def _link_body(self, obj: bpy.types.Object) -> None:
        """Into the world's collection: a mesh object gets its `rigid_body` right away (no depsgraph update)."""
        if obj not in self.linked:
            self.linked.add(obj)
            self.world_objects.link(obj)

    def prepare_joint(self, obj: bpy.types.Object) -> list[tuple[bpy.types.Object, JointPlan]]:
        """Constraint objects for one joint object, each with what `finish_joint` needs."""
        found = self.switches.physics(obj)
        joint = None if found is None else found.physics.joint
        if joint is None:
            return []
        other = joint.connected_node
        if other is None:
            self.report.warn(obj, "/joint/connected_object", "joint is connected to nothing: no Blender constraint")
            return []
        first_owner, second_owner = rigid_body_owner(obj, self.switches), rigid_body_owner(other, self.switches)
        if first_owner is None and second_owner is None:
            self.report.warn(obj, "/joint", f"neither {obj.name!r} nor {other.name!r} is in a body: "
                                            "no Blender constraint")
            return []
        first = self._anchor(obj, obj) if first_owner is None else rigid_object(first_owner)
        second = self._anchor(obj, other) if second_owner is None else rigid_object(second_owner)
        if first is None or second is None:
            lonely = first_owner if first is None else second_owner  # `_anchor` finds an object: an owner lacks one
            lonely_name = obj.name if lonely is None else lonely.name
            self.report.warn(obj, "/joint", f"body {lonely_name!r} has no Blender rigid body: no Blender constraint")
            return []
        if first is second:
            self.report.warn(obj, "/joint", f"joins {first.name!r} to itself: no Blender constraint")
            return []
        frame = self.frames.world(obj)
        location, rotation, _scale = frame.decompose()
        other_location, other_rotation, _ = self.frames.world(other).decompose()
        offset = rotation.inverted() @ (other_location - location)
        rest_offset = constraint_settings.settled_offset((offset.x, offset.y, offset.z), [
            place.to_tuple() for place in (location, other_location, self.frames.world(first).translation,
                                           self.frames.world(second).translation)])
        turn_axis, turn_angle = rotation.rotation_difference(other_rotation).to_axis_angle()
        rest_angles = constraint_settings.rest_turn((turn_axis.x, turn_axis.y, turn_axis.z), turn_angle)
        settings = self.joint_models.get(id(joint.settings))
        if settings is None or settings[0] is not joint.settings:
            settings = self.joint_models[id(joint.settings)] = (joint.settings,
                                                                *constraint_settings.from_model(joint.settings))
        _settings, limits, drives = settings
        specs, notes = constraint_settings.plan_constraints(limits, drives, rest_offset, rest_angles)
        for note in notes:
            self.report.cannot(note, obj)
        if not specs:
            self.report.warn(obj, "/joint", "joint limits and drives constrain nothing: no Blender constraint")
        made: list[tuple[bpy.types.Object, JointPlan]] = []
        for index, spec in enumerate(specs):
            empty = bpy.data.objects.new(f"{obj.name} {spec.type.lower()}" + (f" {index}" if index else ""), None)
            empty[GENERATED] = JOINT_CONSTRAINT
            empty[OWNER] = obj
            empty.empty_display_type = 'ARROWS'
            empty.empty_display_size = 0.25
            empty.parent = first
            align = _ALIGN[(spec.align, spec.axis)] if spec.align else Quaternion()
            world = Matrix.LocRotScale(location, rotation @ align, None)  # type: ignore[arg-type]  # the newest stubs' LocRotScale takes no Vector
            empty.matrix_basis = self.frames.world(first).inverted_safe() @ world
            self.generated.objects.link(empty)
            cast("bpy.types.Collection", self.world.constraints).objects.link(empty)  # ensure_world made it
            placed = joint_readback.frame(rest_offset, rest_angles, align)
            made.append((empty, (spec, first, second, joint.enable_collision, placed)))
        return made

    def _anchor(self, joint_object: bpy.types.Object, at: bpy.types.Object) -> bpy.types.Object:
        """A generated passive rigid body, colliding with nothing, that stands for the fixed world frame.

        A joint frame in no body holds to the world (KHR's fixed reference frame; OMI's connectedNode outside
        every body acts as static), but a Blender constraint needs two rigid bodies: with object2 unset it
        holds nothing (measured, 4.2 to 5.2). The anchor stays where the frame starts.
        """
        location, rotation, _scale = self.frames.world(at).decompose()
        anchor = bpy.data.objects.new(f"{at.name} world anchor", self.meshes.body())
        anchor[GENERATED] = ANCHOR
        anchor[OWNER] = joint_object
        anchor.matrix_basis = Matrix.LocRotScale(location, rotation, None)  # type: ignore[arg-type]  # the newest stubs' LocRotScale takes no Vector
        self.generated.objects.link(anchor)
        self._link_body(anchor)
        rigid = cast(bpy.types.RigidBodyObject, anchor.rigid_body)  # linking the mesh object made it
        rigid.type = 'PASSIVE'
        rigid.collision_shape = 'SPHERE'
        rigid.collision_collections = NO_COLLECTIONS  # type: ignore[assignment]  # the newest stubs' bpy_prop_array takes no tuple
        return anchor

    # -- then: rigid body and constraint settings

    def finish_body(self, body: PlannedBody, collections_of: dict[bpy.types.Object, tuple[bool, ...]]) -> None:
        owner = body.owner
        rigid_owner = body.rigid
        rigid = rigid_owner.rigid_body if rigid_owner is not None else None
        if rigid_owner is None or rigid is None:
            return
        note_motion(body, self.report)
        _write(rigid, "type", 'PASSIVE' if body.motion == 'STATIC' else 'ACTIVE')
        _write(rigid, "kinematic", body.motion == 'KINEMATIC')
        _write(rigid, "enabled", True)
        if body.motion != 'STATIC':
            motion = body.motion_values if body.motion_values is not None \
                else model.Motion(model.motion_type(body.motion.lower()))
            settle_motion(self, self.report, owner, rigid_owner, motion=motion, world=self.frames.world(rigid_owner))
            mass = model.DEFAULT_MASS if math.isinf(motion.mass) else motion.mass  # infinite: locked (settle_motion)
            if mass < BLENDER_MIN_MASS:
                self.report.warn(owner, "/motion/mass", f"mass {mass:g} kg is below Blender's {BLENDER_MIN_MASS:g} kg: "
                                                        f"{BLENDER_MIN_MASS:g} used")
            _write(rigid, "mass", blender_mass(motion.mass, model.DEFAULT_MASS))
        material = self._material(body)
        _write(rigid, "friction", model.DEFAULT_FRICTION if material is None else material.dynamic_friction)
        _write(rigid, "restitution", model.DEFAULT_RESTITUTION if material is None else material.restitution)
        collections = collections_of.get(owner, NO_COLLECTIONS) if body.shapes else NO_COLLECTIONS
        rigid.collision_collections = collections  # type: ignore[assignment]  # the newest stubs' bpy_prop_array takes no tuple
        if not body.shapes:
            self.report.warn(owner, "/collider", "body has no collider shape: it collides with nothing")
            rigid.collision_shape = 'SPHERE'
            return
        if not body.compound:
            self._shape_settings(rigid, body.carriers[0][0], rigid_owner is body.carriers[0][0].carrier)
            return
        rigid.collision_shape = 'COMPOUND'
        owner_world = self.frames.world(rigid_owner)  # the compound's frame: its proxy's, which may be off the body
        for shape, carrier, made in body.carriers:
            if made:
                self._place(carrier, shape, owner_world)
            child = carrier.rigid_body
            if child is None:
                continue
            child.type = rigid.type
            child.collision_collections = collections  # type: ignore[assignment]  # the newest stubs' bpy_prop_array takes no tuple
            self._shape_settings(child, shape, own_mesh=not made)

    def _place(self, made: bpy.types.Object, shape: PlannedShape, owner_world: Matrix) -> None:
        """Put a generated carrier at its shape's place; Blender ignores a compound child's scale, so bake it."""
        relative = owner_world.inverted_safe() @ placement(shape, self.frames)
        location, rotation, scale = relative.decompose()
        made.matrix_basis = Matrix.LocRotScale(location, rotation, None)  # type: ignore[arg-type]  # the newest stubs' LocRotScale takes no Vector
        kind = shape.shape.type
        baked = (1.0, 1.0, 1.0) if unit_scale(relative) else scale[:]
        if kind in MESH_TYPES:
            source = source_mesh(shape)
            if source is None:
                self.report.warn(shape.carrier, "/collider/shape", f"{kind} shape has no mesh: shape skipped")
                made.data = self.meshes.body()
            else:
                made.data = source if baked == (1.0, 1.0, 1.0) else self.meshes.scaled_copy(source, baked)
            return
        made.data = self.meshes.shape(shape.shape, baked)
        if not still_primitive(kind, baked):
            made[GENERATED] = "shape hull"  # the baked mesh is no longer the primitive: use its hull
            self.report.cannot(BAKED_SCALE, shape.carrier)

    def _shape_settings(self, rigid: bpy.types.RigidBodyObject, shape: PlannedShape, own_mesh: bool) -> None:
        kind = collision_shape(shape.shape)
        if cast("bpy.types.ID", rigid.id_data).get(GENERATED) == "shape hull":  # id_data: the object holding it
            kind = 'CONVEX_HULL'
        if kind == 'CONVEX_HULL' and is_tapered(shape.shape):  # a cone is Blender's own CONE: exact
            self.report.cannot(TAPERED, shape.carrier)
        _write(rigid, "collision_shape", kind)
        if kind in ('CONVEX_HULL', 'MESH'):
            # The settings' own mesh is written with modifiers applied; generated meshes have none.
            rigid.mesh_source = 'FINAL' if own_mesh and shape.own_mesh else 'BASE'
        if kind == 'MESH':
            rigid.use_margin = True
            rigid.collision_margin = 0.0  # a triangle mesh's margin would thicken it
        elif kind == 'CONVEX_HULL':
            # Blender's default margin (0.04 m) is meant to be embedded in the hull, but a compound child's hull on
            # a scaled node stood on it, on air: the file's hull, exactly, as for a triangle mesh.
            _write(rigid, "use_margin", True)
            _write(rigid, "collision_margin", 0.0)

    def _material(self, body: PlannedBody) -> model.PhysicsMaterial | None:
        """The body's physics material: Blender has one per body (the first by name, when colliders differ)."""
        shapes = body.shapes
        if len(shapes) == 1:
            material = shapes[0].material
        else:
            name_mixed_surfaces(body, self.report)
            material = min((shape.material for shape in shapes), key=_name, default=None)
        if material is None:
            return None
        if material.friction_combine != BULLET_COMBINE:
            self.report.cannot(FRICTION_COMBINE, body.owner)
        if material.restitution_combine != BULLET_COMBINE:
            self.report.cannot(RESTITUTION_COMBINE, body.owner)
        if material.restitution > 0.0:
            self.report.approximate(RESTITUTION, body.owner)
        if not math.isclose(material.static_friction, material.dynamic_friction, abs_tol=1e-6):
            self.report.cannot(STATIC_FRICTION, body.owner)
        return material

    def finish_joint(self, empty: bpy.types.Object, plan: JointPlan) -> None:
        spec, first, second, enable_collision, _frame = plan
        constraint = empty.rigid_body_constraint
        if constraint is None:
            return
        constraint.type = spec.type  # type: ignore[assignment]  # one of Blender's names (tables.constraints); the newest stubs want the Literal
        constraint.object1 = first
        constraint.object2 = second
        constraint.enabled = True
        constraint.disable_collisions = not enable_collision
        for name, value in spec.values.items():
            setattr(constraint, name, value)
