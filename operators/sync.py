"""Sync both ways between OMI settings and Blender rigid bodies, with the importer's and exporter's code.

Settings -> Blender builds rigid bodies and constraints the way the importer does, so the artist can
press play to preview; Blender -> settings adopts an existing rigid body scene the way the exporter
reads untagged rigid bodies.
"""

from __future__ import annotations

from dataclasses import replace

import bpy
from bpy.props import EnumProperty

from ..io.blender.adopt import from_bodies, from_constraints
from ..io.blender.builder import built_values, rigid_body
from ..io.blender.tables import markers
from ..io.omi import model
from ..properties import convert, convert_build, homes, library, object_physics
from . import sync_edits
from .common import OperatorResult, plural, scene_of, selected_objects

SCOPE_ITEMS = [
    ('SCENE', "Whole Scene", "Every object in the scene", 0),
    ('SELECTED', "Selected", "Only the selected objects", 1),
]


def _objects(context: bpy.types.Context, scope: str) -> list[bpy.types.Object]:
    return list(scene_of(context).objects) if scope == 'SCENE' else selected_objects(context)


def _mesh_object(ref: model.MeshRef) -> bpy.types.Object | None:
    return ref.object if isinstance(ref, from_bodies.RigidBodyMesh) else ref


def adopt_rigid_body(obj: bpy.types.Object, bl_scene: bpy.types.Scene, issues: list[model.Issue] | None) -> bool:
    """Write the object's Blender rigid body into its OMI settings (the export's reading of it); False when
    it has none."""
    depsgraph = bpy.context.evaluated_depsgraph_get()
    physics = from_bodies.rigid_body_physics(obj, depsgraph, issues, with_filter=from_bodies.filters_needed(bl_scene))
    if physics is None:
        return False
    settings = object_physics(obj)
    settings.use_motion = physics.motion is not None
    if physics.motion is not None:  # the keys kept from an imported file stay (Blender has no place for them)
        convert.apply_motion(replace(physics.motion, unknown=convert.kept(settings.motion.unknown_json)),
                             settings.motion)
    settings.use_collider = physics.collider is not None
    collider = physics.collider
    if collider is not None and collider.shape is not None:
        settings.collider.is_compound = False
        if isinstance(collider.shape.mesh, from_bodies.RigidBodyMesh) and not collider.shape.mesh.evaluated:
            from_bodies.warn(issues, obj, "its collider uses the mesh without modifiers ('Base'); the OMI settings use "
                       "the mesh with modifiers")
        shape = settings.collider.shape
        convert.apply_shape(replace(collider.shape, unknown=convert.kept(shape.unknown_json),
                                    type_unknown=convert.kept(shape.type_unknown_json)),
                            shape, obj, resolve_mesh=_mesh_object, issues=issues, pointer="/collider/shape")
        settings.collider.shape.use_offset = False
        material = collider.physics_material
        settings.collider.physics_material = "" if material is None else library.material_from_model(bl_scene,
                                                                                                      material)
        collision_filter = collider.collision_filter
        settings.collider.collision_filter = ("" if collision_filter is None
                                              else library.filter_from_model(bl_scene, collision_filter, issues))
    return True


def adopt_constraint(obj: bpy.types.Object, issues: list[model.Issue] | None) -> bool:
    """Write the object's Blender rigid body constraint into its OMI joint settings; False when unusable.

    The joint frame is the constraint object itself, connected to `object2`; the export finds the
    joint's own body through the constraint's `object1`.
    """
    joint = from_constraints.constraint_joint(obj, issues)
    if joint is None:
        return False
    settings = object_physics(obj)
    settings.use_joint = True
    pg = settings.joint  # the joint's kept keys stay; its limits and drives are new
    replaced = sorted({key for item in (*pg.limits, *pg.drives) for key in convert.kept(item.unknown_json)})
    if replaced and issues is not None:
        issues.append(model.Issue("/joint", f"object {obj.name!r}: its limits and drives are made anew from the "
                                            f"constraint; the keys kept from the file on the old ones are dropped: "
                                            f"{', '.join(replaced)}"))
    kept = replace(joint.settings, unknown=convert.kept(pg.settings_unknown_json))
    convert.apply_joint(model.Joint(kept, joint.object2, joint.enable_collision, convert.kept(pg.unknown_json)), pg,
                        obj, resolve_node=lambda ref: ref, issues=issues)
    return True


