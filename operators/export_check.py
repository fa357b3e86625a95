"""Check Export: what the chosen export target will drop or change for this scene, listed before any file is
kept, by running the export itself into a temporary folder (the same messages an export prints)."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import bpy

from ..io.blender.export import messages
from ..io.omi.model import Severity
from ..properties import scene_physics
from ..properties.session import list_problems
from .common import OperatorResult, plural, scene_of

_SUBJECT = re.compile(r"^object '((?:[^'\\]|\\.)*)'")


class OMI_OT_check_export(bpy.types.Operator):
    """List what the chosen export target will drop or change for this scene (the export's own messages), with
    no file written"""

    bl_idname = "omi.check_export"
    bl_label = "Check Export"
    bl_options = {'REGISTER'}  # writes only session state, nothing to undo

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return context.scene is not None and context.window_manager is not None \
            and getattr(context, "mode", 'OBJECT') == 'OBJECT'

    def execute(self, context: bpy.types.Context) -> OperatorResult:
        messages.LAST_SAID.clear()
        with tempfile.TemporaryDirectory(prefix="omi_check_") as folder:
            result: set[str] = set(bpy.ops.export_scene.gltf(filepath=str(Path(folder) / "check.glb"),
                                                            export_format='GLB') or ())
        if 'FINISHED' not in result:
            self.report({'WARNING'}, "The export could not run: nothing to list")
            return {'CANCELLED'}
        said = list(messages.LAST_SAID)
        found: list[tuple[str, Severity, str]] = [
            (match.group(1) if (match := _SUBJECT.match(text)) else "", "info" if severity == "info" else "warning",
             f"export: {text}") for severity, text in said]
        assert context.window_manager is not None, "poll: a window manager"
        list_problems(context.window_manager, found)
        target = scene_physics(scene_of(context)).export_dialect
        if not said:
            self.report({'INFO'}, f"Export for {target}: nothing dropped or changed")
        else:
            self.report({'INFO'}, f"Export for {target}: {plural(len(said), 'finding')}, listed in Validate")
        return {'FINISHED'}


CLASSES: tuple[type, ...] = (OMI_OT_check_export,)
