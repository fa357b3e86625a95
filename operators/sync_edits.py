"""*Sync from Blender* on an object whose rigid body a build made: only the values the artist edited in
Blender's rigid-body panel since then come back into the settings, each named.

What Blender does not hold (a gravity factor, initial velocities, a centre of mass, inertia, a sphere
fitted to a cube, a material's combine modes) stays as the settings say (`build/built_values`).
"""

from __future__ import annotations

from dataclasses import replace

import bpy
from mathutils import Matrix

from ..io.blender.adopt import from_bodies
from ..io.blender.builder import joint_readback, live
from ..io.blender.tables.markers import is_generated
from ..io.omi import model
from ..properties import convert, convert_build, edits, library, object_physics
from .common import link_like
from .joint_pivot import is_frame, unscaled

# Edited Blender values that OMI and KHR have no place for: named, not stored.
NOT_EXPORTED = {
    "damping": "Blender's damping has no place in OMI or KHR: it changes Blender's simulation only and is not "
               "exported",
    "collision margin": "Blender's collision margin has no place in OMI or KHR: it is not exported",
}


def _say(issues: list[model.Issue], obj: bpy.types.Object, what: str, severity: model.Severity = "info") -> None:
    issues.append(model.Issue("", f"object {obj.name!r}: {what}", severity))


def _motion_type(physics: model.NodePhysics) -> str | None:
    return None if physics.motion is None else physics.motion.type


def adopt_edits(obj: bpy.types.Object, bl_scene: bpy.types.Scene, edited: set[str],
                issues: list[model.Issue], source: bpy.types.Object | None = None) -> int:
    """Write the edited groups of the object's rigid body (or of `source`, the generated stand-in that holds
    it) into its settings; the number of values changed."""
    depsgraph = bpy.context.evaluated_depsgraph_get()
    holder = obj if source is None else source
    if holder is not obj:
        edited = edited - {"collision shape"}  # a stand-in's shape is the build's compound, not the artist's
    with_filter = from_bodies.filters_needed(bl_scene)
    physics = from_bodies.rigid_body_physics(holder, depsgraph, None, with_filter=with_filter)
    if physics is None:
        return 0
    settings = object_physics(obj)
    changes = 0
    if "motion type" in edited:
        before = settings.motion.motion_type.lower() if settings.use_motion else "none (a static collider)"
        after = _motion_type(physics)
        if (after is None) != (not settings.use_motion) or (after is not None and after != before):
            settings.use_motion = after is not None
            if after is not None:
                settings.motion.motion_type = after.upper()
            _say(issues, obj, f"motion {before} -> {after or 'none (a static collider)'} (edited in Blender)")
            changes += 1
    if "mass" in edited and physics.motion is not None and settings.use_motion:
        old_mass, new_mass = settings.motion.mass, physics.motion.mass
        if new_mass is not None and abs(old_mass - new_mass) > 1e-6 * max(1.0, abs(new_mass)):
            settings.motion.mass = new_mass
            _say(issues, obj, f"mass {old_mass:g} -> {new_mass:g} kg (edited in Blender)")
            changes += 1
    collider = physics.collider if holder is obj or holder.rigid_body is None \
        else from_bodies.surface(holder.rigid_body, with_filter=with_filter)
    if collider is not None and settings.use_collider:
        if "collision shape" in edited and collider.shape is not None:
            before = settings.collider.shape.shape_type.lower()
            convert.apply_shape(collider.shape, settings.collider.shape, obj, issues=issues, pointer="/collider/shape",
                                resolve_mesh=lambda ref: ref.object if isinstance(ref, from_bodies.RigidBodyMesh)
                                else ref)
            settings.collider.shape.use_offset = False
            _say(issues, obj, f"collider shape {before} -> {collider.shape.type}, sized by Blender (edited in Blender)")
            changes += 1
        if edited & {"friction", "restitution"} and collider.physics_material is not None:
            before = settings.collider.physics_material
            after = library.material_from_model(bl_scene, collider.physics_material)
            if after != before:
                settings.collider.physics_material = after
                _say(issues, obj, f"physics material {before or 'none'!r} -> {after!r}: Blender's friction and "
                                  f"restitution were edited (combine modes as Bullet combines)")
                changes += 1
        if "collision collections" in edited:
            before = settings.collider.collision_filter
            after = ("" if collider.collision_filter is None
                     else library.filter_from_model(bl_scene, collider.collision_filter, issues))
            if after != before:
                settings.collider.collision_filter = after
                _say(issues, obj, f"collision filter {before or 'none'!r} -> {after or 'none'!r} (collision "
                                  f"collections edited in Blender)")
                changes += 1
    for group, why in NOT_EXPORTED.items():
        if group in edited:
            _say(issues, obj, why, "warning")
    return changes