def report_issues(operator: bpy.types.Operator, issues: list[model.Issue]) -> None:
    """Every issue as a warning, notes (what Blender cannot express) as info: the Info editor keeps them all."""
    for issue in issues:
        operator.report({'INFO'} if issue.severity == "info" else {'WARNING'}, issue.message)


class OMI_OT_sync_to_rigid_bodies(bpy.types.Operator):
    """Remake every Blender rigid body and constraint from the OMI settings (a repair: edits keep them in step
    already while Live Rigid Bodies is on)"""

    bl_idname = "omi.sync_to_rigid_bodies"
    bl_label = "Rebuild Rigid Bodies"
    bl_options = {'REGISTER', 'UNDO'}

    scope: EnumProperty(name="Objects", items=SCOPE_ITEMS, default='SCENE')

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return context.scene is not None and getattr(context, "mode", 'OBJECT') == 'OBJECT'

    def execute(self, context: bpy.types.Context) -> OperatorResult:
        objects = [obj for obj in _objects(context, self.scope) if object_physics(obj).has_physics]
        homes.release(objects)  # a rebuild remakes the rigid bodies that hold their masses
        issues: list[model.Issue] = []
        # the settings become model values first: the build reads no settings (as on import)
        scene = scene_of(context)
        rigid_body.build_rigid_bodies(scene, objects, convert_build.SettingsPhysics(scene, issues),
                                      issues)
        homes.settle(objects)
        bodies = sum(obj.rigid_body is not None for obj in objects)
        constraints = sum(obj.rigid_body_constraint is not None for obj in scene_of(context).objects)
        self.report({'INFO'}, f"{plural(bodies, 'rigid body')} and {plural(constraints, 'constraint')} "
                              "rebuilt: press play to preview")
        report_issues(self, issues)
        return {'FINISHED'}


class OMI_OT_sync_from_rigid_bodies(bpy.types.Operator):
    """Store the Blender rigid bodies and constraints of the scene as OMI settings"""

    bl_idname = "omi.sync_from_rigid_bodies"
    bl_label = "Sync from Blender Rigid Bodies"
    bl_options = {'REGISTER', 'UNDO'}

    scope: EnumProperty(name="Objects", items=SCOPE_ITEMS, default='SCENE')

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return context.scene is not None

    def execute(self, context: bpy.types.Context) -> OperatorResult:
        issues: list[model.Issue] = []
        bodies = constraints = edits = agreeing = 0
        objects = _objects(context, self.scope)
        # What Sync to Blender generated stands for settings that already exist on its owner.
        generated = [obj for obj in objects if markers.is_generated(obj)]
        for obj in objects:
            if markers.is_generated(obj):
                continue
            if obj.rigid_body is not None:
                edited = built_values.changed(obj) if object_physics(obj).has_physics else None
                if edited is None:  # a rigid body no build made: read whole, as the export reads it
                    if object_physics(obj).has_physics:
                        issues.append(model.Issue("", f"object {obj.name!r}: its settings are read anew from its "
                                                      "Blender rigid body (no build made it)", "warning"))
                    bodies += adopt_rigid_body(obj, scene_of(context), issues)
                elif edited:
                    edits += sync_edits.adopt_edits(obj, scene_of(context), edited, issues)
                else:
                    agreeing += 1
                built_values.record([obj])  # the settings and the rigid body agree now
            if obj.rigid_body_constraint is not None and adopt_constraint(obj, issues):
                constraints += 1
        if not bodies and not constraints and not edits and not agreeing:
            self.report({'INFO'}, "No Blender rigid bodies or constraints to adopt")
            report_issues(self, issues)
            return {'CANCELLED'}
        self.report({'INFO'}, f"Adopted {plural(bodies, 'rigid body')} and {plural(constraints, 'constraint')}; "
                              f"{plural(edits, 'value')} edited in Blender taken into the settings; "
                              f"{plural(agreeing, 'body')} unchanged since the last build"
                              + (f"; skipped {plural(len(generated), 'generated object')}" if generated else ""))
        report_issues(self, issues)
        return {'FINISHED'}


CLASSES: tuple[type, ...] = (OMI_OT_sync_to_rigid_bodies, OMI_OT_sync_from_rigid_bodies)
