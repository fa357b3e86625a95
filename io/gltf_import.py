"""glTF importer hooks (io_scene_gltf2 user extension): thin, calls io/omi and io/blender.

The scene's glTF import options (`Scene.omi_physics.import_physics` / `import_rigid_bodies`) decide
what happens. Every problem goes to the importer's log as a warning and the import goes on.
"""

from __future__ import annotations

import traceback
from typing import Any

import bpy

from ..properties import edits, scene_physics
from ..properties.session import list_problems
from . import kept_extensions, mesh_child_fold
from .blender import import_repair, number_digits, recursion_limit
from .blender.animation.imports import keyframes
from .blender.builder import rigid_body_world
from .blender.export import structure_moves
from .blender.gc_pause import collector_paused
from .blender.gravity import scene_gravity
from .import_nodes import ImportPlan, document_json
from .omi import model, summary
from .omi.dialects import builtin, registry  # noqa: F401 - builtin: the built-in units registered
from .omi.json_types import array_index


class glTF2ImportUserExtension:
    """Created by the glTF importer once per import."""

    def __init__(self) -> None:
        from io_scene_gltf2.io.com.gltf2_io_extensions import Extension  # noqa: PLC0415 - lazy by design

        # Files that list the physics extensions (OMI, KHR) as required import instead of being refused.
        self.extensions = [Extension(name=name, extension={}, required=True)
                           for name in dict.fromkeys(name for dialect in registry.names()
                                                     for name in registry.owned_names(dialect))]
        self.plan: ImportPlan | None = None
        self.issues: list[model.Issue] = []
        number_digits.allow()  # made before the importer parses the JSON: long integers parse (see there)
        self._folds: mesh_child_fold.MeshChildFold | None = None
        # Asked for every node by the importer: only set when the file has a target's mesh-child layout (_before).
        self.gather_import_node_before_hook: Any = None
        self._present = {obj.session_uid for obj in bpy.data.objects}  # the objects made before this import

    def gather_import_gltf_before_hook(self, gltf: Any) -> None:
        """Read the physics and prepare the importer's data before it creates any object."""
        with collector_paused():  # every step here allocates per node (see gc_pause)
            self._before(gltf)

    def _before(self, gltf: Any) -> None:
        described = None  # the importer's data as JSON, while no step changed it
        try:
            repaired = import_repair.repair(gltf)  # what would make Blender's importer fail or crash
            self.issues.extend(repaired.issues)
            described = repaired.document
        except Exception as error:
            self._failed(gltf, "checking the file's structure", error)
        try:
            scene = bpy.context.scene
            assert scene is not None, "the importer runs in a scene"
            options = scene_physics(scene)
            if not options.import_physics:
                return
            self._folds = mesh_child_fold.MeshChildFold(gltf)  # before the read: baked scales go back first
            self.plan = ImportPlan.read(gltf, options.import_rigid_bodies)
            self._folds.move_meshes(gltf)
            if self._folds.children:
                self.gather_import_node_before_hook = self._node_before
            self.issues.extend(self.plan.doc.issues)
            if not self.plan.doc.nodes:
                return
            self.issues.extend(import_repair.physics_issues(gltf, self.plan.doc,
                                                            described if not self._folds.children else None))
            if options.import_rigid_bodies:
                rigid_body_world.ensure_world(scene)  # cheap now, before the file's objects exist
            self.plan.prepare(gltf)
        except Exception as error:  # a hook must never end the import
            self._failed(gltf, "reading the physics", error)
            self.plan = None

    def _node_before(self, _vnode: Any, gltf_node: Any, gltf: Any) -> None:
        try:
            if self._folds is not None and gltf_node is not None:
                self._folds.skip_child(gltf, gltf_node)
        except Exception as error:
            self._failed(gltf, "folding a Godot mesh child into its body", error)

    def gather_import_scene_after_nodes_hook(self, _gltf_scene: Any, bl_scene: bpy.types.Scene, gltf: Any) -> None:
        """Write the settings into the created objects and build the Blender rigid bodies."""
        if self.plan is not None and self.plan.doc.gravity is not None:
            self.issues.extend(scene_gravity.to_scene(self.plan.doc.gravity, bl_scene))
        try:
            if self.plan is not None:  # a file without physics may hold extensions nobody here reads
                self.issues.extend(kept_extensions.keep(gltf, self.plan.objects(gltf), bl_scene))
        except Exception as error:
            self._failed(gltf, "keeping the extensions it does not read", error)
        try:
            if self.plan is not None and self.plan.doc.nodes:
                with collector_paused(), edits.paused():  # the import builds what it writes
                    self.plan.finish(gltf, bl_scene, self.issues)
        except Exception as error:
            self._failed(gltf, "creating the physics", error)
        try:
            if self.plan is not None and self.plan.doc.nodes:
                # What an export will restructure, said now (the export's own rules, asked in advance).
                self.issues.extend(structure_moves.predicted(self.plan.doc, self.plan.objects(gltf)))
        except Exception as error:
            self._failed(gltf, "predicting what an export will restructure", error)
        finally:
            self._log(gltf)

    def gather_import_scene_after_animation_hook(self, _gltf_scene: Any, bl_scene: bpy.types.Scene,
                                                 gltf: Any) -> None:
        """Physics channels (KHR_animation_pointer) become keyframes on the settings, after Blender's own
        animation import, so they land in the actions it made."""
        try:
            if self.plan is not None and self.plan.doc.nodes and gltf.data.animations:
                with collector_paused():
                    keyframes.import_animation(gltf, document_json(gltf.data), self.plan.objects(gltf), bl_scene,
                                               self.issues, rigid_bodies=self.plan.build_rigid_bodies)
        except Exception as error:
            self._failed(gltf, "importing the physics animation", error)
        finally:
            self._log(gltf)
            recursion_limit.restore()  # the importer's last walk of the node tree is done
            number_digits.restore()
        if self.plan is not None and self.plan.build_rigid_bodies and not gltf.data.animations:
            # as its build recorded them (an animation import may key or rebuild what it recorded: checked)
            edits.EDITED.settled = {obj.session_uid for obj in bpy.data.objects
                                    if obj.session_uid not in self._present}

    def _failed(self, gltf: Any, doing: str, error: Exception) -> None:
        gltf.log.error(f"{model.LOG_PREFIX}{model.HOOK_FAILURE}failed while {doing}: {type(error).__name__}: {error}")
        gltf.log.debug(traceback.format_exc())

    def _log(self, gltf: Any) -> None:
        """Each issue named by node: problems as warnings, counted in one popup; notes (what Blender
        cannot show, legacy forms read) as info in the Info editor, counted as no problem."""
        listed: list[tuple[str, model.Severity, str]] = []
        said: list[tuple[str, str]] = []
        for issue in self.issues:
            said.append(("info" if issue.severity == "info" else "warning",
                         f"{self._where(gltf, issue.pointer)}{issue.message}"))
            if issue.severity != "info":
                listed.append((self._object_name(gltf, issue.pointer), issue.severity,
                               f"import: {self._where(gltf, issue.pointer)}{issue.message}"))
        objects = bpy.data.objects  # one line per kind: the Validate list has every row
        for severity, text in summary.summarise(said, is_name=lambda name: name in objects):
            if severity == "info":
                gltf.log.info(f"{model.LOG_PREFIX}{text}", popup=True)
            else:
                gltf.log.warning(f"{model.LOG_PREFIX}{text}")
        if listed:
            window_manager = bpy.context.window_manager
            assert window_manager is not None, "Blender has its window manager, also in a background run"
            list_problems(window_manager, listed)
            gltf.log.warning(f"{model.LOG_PREFIX}{len(listed)} problem(s) in the file's physics: listed in the "
                             "3D viewport's sidebar, Physics > Validate (each row selects its object)", popup=True)
        self.issues = []

    def _object_name(self, gltf: Any, pointer: str) -> str:
        """The name of the object the importer made for the node a pointer is in ('' for the scene)."""
        parts = pointer.split("/")
        index = array_index(parts[2]) if len(parts) > 2 and parts[1] == "nodes" else None
        if index is not None and self.plan is not None:
            obj = self.plan.objects(gltf).get(index)
            return obj.name if obj is not None else ""
        return ""

    def _where(self, gltf: Any, pointer: str) -> str:
        """`/nodes/3/...` -> `node 3 'Name' (/nodes/3/...): `; other pointers as they are."""
        if not pointer:
            return ""
        parts = pointer.split("/")
        index = array_index(parts[2]) if len(parts) > 2 and parts[1] == "nodes" else None
        if index is not None and self.plan is not None:
            name = self.plan.node_name(gltf, index)
            if name:
                return f"node {parts[2]} {name!r} ({pointer}): "
        return f"{pointer}: "
