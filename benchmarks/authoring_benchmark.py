"""Authoring speed, as ratios against Blender's own work on the same scene in the same run.

1. Overlay: time to build the line geometry of 20,000 colliders (what the overlay uploads as one GPU
   batch; background mode has no GPU, so the upload itself is not timed) against the time Blender takes
   to evaluate the same scene's depsgraph after every object moved.
2. Fit Collider on 500 selected meshes (box, sphere, capsule, cylinder, convex hull with a 255 budget,
   box on new children), against reading the same meshes' evaluated vertices once (the least any fit
   must do). Each line also gives the Python peak memory of one fit (tracemalloc).
3. Convex hulls with a budget on 1,000 instances of one mesh against 1,000 meshes of their own: the
   instances share one hull (one computation, one mesh).

Run: .venv/bin/python benchmarks/authoring_benchmark.py [colliders] [meshes]   (or .venv-4.2/bin/python)
"""

from __future__ import annotations

import random
import statistics
import sys

import bench_common
import bpy
import numpy as np
from bench_common import best_of, megabytes, python_peak

SHAPES = ('BOX', 'SPHERE', 'CAPSULE', 'CYLINDER')
MOTIONS = ('STATIC', 'KINEMATIC', 'DYNAMIC')


def collider_scene(count: int) -> list[bpy.types.Object]:
    bpy.ops.wm.read_homefile(use_empty=True)
    rng = random.Random(1)
    collection = bpy.context.scene.collection
    objects = []
    for index in range(count):
        obj = bpy.data.objects.new(f"Collider{index:05d}", None)
        collection.objects.link(obj)
        obj.location = (rng.uniform(-100, 100), rng.uniform(-100, 100), rng.uniform(0, 20))
        obj.rotation_euler = (rng.uniform(0, 3), rng.uniform(0, 3), rng.uniform(0, 3))
        settings = obj.omi_physics
        settings.use_collider = True
        settings.collider.shape.shape_type = SHAPES[index % len(SHAPES)]
        if index % 5 == 0:
            settings.use_motion = True
            settings.motion.motion_type = MOTIONS[index % len(MOTIONS)]
        if index % 50 == 0:
            settings.use_trigger = True
        objects.append(obj)
    bpy.context.view_layer.update()
    return objects


def overlay_benchmark(count: int = 20000) -> None:
    collect = bench_common.addon_module("viewport.collect")
    objects = collider_scene(count)
    view_layer = bpy.context.view_layer
    depsgraph = bpy.context.evaluated_depsgraph_get()

    def evaluate() -> None:
        for obj in objects:
            obj.location.z += 0.001
        view_layer.update()

    move_only = best_of(lambda: [setattr(obj.location, "z", obj.location.z + 0.001) for obj in objects])
    evaluation = best_of(evaluate) - move_only
    def build_lines():
        return collect.scene_lines(bpy.context.scene.objects, depsgraph=depsgraph)

    build = best_of(build_lines)
    lines = build_lines()
    peak = python_peak(build_lines)
    print(f"overlay: {lines.shapes} shapes, {len(lines.positions) // 2} line segments")
    print(f"  depsgraph evaluation after moving all {count} objects: {evaluation * 1000:8.1f} ms")
    print(f"  overlay line geometry for the same scene:            {build * 1000:8.1f} ms"
          f"   (Python peak {megabytes(peak)})")
    print(f"  ratio overlay / depsgraph: {build / evaluation:.2f}", flush=True)


