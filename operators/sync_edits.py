"""*Sync from Blender* on an object whose rigid body a build made: only the values the artist edited in
Blender's rigid-body panel since then come back into the settings, each named.

What Blender does not hold (a gravity factor, initial velocities, a centre of mass, inertia, a sphere
fitted to a cube, a material's combine modes) stays as the settings say (`build/built_values`).
"""

from __future__ import annotations

from dataclasses import replace

import bpy

from ..io.blender.adopt import from_bodies
from ..io.blender.builder import joint_readback, live
from ..io.omi import model
from ..properties import convert, convert_build, library, object_physics

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
