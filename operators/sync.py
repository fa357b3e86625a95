"""Sync both ways between OMI settings and Blender rigid bodies, with the importer's and exporter's code.

Settings -> Blender builds rigid bodies and constraints the way the importer does, so the artist can
press play to preview; Blender -> settings adopts an existing rigid body scene the way the exporter
reads untagged rigid bodies.
"""

from __future__ import annotations

import bpy
from bpy.props import EnumProperty

from ..io.blender import adopt, rigid_body
from ..io.omi import model
from ..properties import object_physics
from .common import plural, selected_objects

SCOPE_ITEMS = [
    ('SCENE', "Whole Scene", "Every object in the scene", 0),
    ('SELECTED', "Selected", "Only the selected objects", 1),
]


def _objects(context: bpy.types.Context, scope: str) -> list[bpy.types.Object]:
    return list(context.scene.objects) if scope == 'SCENE' else selected_objects(context)


def report_issues(operator: bpy.types.Operator, issues: list[model.Issue]) -> None:
    """Every issue as a warning: the Info editor keeps them all, the status bar shows the last."""
    for issue in issues:
        operator.report({'WARNING'}, issue.message)


class OMI_OT_sync_to_rigid_bodies(bpy.types.Operator):
    """Build Blender rigid bodies and constraints from the OMI settings, to preview with play"""

    bl_idname = "omi.sync_to_rigid_bodies"
    bl_label = "Sync to Blender Rigid Bodies"
    bl_options = {'REGISTER', 'UNDO'}

    scope: EnumProperty(name="Objects", items=SCOPE_ITEMS, default='SCENE')

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return context.scene is not None and getattr(context, "mode", 'OBJECT') == 'OBJECT'

    def execute(self, context: bpy.types.Context) -> set[str]:
        objects = [obj for obj in _objects(context, self.scope) if object_physics(obj).has_physics]
        issues: list[model.Issue] = []
        rigid_body.build_rigid_bodies(context.scene, objects, issues)
        bodies = sum(obj.rigid_body is not None for obj in objects)
        constraints = sum(obj.rigid_body_constraint is not None for obj in context.scene.objects)
        self.report({'INFO'}, f"{plural(bodies, 'rigid body')} and {plural(constraints, 'constraint')} "
                              "ready: press play to preview")
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

    def execute(self, context: bpy.types.Context) -> set[str]:
        issues: list[model.Issue] = []
        bodies = constraints = 0
        objects = _objects(context, self.scope)
        # What Sync to Blender generated stands for settings that already exist on its owner.
        generated = [obj for obj in objects if rigid_body.is_generated(obj)]
        for obj in objects:
            if rigid_body.is_generated(obj):
                continue
            if obj.rigid_body is not None and adopt.adopt_rigid_body(obj, context.scene, issues):
                bodies += 1
            if obj.rigid_body_constraint is not None and adopt.adopt_constraint(obj, context.scene, issues):
                constraints += 1
        if not bodies and not constraints:
            self.report({'INFO'}, "No Blender rigid bodies or constraints to adopt")
            report_issues(self, issues)
            return {'CANCELLED'}
        self.report({'INFO'}, f"Adopted {plural(bodies, 'rigid body')} and {plural(constraints, 'constraint')}"
                              + (f"; skipped {plural(len(generated), 'generated object')}" if generated else ""))
        report_issues(self, issues)
        return {'FINISHED'}


CLASSES: tuple[type, ...] = (OMI_OT_sync_to_rigid_bodies, OMI_OT_sync_from_rigid_bodies)
