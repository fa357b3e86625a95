"""Adopt Physics Settings: another Blender glTF-physics add-on's settings become this add-on's, in one undo step.

The other add-on need not be installed: its values are read from the objects' stored properties
(`io/blender/adopt/peer_props`) and never changed, so the artist can go back. Each object is written through
the same model -> settings path an import uses, and marked adopted, so export and Validate stop naming it.
"""

from __future__ import annotations

from dataclasses import replace

import bpy

from ..io.blender.adopt import from_bodies, from_constraints, from_eoin, from_zycar, peer_findings, peer_props
from ..io.blender.tables import markers
from ..io.omi import model
from ..io.omi.named import first_few
from ..properties import convert, object_physics
from .common import OperatorResult, plural, scene_of
from .sync import adopt_rigid_body, report_issues


def _mesh_object(ref: model.MeshRef) -> bpy.types.Object | None:
    return ref.object if isinstance(ref, from_bodies.RigidBodyMesh) else ref


def _adopt_joint(obj: bpy.types.Object, issues: list[model.Issue]) -> bool:
    """The object's Blender constraint as a joint, with the drives switched on in the other add-on's panel."""
    joint = from_constraints.constraint_joint(obj, issues)
    if joint is None:
        return False
    drives = from_eoin.eoin_drives(peer_props.eoin_constraint_values(obj))
    settings = object_physics(obj)
    settings.use_joint = True
    joint_settings = replace(joint.settings, drives=(*joint.settings.drives, *drives))
    convert.apply_joint(model.Joint(joint_settings, joint.object2, joint.enable_collision), settings.joint, obj,
                        resolve_node=lambda ref: ref, issues=issues)
    return True


def adopt(obj: bpy.types.Object, found: peer_props.PeerSettings, scene: bpy.types.Scene,
          issues: list[model.Issue], notes: dict[str, list[str]]) -> bool:
    """Write one object's peer settings into its OMI settings; False when they hold no physics."""
    said: list[str] = []
    if found.peer == peer_props.ZYCAR:
        physics = from_zycar.zycar_physics(obj, peer_props.zycar_values(obj), said)
    else:
        if obj.rigid_body_constraint is not None and peer_props.eoin_constraint_values(obj):
            _adopt_joint(obj, issues)
        physics = None
        if obj.rigid_body is not None:
            depsgraph = bpy.context.evaluated_depsgraph_get()
            read = from_bodies.rigid_body_physics(obj, depsgraph, issues,
                                                  with_filter=from_bodies.filters_needed(scene))
            if read is not None:
                physics = from_eoin.eoin_physics(obj, read, peer_props.eoin_values(obj), said)
    for note in said:
        notes.setdefault(note, []).append(obj.name)
    if physics is not None:
        convert.apply_node_to_object(physics, obj, scene=scene, resolve_node=lambda ref: ref,
                                     resolve_mesh=_mesh_object, issues=issues)
    elif found.peer != peer_props.ZYCAR and obj.rigid_body is not None:
        adopt_rigid_body(obj, scene, issues)
    obj[markers.ADOPTED] = found.peer
    return physics is not None or object_physics(obj).has_physics


class OMI_OT_adopt_peer_settings(bpy.types.Operator):
    """Turn the physics settings another glTF-physics add-on stored on the scene's objects into OMI settings
    (that add-on's own values are kept unchanged)"""

    bl_idname = "omi.adopt_peer_settings"
    bl_label = "Adopt Physics Settings"
    bl_options = {'REGISTER', 'UNDO'}

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return context.scene is not None and getattr(context, "mode", 'OBJECT') == 'OBJECT'

    def execute(self, context: bpy.types.Context) -> OperatorResult:
        scene = scene_of(context)
        waiting = peer_findings.unadopted(scene.objects)
        if not waiting:
            self.report({'INFO'}, "No other add-on's physics settings to adopt")
            return {'CANCELLED'}
        issues: list[model.Issue] = []
        notes: dict[str, list[str]] = {}
        adopted = [found for found in waiting if adopt(found.obj, found, scene, issues, notes)]
        peer_findings.invalidate()
        report_issues(self, issues)
        for note, names in notes.items():
            self.report({'WARNING'}, f"{first_few(names)}: {note}")
        peers = sorted({found.peer for found in adopted})
        self.report({'INFO'}, f"Adopted the {' and '.join(peers) or 'other add-on'} physics of "
                              f"{plural(len(adopted), 'object')}; their own settings are unchanged")
        return {'FINISHED'}


CLASSES: tuple[type, ...] = (OMI_OT_adopt_peer_settings,)
