"""Authoring speed, as ratios against Blender's own work on the same scene in the same run.

1. Overlay: time to build the line geometry of 5000 colliders (what the overlay uploads as one GPU
   batch; background mode has no GPU, so the upload itself is not timed) against the time Blender takes
   to evaluate the same scene's depsgraph after every object moved.
2. Fit Collider on 500 selected meshes (box, capsule, convex hull with a 255 budget), against reading
   the same meshes' evaluated vertices once (the least any fit must do).

Run: .venv/bin/python benchmarks/authoring_benchmark.py   (or .venv-4.2/bin/python)
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

import bpy
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))  # not the repo root: io/ would shadow io
import addon_loader

SHAPES = ('BOX', 'SPHERE', 'CAPSULE', 'CYLINDER')
MOTIONS = ('STATIC', 'KINEMATIC', 'DYNAMIC')


def best_of(function, repeats: int = 5) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


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


def overlay_benchmark(count: int = 5000) -> None:
    collect = addon_loader.module("viewport.collect")
    objects = collider_scene(count)
    view_layer = bpy.context.view_layer
    depsgraph = bpy.context.evaluated_depsgraph_get()

    def evaluate() -> None:
        for obj in objects:
            obj.location.z += 0.001
        view_layer.update()

    move_only = best_of(lambda: [setattr(obj.location, "z", obj.location.z + 0.001) for obj in objects])
    evaluation = best_of(evaluate) - move_only
    build = best_of(lambda: collect.scene_lines(bpy.context.scene.objects, depsgraph=depsgraph))
    lines = collect.scene_lines(bpy.context.scene.objects, depsgraph=depsgraph)
    print(f"overlay: {lines.shapes} shapes, {len(lines.positions) // 2} line segments")
    print(f"  depsgraph evaluation after moving all {count} objects: {evaluation * 1000:8.1f} ms")
    print(f"  overlay line geometry for the same scene:            {build * 1000:8.1f} ms")
    print(f"  ratio overlay / depsgraph: {build / evaluation:.2f}")


def mesh_scene(count: int) -> list[bpy.types.Object]:
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
        obj = bpy.data.objects.new(f"Prop{index:04d}", template.copy())
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
    for shape_type, options in (('BOX', {}), ('CAPSULE', {}), ('CONVEX', {"vertex_budget": 255}),
                                ('BOX', {"target": 'CHILD'})):
        def fit(shape_type=shape_type, options=options) -> None:
            bpy.ops.omi.fit_collider(shape_type=shape_type, **options)

        seconds = statistics.median([best_of(fit, 1) for _ in range(2)])
        label = shape_type.lower() + (" on new children" if options.get("target") == 'CHILD' else "")
        print(f"  {label:24s} {seconds:7.2f} s   ratio to baseline {seconds / baseline:6.1f}")
        if options.get("target") == 'CHILD':
            for obj in objects:
                for child in list(obj.children):
                    bpy.data.objects.remove(child)


def main() -> None:
    addon_loader.enable()
    print(f"Blender {bpy.app.version_string}, background={bpy.app.background}")
    overlay_benchmark()
    fit_benchmark()


if __name__ == "__main__":
    main()
