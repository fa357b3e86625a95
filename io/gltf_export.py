"""glTF exporter hooks (io_scene_gltf2 user extension): thin, calls io/blender/export.

The exporter swallows exceptions raised by hooks (it logs one line and carries on), so every hook
catches at its boundary and reports through the export log, naming the object it was working on.
"""

from __future__ import annotations

from typing import Any

import bpy

from ..properties.edits import EDITED
from .blender import gc_pause, gltf_compat, recursion_limit
from .blender.animation import curves
from .blender.bones.rig_export import RagdollExport
from .blender.builder import kinematic_drive, live
from .blender.export.physics import PhysicsExport
from .blender.tables import markers
from .export_tagged import TaggedSettings
from .omi import model

# The add-on's own data on objects, never to be written as glTF extras: the settings PropertyGroup and
# the ID property markers of the Blender rigid body builder.
_PRIVATE_PROPERTIES = ("omi_physics", *markers.PRIVATE_PROPERTIES)
_BLACK_LISTED_KEY = "omi_physics_black_listed"
_PAUSED_WORLD_KEY = "omi_physics_paused_world"  # the rigid-body world switched off for this export
_HELD_DRIVES_KEY = "omi_physics_held_drives"  # kinematic velocity drivers muted for this export
_HELD_FOLLOWS_KEY = "omi_physics_held_follows"  # non-mesh bodies' Child Of their rigid body, muted for this export


def _log_error(export_settings: dict, message: str) -> None:
    """A failure inside a hook, shown to the artist as a warning: the file is still written, and an error
    report would make a scripted `bpy.ops.export_scene.gltf` call raise after the export succeeded."""
    log = export_settings.get("log")
    if log is not None:
        log.warning(f"{model.LOG_PREFIX}{model.HOOK_FAILURE}{message}", popup=True)


