"""Convex decomposition: split each selected concave mesh into convex child colliders with CoACD.

CoACD ships as an abi3 wheel inside the extension (blender_manifest.toml `wheels`); on a platform with
no wheel the import fails, the operator says so, and everything else keeps working.
"""

from __future__ import annotations

import importlib
import time
from types import ModuleType

import bpy
import numpy as np
from bpy.props import BoolProperty, EnumProperty, FloatProperty, IntProperty
from mathutils import Vector

from ..io.blender.builder import shape_data
from ..io.omi.conventions import HULL_VERTEX_LIMIT
from ..properties import object_physics
from .common import OperatorResult, in_object_mode, names, plural, selected_meshes
from .shaping import collision_only, compensation, new_child, part_settings, set_offset, world_scale

PART_SUFFIX = ".part"
QUALITY_ITEMS = [
    ('DRAFT', "Draft", "Fast, coarser cuts (good for previews and many props)", 0),
    ('NORMAL', "Normal", "CoACD's default search", 1),
    ('FINE', "Fine", "A deeper search for tricky concave shapes (slow)", 2),
]
_QUALITY = {  # CoACD search settings per quality
    'DRAFT': {"resolution": 1000, "mcts_nodes": 10, "mcts_iterations": 60, "mcts_max_depth": 2},
    'NORMAL': {"resolution": 2000, "mcts_nodes": 20, "mcts_iterations": 150, "mcts_max_depth": 3},
    'FINE': {"resolution": 4000, "mcts_nodes": 30, "mcts_iterations": 300, "mcts_max_depth": 4},
}
MISSING_MESSAGE = ("Convex decomposition needs the CoACD library, which is not installed for this platform "
                   "(the extension ships it for Linux, Windows and macOS); fit convex hulls instead")


def load_coacd() -> ModuleType | None:
    """The coacd module, or None when its wheel is not installed here."""
    try:
        module = importlib.import_module("coacd")
    except (ImportError, OSError):  # OSError: the wheel's native library does not load on this system
        return None
    if hasattr(module, "set_log_level"):
        module.set_log_level("error")
    return module


def triangles(obj: bpy.types.Object, depsgraph: bpy.types.Depsgraph, scale: Vector) -> tuple[np.ndarray, np.ndarray]:
    """Vertex positions (scaled) and triangle indices of the evaluated mesh."""
    evaluated = obj.evaluated_get(depsgraph)
    mesh = evaluated.to_mesh()
    try:
        assert mesh is not None, "a mesh-like object (selected_meshes) evaluates to a mesh"
        mesh.calc_loop_triangles()
        coords = np.empty(len(mesh.vertices) * 3, np.float64)
        mesh.vertices.foreach_get("co", coords)
        tris = np.empty(len(mesh.loop_triangles) * 3, np.int32)
        mesh.loop_triangles.foreach_get("vertices", tris)
    finally:
        evaluated.to_mesh_clear()
    return coords.reshape(-1, 3) * np.asarray(scale[:]), tris.reshape(-1, 3)


def remove_previous_parts(obj: bpy.types.Object) -> int:
    """Delete the convex parts an earlier decomposition made for `obj`; return how many."""
    old = [child for child in obj.children if child.name.startswith(obj.name + PART_SUFFIX) and child.type == 'MESH'
           and object_physics(child).use_collider]
    for child in old:
        mesh = child.data
        bpy.data.objects.remove(child)
        if isinstance(mesh, bpy.types.Mesh) and mesh.users == 0:  # a Mesh: the parts are MESH objects
            bpy.data.meshes.remove(mesh)
    return len(old)


class OMI_OT_convex_decomposition(bpy.types.Operator):
    """Split each selected concave mesh into convex child colliders (CoACD)"""

    bl_idname = "omi.convex_decomposition"
    bl_label = "Convex Decomposition"
    bl_options = {'REGISTER', 'UNDO'}

    max_hulls: IntProperty(name="Max Hulls", description="Most convex parts per mesh (0: no limit)",
                           default=16, min=0, soft_max=64)
    threshold: FloatProperty(name="Concavity", description="How concave a part may stay: lower cuts finer",
                             default=0.05, min=0.01, max=1.0)
    use_vertex_budget: BoolProperty(name="Limit Hull Vertices", default=True,
                                    description="Simplify each part to at most the budget's vertices")
    vertex_budget: IntProperty(name="Vertex Budget", default=64, min=4, max=HULL_VERTEX_LIMIT)
    quality: EnumProperty(name="Quality", items=QUALITY_ITEMS, default='NORMAL')

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        if not in_object_mode(context):
            cls.poll_message_set("Switch to Object Mode")
            return False
        if not selected_meshes(context):
            cls.poll_message_set("Select concave meshes to decompose")
            return False
        return True

    def execute(self, context: bpy.types.Context) -> OperatorResult:
        coacd = load_coacd()
        if coacd is None:
            self.report({'ERROR'}, MISSING_MESSAGE)
            return {'CANCELLED'}
        depsgraph = context.evaluated_depsgraph_get()
        objects = selected_meshes(context)
        window_manager = context.window_manager
        assert window_manager is not None, "Blender has its window manager"
        started = time.perf_counter()
        made, failed = 0, []
        window_manager.progress_begin(0, len(objects))
        try:
            for step, obj in enumerate(objects):
                self.report({'INFO'}, f"Decomposing {obj.name} ({step + 1}/{len(objects)})")
                try:
                    made += self.decompose(context, coacd, obj, depsgraph)
                except (ValueError, RuntimeError):
                    failed.append(obj)
                window_manager.progress_update(step + 1)
        finally:
            window_manager.progress_end()
        seconds = time.perf_counter() - started
        done = len(objects) - len(failed)
        self.report({'INFO'}, f"Decomposed {plural(done, 'mesh')} into {plural(made, 'convex hull')} "
                              f"in {seconds:.1f} s")
        if failed:
            self.report({'WARNING'}, f"{names(failed)}: no closed geometry to decompose")
        return {'FINISHED'} if done else {'CANCELLED'}

    def decompose(self, context: bpy.types.Context, coacd: ModuleType, obj: bpy.types.Object,
                  depsgraph: bpy.types.Depsgraph) -> int:
        scale = world_scale(obj)
        vertices, tris = triangles(obj, depsgraph, scale)
        if not len(tris):
            raise ValueError(obj.name)
        parts = coacd.run_coacd(
            coacd.Mesh(vertices, tris),
            threshold=self.threshold,
            max_convex_hull=self.max_hulls if self.max_hulls > 0 else -1,
            decimate=self.use_vertex_budget,
            max_ch_vertex=self.vertex_budget,
            seed=0,
            **_QUALITY[self.quality],
        )
        remove_previous_parts(obj)
        basis = compensation(scale)
        for index, (part_vertices, part_triangles) in enumerate(parts):
            name = f"{obj.name}{PART_SUFFIX}{index:03d}"
            mesh = shape_data.mesh_from_triangles(name, part_vertices.tolist(), part_triangles.tolist())
            child = new_child(context, obj, name, mesh, basis)
            collision_only(child)
            shape = part_settings(child, 'COLLIDER').shape
            shape.shape_type = 'CONVEX'
            shape.mesh_source = 'SELF'
            set_offset(shape, Vector(), None)
        settings = object_physics(obj)
        if settings.use_collider and not settings.collider.is_compound:
            settings.use_collider = False  # the parts replace the object's own (concave) shape
        return len(parts)


CLASSES: tuple[type, ...] = (OMI_OT_convex_decomposition,)
