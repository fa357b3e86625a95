"""Authoring state that belongs to the session, not the file: validation results, list cursors.

Kept on the WindowManager (`WindowManager.omi_authoring`), which Blender does not save with scene
data, so a stale problem list never travels inside a .blend file.
"""

from __future__ import annotations

import bpy
from bpy.props import CollectionProperty, EnumProperty, IntProperty, StringProperty

from ..io.omi.model import Severity

SEVERITY_ITEMS = [
    ('ERROR', "Error", "The export will be wrong or rejected", 'ERROR', 0),
    ('WARNING', "Warning", "The export works but is not portable to every engine", 'INFO', 1),
    ('INFO', "Info", "Worth knowing; nothing is lost", 'QUESTION', 2),
]


class OMIValidationProblem(bpy.types.PropertyGroup):
    """One problem found by the scene check; `name` holds the offending object's name."""

    code: StringProperty(name="Code", description="Stable identifier of the check")
    message: StringProperty(name="Message", description="What is wrong and how to fix it")
    severity: EnumProperty(name="Severity", items=SEVERITY_ITEMS, default='WARNING')


def _select_listed_object(state: OMIAuthoringState, context: bpy.types.Context) -> None:
    """Clicking a row of the physics objects list selects that object and makes it active."""
    view_layer = context.view_layer
    if context.scene is None or view_layer is None:  # a list row is clicked in a window's scene
        return
    objects = context.scene.objects
    index = state.physics_objects_index
    if not 0 <= index < len(objects) or objects[index].name not in view_layer.objects:
        return
    chosen = objects[index]
    for obj in context.selected_objects:
        obj.select_set(False)
    chosen.select_set(True)
    view_layer.objects.active = chosen


class OMIAuthoringState(bpy.types.PropertyGroup):
    problems: CollectionProperty(type=OMIValidationProblem)
    problems_active_index: IntProperty(name="Problem", options={'HIDDEN'})
    checked: bpy.props.BoolProperty(options={'HIDDEN'}, description="The scene has been checked this session")
    member_system_index: IntProperty(options={'HIDDEN'})
    listed_system_index: IntProperty(options={'HIDDEN'})
    physics_objects_index: IntProperty(name="Physics Object", options={'HIDDEN'}, update=_select_listed_object,
                                       description="The physics object selected in the list")


CLASSES: tuple[type, ...] = (OMIValidationProblem, OMIAuthoringState)


def authoring_state(context: bpy.types.Context) -> OMIAuthoringState:
    """The session's authoring state (typed accessor for `window_manager.omi_authoring`)."""
    window_manager = context.window_manager
    assert window_manager is not None, "Blender has its window manager, also in a background run"
    return window_manager.omi_authoring  # type: ignore[attr-defined]  # added by register (properties/__init__)


def list_problems(window_manager: bpy.types.WindowManager, problems: list[tuple[str, Severity, str]]) -> None:
    """Put (object name, severity, message) problems where the artist looks: the sidebar's Validate list
    (an import's problems replace the last check's, and say so in their messages). Severities are spelled
    as io/omi's Issues spell them; the list's enum identifiers are their upper case."""
    state = window_manager.omi_authoring  # type: ignore[attr-defined]  # added by register
    state.problems.clear()
    for name, severity, message in problems:
        item = state.problems.add()
        item.name, item.severity, item.message, item.code = name, severity.upper(), message, "import"
    state.problems_active_index = 0
    state.checked = True