class glTF2ExportUserExtension:
    """Created by the glTF exporter once per export."""

    def __init__(self) -> None:
        self.enabled = True
        self._physics: PhysicsExport | None = None
        self._ragdoll: RagdollExport | None = None

    def _session(self, export_settings: dict) -> PhysicsExport:
        if self._physics is None:
            scene = bpy.context.scene
            assert scene is not None, "the exporter runs in a scene"
            self._physics = PhysicsExport(export_settings, scene, TaggedSettings(scene))
        return self._physics

    def gather_tree_filter_tag_hook(self, vtree: Any, export_settings: dict) -> None:
        try:
            session = self._session(export_settings)
            shape_meshes = session.drop_generated(vtree)
            if session.enabled:
                self._ragdoll = RagdollExport(export_settings)
                self._ragdoll.prepare(vtree, session.warn)  # bone parts: physics on the bones' nodes
            if not session.hides_any_render_mesh(shape_meshes):
                # No render mesh to leave out: an instance attribute of None makes the exporter skip the
                # mesh hook (it looks hooks up with getattr) instead of calling it for every object.
                self.gather_node_mesh_hook = None  # type: ignore[method-assign,assignment]  # see above
            if session.enabled:
                scene = bpy.context.scene
                assert scene is not None, "the exporter runs in a scene"
                for message in TaggedSettings.left_out_by_the_exporter(scene.objects, export_settings):
                    session.warn(message)
        except Exception as error:  # hook boundary: report, never raise
            _log_error(export_settings, f"could not leave out the generated rigid body helpers: {error}")

    def gather_node_mesh_hook(self, hook_node_mesh: Any, blender_object: Any, export_settings: dict) -> None:
        """A physics shape stand-in, or an object used only as a collision mesh, is not rendered."""
        try:
            if self._session(export_settings).hides_render_mesh(blender_object):
                hook_node_mesh.export_mesh = False
        except Exception as error:  # hook boundary: report, never raise
            _log_error(export_settings, f"collision mesh check failed on {getattr(blender_object, 'name', '?')!r}: "
                                        f"{error}")

    def gather_node_hook(self, gltf_node: Any, blender_object: Any, export_settings: dict) -> None:
        try:
            self._session(export_settings).record(gltf_node, blender_object)
        except Exception as error:  # hook boundary: report, never raise
            _log_error(export_settings, f"object {getattr(blender_object, 'name', '?')!r} skipped: {error}")

    def gather_joint_hook(self, gltf_node: Any, blender_bone: Any, export_settings: dict) -> None:
        """A bone followed by (or carrying) a ragdoll part: the part's physics goes on the bone's node."""
        try:
            ragdoll = self._ragdoll
            part = ragdoll.part_of(blender_bone) if ragdoll is not None else None
            if ragdoll is not None and part is not None:
                self._session(export_settings).record(gltf_node, part.part, ragdoll.node_world(part))
        except Exception as error:  # hook boundary: report, never raise
            _log_error(export_settings, f"bone {getattr(blender_bone, 'name', '?')!r}: its physics skipped: {error}")

    def gather_scene_hook(self, gltf_scene: Any, blender_scene: Any, export_settings: dict) -> None:
        try:
            self._session(export_settings).write_scene(gltf_scene, blender_scene)
        except Exception as error:  # hook boundary: report, never raise
            _log_error(export_settings, f"scene {getattr(blender_scene, 'name', '?')!r}: physics not written: {error}")

    def gather_gltf_hook(self, _active_scene_idx: Any, _scenes: Any, animations: list,
                         export_settings: dict) -> None:
        """Keyframed physics becomes channels of the gathered animations (before the buffer is written)."""
        try:
            self._session(export_settings).attach_animation(animations)
        except Exception as error:  # hook boundary: report, never raise
            _log_error(export_settings, f"physics animation not written: {error}")

    def gather_gltf_extensions_hook(self, gltf: Any, export_settings: dict) -> None:
        # The collector stays off until the gathered document is frozen (until the post-export step: the
        # exporter's conversion passes follow): what finishing made is frozen with it, not walked first.
        with gc_pause.collector_paused():
            try:
                self._session(export_settings).finish(gltf)
            except Exception as error:  # hook boundary: report, never raise
                _log_error(export_settings, f"document-level physics not written: {error}")
            gc_pause.freeze_gathered()

    def gather_gltf_encoded_hook(self, _gltf_format: Any, _sort_order: Any, export_settings: dict) -> None:
        """The finished physics JSON goes into the document about to be encoded (`PhysicsExport.encode`)."""
        try:
            if self._physics is not None:
                self._physics.encode()
        except Exception as error:  # hook boundary: report, never raise
            _log_error(export_settings, f"physics not written into the finished document: {error}")

    def passthrough_extension_data(self, passthrough_extensions: list, gltf: Any, export_settings: dict) -> None:
        """Blender 5.2+: the physics JSON, put in its written form (`PhysicsExport.passthrough`), is let
        through the exporter's two clean-up passes, which would rebuild every node's copy of it."""
        try:
            if self._physics is not None:
                names = self._physics.passthrough(gltf)
                passthrough_extensions.extend(name for name in names if name not in passthrough_extensions)
        except Exception as error:  # hook boundary: report, never raise
            _log_error(export_settings, f"physics JSON left to the exporter's clean-up: {error}")


def glTF2_pre_export_callback(export_settings: dict[str, Any]) -> None:  # noqa: N802
    """Runs before the exporter gathers anything: keep the add-on's settings out of glTF extras.

    Blender 4.2 lists PropertyGroup pointers among an object's custom properties, so the exporter's
    'Custom Properties' option would write them as extras (5.0 no longer does); the rigid body builder's
    markers are plain ID properties on both. The names go on the exporter's black list for this export
    only, and only those that were not on it already come off again afterwards.
    """
    gc_pause.thaw()  # an export that failed after freezing never reached its post-export step
    try:
        black_list = gltf_compat.extras_black_list()
        if black_list is None:
            _log_error(export_settings, "the exporter's extras black list was not found; with 'Custom Properties' "
                                        "on, the OMI settings may be written as extras")
            return
        added = [name for name in _PRIVATE_PROPERTIES if name not in black_list]
        black_list.extend(added)
        export_settings[_BLACK_LISTED_KEY] = added
    except Exception as error:  # hook boundary: report, never raise
        _log_error(export_settings, f"could not keep the OMI settings out of extras: {error}")
    _allow_deep_hierarchies(export_settings)
    _pause_simulation(export_settings)
    EDITED.paused = True  # the live link builds nothing while the exporter evaluates frames
    try:
        export_settings[_HELD_FOLLOWS_KEY] = live.hold_follows(bpy.data.objects)
    except Exception as error:  # hook boundary: report, never raise
        _log_error(export_settings, f"could not keep the simulation out of non-mesh bodies' animation: {error}")
    try:
        export_settings[_HELD_DRIVES_KEY] = kinematic_drive.hold_drives(bpy.data.objects)
    except Exception as error:  # hook boundary: report, never raise
        _log_error(export_settings, f"could not hold kinematic bodies at their starting place: {error}")