def mesh_scene(count: int, shared: bool = False) -> list[bpy.types.Object]:
    bpy.ops.wm.read_homefile(use_empty=True)
    rng = random.Random(2)
    template = bpy.data.meshes.new("Rock")
    import bmesh  # noqa: PLC0415

    bm = bmesh.new()
    bmesh.ops.create_icosphere(bm, subdivisions=4, radius=1.0)  # 642 vertices: the hull needs the budget
    for vertex in bm.verts:
        vertex.co *= rng.uniform(0.8, 1.2)
    bm.to_mesh(template)
    bm.free()
    objects = []
    for index in range(count):
        obj = bpy.data.objects.new(f"Prop{index:04d}", template if shared else template.copy())
        bpy.context.scene.collection.objects.link(obj)
        obj.location = (rng.uniform(-50, 50), rng.uniform(-50, 50), 0.0)
        obj.rotation_euler = (rng.uniform(0, 3), rng.uniform(0, 3), rng.uniform(0, 3))
        obj.scale = (rng.uniform(0.5, 2), rng.uniform(0.5, 2), rng.uniform(1, 3))
        obj.select_set(True)
        objects.append(obj)
    bpy.context.view_layer.objects.active = objects[0]
    bpy.context.view_layer.update()
    return objects


def fit_benchmark(count: int = 500) -> None:
    objects = mesh_scene(count)
    depsgraph = bpy.context.evaluated_depsgraph_get()

    def read_vertices() -> None:
        for obj in objects:
            evaluated = obj.evaluated_get(depsgraph)
            mesh = evaluated.to_mesh()
            coords = np.empty(len(mesh.vertices) * 3, np.float32)
            mesh.vertices.foreach_get("co", coords)
            evaluated.to_mesh_clear()

    baseline = best_of(read_vertices, 3)
    print(f"fit collider on {count} selected meshes ({len(objects[0].data.vertices)} vertices each):")
    print(f"  baseline, reading every evaluated mesh once: {baseline * 1000:8.1f} ms")
    for shape_type, options in (('BOX', {}), ('SPHERE', {}), ('CAPSULE', {}), ('CYLINDER', {}),
                                ('CONVEX', {"vertex_budget": 255}), ('BOX', {"target": 'CHILD'})):
        def fit(shape_type=shape_type, options=options) -> None:
            bpy.ops.omi.fit_collider(shape_type=shape_type, **options)

        def remove_children(shape_type=shape_type, options=options) -> None:
            if options.get("target") == 'CHILD':
                for obj in objects:
                    for child in list(obj.children):
                        bpy.data.objects.remove(child)

        seconds = []
        for _ in range(2):
            seconds.append(best_of(fit, 1))
            remove_children()
        peak = python_peak(fit)
        remove_children()
        label = shape_type.lower() + (" on new children" if options.get("target") == 'CHILD' else "")
        median = statistics.median(seconds)
        print(f"  {label:24s} {median:7.3f} s   ratio to baseline {median / baseline:6.1f}"
              f"   Python peak {megabytes(peak)}", flush=True)


def shared_fit_benchmark(count: int = 1000) -> None:
    """Convex hulls with a budget on instances of one mesh (one hull computed and one mesh made for all)
    against the same fit on as many meshes of their own (a hull each)."""
    print(f"convex fit (budget 64) on {count} objects:")
    timings = {}
    for shared in (False, True):
        objects = mesh_scene(count, shared)

        def fit() -> None:
            bpy.ops.omi.fit_collider(shape_type='CONVEX', use_vertex_budget=True, vertex_budget=64)

        timings[shared] = best_of(fit, 1)
        hulls = {obj.omi_physics.collider.shape.mesh_object.data for obj in objects}
        label = "instances of one mesh" if shared else "a mesh each"
        print(f"  {label:24s} {timings[shared]:7.3f} s   {len(hulls)} hull mesh(es)", flush=True)
    print(f"  ratio shared / own meshes: {timings[True] / timings[False]:.2f}", flush=True)


def main(colliders: int = 20000, meshes: int = 500) -> None:
    bench_common.enable_addon()
    print(f"Blender {bpy.app.version_string}, background={bpy.app.background}")
    overlay_benchmark(colliders)
    fit_benchmark(meshes)
    shared_fit_benchmark(2 * meshes)
    print(f"process peak resident size: {megabytes(bench_common.resident_peak())}")


if __name__ == "__main__":
    main(*(int(value) for value in sys.argv[1:3]))
