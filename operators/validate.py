"""Validate the scene's OMI settings into a list the artist can walk through, one click per culprit."""

from __future__ import annotations

import bpy
from bpy.props import IntProperty

from ..properties.session import authoring_state
from .common import OperatorResult, plural, scene_of, view_layer_of
from .select import select_only
from .validate_checks import check_scene


class OMI_OT_validate_scene(bpy.types.Operator):
    """List every problem that would make the export wrong or non-portable"""

    bl_idname = "omi.validate_scene"
    bl_label = "Validate Physics"
    bl_options = {'REGISTER'}  # writes only session state, nothing to undo

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return context.scene is not None and context.window_manager is not None

    def execute(self, context: bpy.types.Context) -> OperatorResult:
        problems = check_scene(scene_of(context), context.evaluated_depsgraph_get())
        state = authoring_state(context)
        state.problems.clear()
        for problem in problems:
            item = state.problems.add()
            item.name = problem.object_name
            item.code = problem.code
            item.message = problem.message
            item.severity = problem.severity.upper()  # the list's enum identifier
        state.problems_active_index = 0
        state.checked = True
        errors = sum(problem.severity == "error" for problem in problems)
        if not problems:
            self.report({'INFO'}, "No problems: the physics will export as shown")
        else:
            self.report({'WARNING'} if errors else {'INFO'},
                        f"{plural(errors, 'error')}, {plural(len(problems) - errors, 'other problem')}")
        return {'FINISHED'}


class OMI_OT_select_problem(bpy.types.Operator):
    """Select the object a validation problem is about, and make it active"""

    bl_idname = "omi.select_problem"
    bl_label = "Select Problem Object"
    bl_options = {'REGISTER', 'UNDO'}

    index: IntProperty(name="Problem", default=-1, description="Problem row; -1 is the active row")

    @classmethod
    def description(cls, context: bpy.types.Context, properties: bpy.types.OperatorProperties) -> str:
        """The problem's whole message, then what the button does: a row cuts the message at its width."""
        problems = authoring_state(context).problems if context.window_manager is not None else ()
        index = authoring_state(context).problems_active_index if properties.index < 0 else properties.index
        if 0 <= index < len(problems):
            problem = problems[index]
            return f"{problem.name or 'Scene'}: {problem.message}.\nClick to select the object"
        return cls.__doc__ or ""

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        if context.window_manager is None or not len(authoring_state(context).problems):
            cls.poll_message_set("Validate the scene first")
            return False
        return True

    def execute(self, context: bpy.types.Context) -> OperatorResult:
        state = authoring_state(context)
        index = state.problems_active_index if self.index < 0 else self.index
        if not 0 <= index < len(state.problems):
            return {'CANCELLED'}
        problem = state.problems[index]
        obj = scene_of(context).objects.get(problem.name)
        if obj is None:
            self.report({'WARNING'}, f"{problem.name or 'The scene'}: {problem.message}")
            return {'CANCELLED'}
        select_only(view_layer_of(context), obj)
        state.problems_active_index = index
        self.report({'INFO'}, f"{obj.name}: {problem.message}")
        return {'FINISHED'}


CLASSES: tuple[type, ...] = (OMI_OT_validate_scene, OMI_OT_select_problem)
