"""glTF export speed with OMI physics, as a ratio against the same export with physics turned off.

A scene of N tagged mesh objects (boxes, spheres, capsules and convex hulls in turn, one body in three
dynamic, one joint per 20 objects), exported to .glb with physics on and off in alternation, the best of
a few runs each. Peak memory is Python's peak allocation during one export (tracemalloc, which sees the
exporter's and the add-on's Python objects, in a separate untimed run) and the process's peak resident
size at the end.

Meshes: "unique" gives each object its own mesh, as Blender's Duplicate (Shift+D) does; "linked" shares
four meshes between all objects (Duplicate Linked, Alt+D), the case where the exporter has the least work
of its own and the physics share is largest.

Run: .venv/bin/python benchmarks/export_benchmark.py [N ...]   (or .venv-4.2/bin/python)
"""

from __future__ import annotations

import logging
import random
import resource
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import bpy

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))  # not the repo root: io/ would shadow io
import addon_loader

SHAPES = ('BOX', 'SPHERE', 'CAPSULE', 'CONVEX')
JOINT_EVERY = 20


def _meshes() -> list[bpy.types.Mesh]:
    """Box, sphere, capsule-like and hull meshes (made by the primitive operators, objects then removed)."""
    adders = (
        lambda: bpy.ops.mesh.primitive_cube_add(size=1.0),
        lambda: bpy.ops.mesh.primitive_uv_sphere_add(segments=16, ring_count=8, radius=0.5),
        lambda: bpy.ops.mesh.primitive_cylinder_add(vertices=16, radius=0.5, depth=2.0),
        lambda: bpy.ops.mesh.primitive_ico_sphere_add(subdivisions=2, radius=0.5),
    )
    made = []
    for add in adders:
        add()
        obj = bpy.context.object
        made.append(obj.data)
        bpy.data.objects.remove(obj)
    return made


def build_scene(count: int, linked: bool) -> None:
    bpy.ops.wm.read_homefile(use_empty=True)
    rng = random.Random(1)
    collection = bpy.context.scene.collection
    meshes = _meshes()
    previous = None
    for index in range(count):
        kind = index % len(SHAPES)
        mesh = meshes[kind] if linked else meshes[kind].copy()
        obj = bpy.data.objects.new(f"Body{index:05d}", mesh)
        collection.objects.link(obj)
        obj.location = (rng.uniform(-100, 100), rng.uniform(-100, 100), rng.uniform(0, 20))
        obj.rotation_euler = (rng.uniform(0, 3), rng.uniform(0, 3), rng.uniform(0, 3))
        settings = obj.omi_physics
        settings.use_collider = True
        shape = settings.collider.shape
        shape.shape_type = SHAPES[kind]
        shape.size = (rng.uniform(0.5, 2), rng.uniform(0.5, 2), rng.uniform(0.5, 2))
        shape.radius = shape.radius_top = shape.radius_bottom = rng.uniform(0.2, 1.0)
        shape.height = rng.uniform(0.5, 2.0)
        if index % 3 == 0:
            settings.use_motion = True
            settings.motion.motion_type = 'DYNAMIC'
            settings.motion.mass = rng.uniform(1, 50)
        if index % JOINT_EVERY == 0 and previous is not None:
            frame = bpy.data.objects.new(f"Joint{index:05d}", None)
            collection.objects.link(frame)
            frame.parent = obj
            joint = frame.omi_physics
            joint.use_joint = True
            joint.joint.connected_object = previous
            limit = joint.joint.limits.add()
            limit.kind = 'LINEAR'
        previous = obj
    bpy.context.view_layer.update()


def export_once(path: Path, physics: bool) -> float:
    bpy.context.scene.omi_physics.export_physics = physics
    start = time.perf_counter()
    result = bpy.ops.export_scene.gltf(filepath=str(path), export_format='GLB')
    elapsed = time.perf_counter() - start
    if result != {'FINISHED'}:
        raise RuntimeError(f"export failed: {result}")
    return elapsed


def best_times(path: Path, repeats: int) -> tuple[float, float]:
    off, on = [], []
    for _ in range(repeats):  # alternate, so that drift in the machine's load hits both alike
        off.append(export_once(path, physics=False))
        on.append(export_once(path, physics=True))
    return min(off), min(on)


def python_peak(path: Path, physics: bool) -> int:
    tracemalloc.start()
    export_once(path, physics)
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak


def main(counts: list[int]) -> None:
    addon_loader.enable()
    logging_off()
    print(f"Blender {bpy.app.version_string}; best of 3 runs (2 at 5000), .glb")
    print(f"{'N':>6} {'meshes':>7} {'off (s)':>9} {'on (s)':>9} {'ratio':>7} {'py peak off':>12} {'py peak on':>11}")
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "benchmark.glb"
        for count in counts:
            for linked in (False, True):
                build_scene(count, linked)
                export_once(path, physics=True)  # warm up caches and imports
                off, on = best_times(path, 2 if count >= 5000 else 3)
                peak_off, peak_on = python_peak(path, False), python_peak(path, True)
                print(f"{count:>6} {'linked' if linked else 'unique':>7} {off:>9.3f} {on:>9.3f} {on / off:>7.3f} "
                      f"{peak_off / 2**20:>9.1f} MB {peak_on / 2**20:>8.1f} MB", flush=True)
    print(f"process peak resident size: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


def logging_off() -> None:
    """The exporter logs every primitive at INFO level; console output would dominate the timing."""
    logging.getLogger("glTFImporter").setLevel(logging.WARNING)
    bpy.app.debug_value = 1  # the exporter's own log level: warnings and errors only


if __name__ == "__main__":
    main([int(value) for value in sys.argv[1:]] or [100, 1000, 5000])