def _joint_constraints(obj: bpy.types.Object, made: bpy.types.Object) -> list[bpy.types.Object]:
    """The constraint objects the build made for joint `obj`, `made` among them: all sit under the same body."""
    around = made.parent.children if made.parent is not None else (made,)
    return [other for other in around if live.joint_of(other) is obj and other.rigid_body_constraint is not None]


def adopt_joint_edit(obj: bpy.types.Object, made: bpy.types.Object, issues: list[model.Issue]) -> bool:
    """Write the limits and drives of the joint's Blender constraints (`made`, one of the constraint objects the
    build made for it, was edited) into the joint's settings; the bodies it joins, and what Blender does not
    hold, stay the settings'."""
    pg = object_physics(obj).joint
    constraints = _joint_constraints(obj, made)
    before = replace(convert_build.joint_settings(pg), unknown=convert.kept(pg.settings_unknown_json))
    settings = joint_readback.read_joint(constraints, before, issues=issues)
    if settings is None:
        return False
    held = [other.rigid_body_constraint for other in constraints]
    main = next((constraint for constraint in held if constraint is not None and constraint.type != 'MOTOR'),
                made.rigid_body_constraint)
    enable_collision = main is not None and not main.disable_collisions
    kept = convert.kept(pg.unknown_json)
    convert.apply_joint(model.Joint(settings, pg.connected_object, enable_collision, kept), pg, obj,
                        resolve_node=lambda ref: ref, issues=issues)
    _say(issues, obj, "joint limits and drives taken from its Blender constraints (edited in Blender)")
    return True


_END_NAMES = {"object1": "Object 1", "object2": "Object 2"}


def _body(found: bpy.types.Object | None) -> bpy.types.Object | None:
    """The artist's object a constraint end simulates (a generated stand-in stands for its own; a body whose
    rigid body sits on a stand-in, as an empty's does, is picked itself); None for an object with no rigid
    body or a generated one standing for no body (a world anchor)."""
    if found is None:
        return None
    if found.rigid_body is None:
        return found if not is_generated(found) and object_physics(found).use_motion else None
    return live.stands_for(found)


def _move_into(frame: bpy.types.Object, body: bpy.types.Object) -> None:
    """Parent a frame to `body`, where it stays in the world."""
    world = frame.matrix_world.copy()
    frame.parent = body
    frame.parent_type = 'OBJECT'  # not a bone's child any more
    frame.matrix_parent_inverse = Matrix.Identity(4)
    frame.matrix_world = world


def _shared(frame: bpy.types.Object, joint: bpy.types.Object) -> bool:
    """Whether another joint connects to this frame too (moving it would move that joint's end)."""
    return any(other is not joint and object_physics(other).use_joint
               and object_physics(other).joint.connected_object == frame for other in bpy.data.objects)


