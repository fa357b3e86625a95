"""OMI physics (model values) -> Blender rigid bodies and rigid body constraints: one translation for import
and sync.

`build_rigid_bodies` reads the objects' physics as model values only (`inputs`): the glTF import passes the
document it read, the "settings -> Blender rigid bodies" operator the settings converted to the model, so both
give the same result; `clear_rigid_bodies` undoes it.

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
  frame in `rigidbody_world.constraints`; see `rigid_body_joints` for the limit mapping. A joint frame in
  no body holds to the world: a generated passive body that collides with nothing (markers.ANCHOR) takes
  its side, since a Blender constraint holds nothing without two rigid bodies.
- What Blender cannot express stays in the settings and is named once in a note (info, not a problem).

The steps live apart: `inputs` (what the build is fed), `plan` (which bodies, which shapes, where), `steps`
(making and setting rigid bodies and constraint objects), `report` (the warnings), `world` (the world,
clearing), `markers` (what export and clear recognise). Joints take the one glTF -> Blender mapping of
`constraint_settings.from_model`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import bpy

from ...omi import model
from ..tables.markers import OWNER, is_generated
from . import built_values, collision_filters, joint_readback
from .inputs import ObjectPhysics, PhysicsOf, Switches
from .plan import PlannedBody, children_map, plan_bodies, rigid_body_owner, rigid_object
from .report import GRAVITY_VOLUMES, TRIGGERS, Report
from .rigid_body_world import clear_rigid_bodies
from .steps import Builder

__all__ = ["ObjectPhysics", "PhysicsOf", "build_rigid_bodies", "clear_rigid_bodies"]


def _filter_name(value: model.CollisionFilter | None) -> str:
    return "" if value is None else value.name


def _collision_collections(bl_scene: bpy.types.Scene, switches: Switches,
                           bodies: dict[bpy.types.Object, PlannedBody], others: bool,
                           report: Report) -> dict[bpy.types.Object, tuple[bool, ...]]:
    """Collision collections of the bodies, from their collision filters (the first by name, when colliders
    differ). With `others` (rigid bodies built before), every body of the scene is mapped, so that all
    stay consistent. Without any filter, every body gets Blender's default collection (no order to keep).
    """
    if not others and all(shape.filter is None for body in bodies.values() for shape in body.shapes):
        unfiltered = collision_filters.assign([None]).collections[0]  # all in Blender's default collection
        return {owner: unfiltered for owner, body in bodies.items() if body.shapes}
    filters_of = {owner: {shape.filter for shape in body.shapes} for owner, body in bodies.items() if body.shapes}
    if others:
        for obj in bl_scene.objects:
            if switches(obj).shaped and not is_generated(obj):
                owner = rigid_body_owner(obj, switches)
                assert owner is not None, "a shaped object belongs to a body (itself at least)"
                if owner not in bodies:
                    found = switches.physics(obj)
                    collider = None if found is None else found.physics.collider
                    filters_of.setdefault(owner, set()).add(None if collider is None else collider.collision_filter)
    owners = sorted(filters_of, key=lambda owner: owner.name)
    filters = [min(held, key=_filter_name) if len(held := filters_of[owner]) > 1 else next(iter(held))
               for owner in owners]
    assignment = collision_filters.assign(filters)
    for problem in assignment.problems:
        report.issues.append(model.Issue("", problem))
    return dict(zip(owners, assignment.collections, strict=True))


def _set_anew(bodies: dict[bpy.types.Object, PlannedBody], switches: Switches) -> set[bpy.types.Object]:
    """Body objects that carry their own rigid body again (a mesh, not a dynamic body inside another body):
    the build sets every value it owns, so theirs need not be removed first."""
    return {owner for owner, body in bodies.items()
            if owner.type == 'MESH' and owner.rigid_body is not None
            and not (body.motion == 'DYNAMIC' and owner.parent is not None
                     and rigid_body_owner(owner.parent, switches) is not None)}


def _record_joints(planned: list[tuple[bpy.types.Object, Any]], switches: Switches) -> None:
    """Keep what the build wrote into each joint's constraint objects and how it placed them, and whether they
    read back as the joint's settings (`joint_readback`): an edit in Blender's panel can then come back."""
    per_joint: dict[bpy.types.Object, list[tuple[bpy.types.Object, Any]]] = {}
    for empty, plan in planned:
        owner = empty.get(OWNER)
        if isinstance(owner, bpy.types.Object) and empty.rigid_body_constraint is not None:
            per_joint.setdefault(owner, []).append((empty, plan))
    for owner, made in per_joint.items():
        found = switches.physics(owner)
        joint = None if found is None else found.physics.joint
        empties, frames = [empty for empty, _plan in made], [plan[-1] for _empty, plan in made]
        exact = joint is not None and joint_readback.reads_back(empties, joint.settings, frames)
        for empty, placed in zip(empties, frames, strict=True):
            built_values.record_constraint(empty, exact=exact, frame=placed.record())
        built_values.record_frames(owner, (owner, None if joint is None else joint.connected_node))


def build_rigid_bodies(bl_scene: bpy.types.Scene, objects: Iterable[bpy.types.Object], physics_of: PhysicsOf,
                       issues: list[model.Issue] | None = None, *, keep_rigid_bodies: bool = False,
                       fresh: bool = False) -> None:
    """Blender rigid bodies and constraints for the bodies and joints these objects take part in.

    Works from model values only: `physics_of` gives any object's physics (these objects', and those the build
    meets: descendants, connected bodies, bodies built before). Replaces what an earlier build made for them;
    problems and what Blender cannot express go to `issues`. `keep_rigid_bodies` (the live link's builds of one
    edit) sets a body's own rigid body anew instead of remaking it. `fresh`: the objects were made just now
    (an import's), so no earlier build made anything for them (clearing would walk every object of the file).
    """
    report = Report(issues)
    kept, joints = [], []
    switches = Switches(physics_of)
    for obj in objects:
        if is_generated(obj):
            continue
        parts = switches(obj)
        if not any(parts):
            continue
        kept.append(obj)
        if parts.joint:
            joints.append(obj)
        if parts.trigger:
            report.cannot(TRIGGERS, obj)
            found = switches.physics(obj)
            if found is not None and found.physics.gravity is not None:
                report.cannot(GRAVITY_VOLUMES, obj)
    built_values.mark_in_step(kept)
    bodies = plan_bodies(kept, children_map(), switches)
    if not bodies and not joints:
        report.finish()
        return
    if not fresh:
        carriers = [shape.carrier for body in bodies.values() for shape in body.shapes]
        clear_rigid_bodies([*bodies, *carriers, *joints],
                           keep_rigid_bodies=_set_anew(bodies, switches) if keep_rigid_bodies else ())
    builder = Builder(bl_scene, switches, report)
    for body in bodies.values():
        builder.prepare_body(body, bodies)
    for body in bodies.values():
        parent = body.owner.parent
        parent_body = rigid_body_owner(parent, switches) if parent is not None else None
        if parent_body is not None and parent_body in bodies and bodies[parent_body].compound \
                and parent is bodies[parent_body].rigid:
            report.warn(body.owner, "", f"a body right under the compound body {parent_body.name!r} is simulated as "
                                        "part of it (Blender takes a compound's rigid-body children as its shapes)")
    planned_joints = [made for obj in joints for made in builder.prepare_joint(obj)]
    collections_of = _collision_collections(bl_scene, switches, bodies, bool(builder.built_before), report)
    for body in bodies.values():
        builder.finish_body(body, collections_of)
    for owner, collections in collections_of.items():  # bodies built before stay consistent with these
        rigid = rigid_object(owner) if owner not in bodies else None
        # The newest stubs type collision_collections as a bpy_prop_array of nothing (no items, no tuple taken).
        if rigid is not None and rigid.rigid_body is not None \
                and tuple(rigid.rigid_body.collision_collections) != collections:  # type: ignore[arg-type]  # see above
            rigid.rigid_body.collision_collections = collections  # type: ignore[assignment]  # see above
    for empty, plan in planned_joints:
        builder.finish_joint(empty, plan)
    _record_joints(planned_joints, switches)
    built_values.record(body.rigid for body in bodies.values())
    cache = builder.world.point_cache
    cache.frame_start = min(cache.frame_start, bl_scene.frame_start)
    cache.frame_end = max(cache.frame_end, bl_scene.frame_end)
    report.finish()