_TRANSFORM_PATHS = frozenset(("location", "rotation_euler", "rotation_quaternion", "rotation_axis_angle", "scale"))


def _simulated_and_keyed(obj: Any) -> bool:
    """A dynamic rigid body whose transform is keyed: the simulation would hide its keys from the exporter."""
    body = obj.rigid_body
    if body is None or body.type != 'ACTIVE' or body.kinematic:
        return False
    return any(curve.data_path in _TRANSFORM_PATHS for curve in curves.fcurves(obj))


def _pause_simulation(export_settings: dict[str, Any]) -> None:
    """The exporter samples animation by evaluating frames, and a rigid-body world that is on would replace a
    dynamic body's keyed transforms with Bullet's simulation (a key at y = 5 exported as the floor it fell to,
    a turn lost). A file's node animation is what was authored; the engine simulates the physics itself. So
    the world is off while the exporter gathers (Bake to Keyframes first to export a simulation)."""
    try:
        scene = bpy.context.scene
        assert scene is not None, "the exporter runs in a scene"
        world = scene.rigidbody_world
        # No action in the file: nothing is keyed (the walk over every object is left out)
        if world is not None and world.enabled and bpy.data.actions \
                and any(_simulated_and_keyed(obj) for obj in scene.objects):
            world.enabled = False  # only then: switching it resets the simulation cache of the scene
            export_settings[_PAUSED_WORLD_KEY] = world
    except Exception as error:  # hook boundary: report, never raise
        _log_error(export_settings, f"could not keep the rigid-body simulation out of the exported animation: {error}")


def _allow_deep_hierarchies(export_settings: dict[str, Any]) -> None:
    """The exporter walks the object tree recursively: room for it to go as deep as the file's tree."""
    try:
        depth = recursion_limit.object_depth(bpy.data.objects)
        if depth > recursion_limit.MAX_DEPTH:
            _log_error(export_settings, f"the object hierarchy is {depth} levels deep, deeper than the "
                                        f"{recursion_limit.MAX_DEPTH} the add-on lets Blender's glTF exporter "
                                        "recurse through: the export will fail")
        recursion_limit.allow(depth, recursion_limit.EXPORT_CALLS_PER_LEVEL)
    except Exception as error:  # hook boundary: report, never raise
        _log_error(export_settings, f"could not make room for a deep object hierarchy: {error}")


def glTF2_post_export_callback(export_settings: dict[str, Any]) -> None:  # noqa: N802
    """Runs after the exporter gathered everything, before the file is written: undo the pre-export step."""
    gc_pause.thaw()
    recursion_limit.restore()
    try:
        live.release_follows(export_settings.pop(_HELD_FOLLOWS_KEY, None) or [])
    except Exception as error:  # hook boundary: report, never raise
        _log_error(export_settings, f"could not let non-mesh bodies follow their rigid bodies again: {error}")
    try:
        kinematic_drive.resume_drives(export_settings.pop(_HELD_DRIVES_KEY, None) or [])
    except Exception as error:  # hook boundary: report, never raise
        _log_error(export_settings, f"could not set the kinematic bodies' velocity drivers going again: {error}")
    world = export_settings.pop(_PAUSED_WORLD_KEY, None)
    if world is not None:
        try:
            world.enabled = True
        except Exception as error:  # hook boundary: report, never raise
            _log_error(export_settings, f"could not switch the rigid-body world back on: {error}")
    try:
        black_list = gltf_compat.extras_black_list()
        for name in export_settings.pop(_BLACK_LISTED_KEY, None) or ():
            if black_list is not None and name in black_list:
                black_list.remove(name)
    except Exception as error:  # hook boundary: report, never raise
        _log_error(export_settings, f"could not restore the exporter's extras list: {error}")
    EDITED.paused = False  # last: what the steps above put back is the scene as it was, not an edit