def _connect(obj: bpy.types.Object, body: bpy.types.Object) -> None:
    """Connect the joint to `body` with its connected frame where it is: the frame itself moves into the body
    when it is a frame of its own, else a new anchor there does."""
    pg = object_physics(obj).joint
    frame = pg.connected_object
    if frame is not None and is_frame(frame) and not _shared(frame, obj):
        _move_into(frame, body)
        return
    anchor = bpy.data.objects.new(f"{body.name}.anchor", None)
    anchor.empty_display_type = 'PLAIN_AXES'
    anchor.empty_display_size = 0.15
    link_like(anchor, body, bpy.context)
    anchor.parent = body
    anchor.matrix_world = unscaled(frame.matrix_world if frame is not None else obj.matrix_world)
    pg.connected_object = anchor


def _refusal(constraint: bpy.types.RigidBodyConstraint, ends: list[str]) -> str | None:
    """Why the constraint's bodies cannot be said by the joint's settings; None when they can."""
    for end in ends:
        found = getattr(constraint, end)
        if found is None:
            return f"{_END_NAMES[end]} was unset"
        if _body(found) is None:
            why = "no rigid body, no OMI motion" if found.rigid_body is None else "a helper the build made"
            return f"{_END_NAMES[end]} was set to {found.name!r}, which is no body ({why})"
    first, second = _body(constraint.object1), _body(constraint.object2)
    if first is not None and first == second:
        return f"both ends were set to {first.name!r}: a joint joins two bodies"
    return None


def _hold(obj: bpy.types.Object, body: bpy.types.Object, issues: list[model.Issue]) -> bpy.types.Object:
    """Have `body` hold the joint at its frame: the joint object itself moves into it when it only marks the
    frame; else (the joint sits on a body, or on a mesh) its settings move onto a new empty there. The object
    now holding the joint."""
    if is_frame(obj):
        _move_into(obj, body)
        return obj
    pg = object_physics(obj).joint
    settings = replace(convert_build.joint_settings(pg), unknown=convert.kept(pg.settings_unknown_json))
    joint = model.Joint(settings, pg.connected_object, bool(pg.enable_collision), convert.kept(pg.unknown_json))
    empty = bpy.data.objects.new(f"{body.name}.joint", None)
    empty.empty_display_type = 'ARROWS'
    empty.empty_display_size = 0.25
    link_like(empty, body, bpy.context)
    empty.parent = body
    empty.matrix_world = unscaled(obj.matrix_world)
    held = object_physics(empty)
    held.use_joint = True
    convert.apply_joint(joint, held.joint, empty, resolve_node=lambda ref: ref, issues=issues)
    object_physics(obj).use_joint = False
    edits.note(empty)
    return empty


def adopt_joint_bodies(obj: bpy.types.Object, made: bpy.types.Object, ends: list[str],
                       issues: list[model.Issue]) -> bool:
    """Take the bodies set on one of the joint's Blender constraints (`ends`: which of Object 1 and Object 2
    changed) into the joint: Object 1 is the body holding the joint object, Object 2 the body holding its
    connected frame, and each frame moves into its new body where it stands. A change the settings cannot
    say (an end unset or set to no body, both ends one body) is named and the settings kept."""
    constraint = made.rigid_body_constraint
    assert constraint is not None, "asked only of constraint objects"
    refused = _refusal(constraint, ends)
    if refused is not None:
        _say(issues, obj, f"in its Blender constraint {refused}: the joint's settings are kept and the constraint "
                          f"rebuilt from them", "warning")
        return False
    moved: list[str] = []
    for end in sorted(ends, reverse=True):  # Object 2 first: Object 1 may move the settings to another object
        body = _body(getattr(constraint, end))
        assert body is not None, "refused above"
        if end == "object1":
            holder = _hold(obj, body, issues)
            moved.insert(0, f"{_END_NAMES[end]} {body.name!r}" + ("" if holder is obj else f" (on {holder.name!r})"))
        else:
            _connect(obj, body)
            moved.append(f"{_END_NAMES[end]} {body.name!r}")
    _say(issues, obj, f"joint now joins {' and '.join(moved)}, its frame moved into it where it stands "
                      f"(edited in Blender)")
    return True
