"""glTF export speed with the add-on enabled, as a ratio against the same export with the add-on disabled.

The scene is one an artist already has: N untagged Blender rigid bodies (no OMI settings: the add-on
derives their physics from Blender's rigid bodies) over a passive floor, shapes box, sphere, capsule,
cylinder and convex hull in turn, one dynamic body in three, and a hinge constraint every tenth body.
Meshes:
- "shared": every body uses one of three meshes (cube, icosphere, cylinder), as Duplicate Linked (Alt+D)
  makes them: the exporter has the least work of its own, so the add-on's share is largest;
- "unique": one mesh per object (Duplicate, Shift+D).

Each case exports .glb with the add-on disabled and enabled in alternation (the add-on really
unregistered, so "off" runs the exporter alone), the best of a few runs each, in CPU seconds of this
process (what a busy shared machine skews least; wall-clock seconds in brackets); the garbage collector
runs before every export, untimed, so no export pays for the garbage of the one before. Peak memory:
Python's peak during one export of each kind (tracemalloc, untimed), and the process's resident peak.

Dialects: every case is measured for each export dialect (OMI, KHR, both in one file), each with its
own ratio against the same "off" time.

Floor: the same export once more with the add-on disabled and a stand-in extension (`export_floor`) that
only puts a real "on" export's physics output (its extra nodes, node and document extensions) on the
exporter's objects, built before timing: what the exporter itself costs for carrying that physics. The
stand-in must write the add-on's exact JSON. floor / off is the lowest on / off any add-on writing this
output can reach; on - floor is the add-on's own work (in the same run, so the machine's load hits both).

Run: .venv/bin/python benchmarks/export_benchmark.py [N ...] [--shared-only] [--unique-only]
"""

from __future__ import annotations

import gc
import random
import sys
import tempfile
import time
from pathlib import Path

import bench_common
import bpy
import export_floor
from bench_common import megabytes, python_peak

COUNTS = (2000, 5000)
SHAPES = ('BOX', 'SPHERE', 'CAPSULE', 'CYLINDER', 'CONVEX_HULL')
HINGE_EVERY = 10
FRICTIONS = (0.5, 0.3, 0.8)
# The physics dialects measured, each against the same "off" time: the export option
# `Scene.omi_physics.export_dialect` (OMI, KHR, or both in one file).
DIALECTS = ('OMI', 'KHR', 'BOTH')


def choose_dialect(dialect: str) -> None:
    bpy.context.scene.omi_physics.export_dialect = dialect


def _meshes() -> list[bpy.types.Mesh]:
    """Cube, icosphere and cylinder meshes (made by the primitive operators, their objects then removed)."""
    adders = (
        lambda: bpy.ops.mesh.primitive_cube_add(size=1.0),
        lambda: bpy.ops.mesh.primitive_ico_sphere_add(subdivisions=2, radius=0.5),
        lambda: bpy.ops.mesh.primitive_cylinder_add(vertices=16, radius=0.5, depth=2.0),
    )
    made = []
    for add in adders:
        add()
        obj = bpy.context.object
        made.append(obj.data)
        bpy.data.objects.remove(obj)
    return made


def build_scene(count: int, shared: bool) -> None:
    """N untagged rigid bodies over a passive floor, a hinge every tenth body (see the module text)."""
    bpy.ops.wm.read_homefile(use_empty=True)
    scene = bpy.context.scene
    bpy.ops.rigidbody.world_add()
    world = scene.rigidbody_world
    world.collection = bpy.data.collections.new("RigidBodyWorld")
    world.constraints = bpy.data.collections.new("RigidBodyConstraints")
    rng = random.Random(1)
    collection = scene.collection
    meshes = _meshes()
    floor = bpy.data.objects.new("Floor", meshes[0].copy())
    floor.scale = (250.0, 250.0, 1.0)
    collection.objects.link(floor)
    world.collection.objects.link(floor)  # linking creates the rigid body (no operator per object)
    floor.rigid_body.type = 'PASSIVE'
    floor.rigid_body.collision_shape = 'BOX'
    previous = None
    for index in range(count):
        mesh = meshes[index % len(meshes)]
        obj = bpy.data.objects.new(f"Body{index:05d}", mesh if shared else mesh.copy())
        collection.objects.link(obj)
        obj.location = (rng.uniform(-100, 100), rng.uniform(-100, 100), rng.uniform(1, 20))
        obj.rotation_euler = (rng.uniform(0, 3), rng.uniform(0, 3), rng.uniform(0, 3))
        world.collection.objects.link(obj)
        body = obj.rigid_body
        body.type = 'ACTIVE' if index % 3 == 0 else 'PASSIVE'
        body.collision_shape = SHAPES[index % len(SHAPES)]
        body.mass = rng.uniform(1, 50)
        body.friction = FRICTIONS[index % len(meshes)]  # one material per kind of prop (wood, metal, stone)
        if index % HINGE_EVERY == 0 and previous is not None:
            hinge = bpy.data.objects.new(f"Hinge{index:05d}", None)
            collection.objects.link(hinge)
            hinge.location = obj.location
            world.constraints.objects.link(hinge)
            hinge.rigid_body_constraint.type = 'HINGE'
            hinge.rigid_body_constraint.object1 = obj
            hinge.rigid_body_constraint.object2 = previous
        previous = obj
    bpy.context.view_layer.update()


def set_addon(enabled: bool) -> None:
    if enabled:
        bench_common.enable_addon()
    else:
        bench_common.disable_addon()


def physics_nodes(path: Path) -> int:
    """How many nodes of the written .glb carry a physics extension (checks what was measured)."""
    document = export_floor.glb_json(path)
    return sum(1 for node in document.get("nodes", ()) if any("physics" in key for key in node.get("extensions", ())))


def export_once(path: Path, enabled: bool, dialect: str = 'OMI', replay: export_floor.Replay | None = None
                ) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one export; with `replay`, the add-on disabled and the floor's stand-in
    carrying its output."""
    set_addon(enabled)
    if enabled:
        choose_dialect(dialect)
    if replay is not None:
        export_floor.enable(replay)
    gc.collect()  # untimed, in both cases: no export pays for the garbage left by the one before
    try:
        start_cpu, start_wall = time.process_time(), time.perf_counter()
        result = bpy.ops.export_scene.gltf(filepath=str(path), export_format='GLB')
        elapsed = time.process_time() - start_cpu, time.perf_counter() - start_wall
    finally:
        export_floor.disable()
    if result != {'FINISHED'}:
        raise RuntimeError(f"export failed: {result}")
    return elapsed


def measure(count: int, shared: bool, path: Path) -> None:
    build_scene(count, shared)
    export_once(path, False)  # warm up caches and imports, and check what is measured
    if physics_nodes(path):
        raise RuntimeError("the export with the add-on disabled wrote physics")
    plain = export_floor.glb_json(path)
    export_once(path, True)
    if physics_nodes(path) < count:
        raise RuntimeError(f"the export with the add-on wrote physics on {physics_nodes(path)} of {count} bodies")
    repeats = 2 if count >= 5000 else 3
    for dialect in DIALECTS:
        export_once(path, True, dialect)
        replay = export_floor.Replay(export_floor.glb_json(path), plain, export_floor.glb_binary(path))
        export_once(path, False, replay=replay)
        replay.check(path)
        runs: dict[str, list[tuple[float, float]]] = {"off": [], "on": [], "floor": []}
        for _ in range(repeats):  # alternate, so that drift in the machine's load hits all alike
            runs["off"].append(export_once(path, False))
            runs["on"].append(export_once(path, True, dialect))
            runs["floor"].append(export_once(path, False, replay=replay))
        (off_cpu, off_wall), (on_cpu, on_wall), (floor_cpu, _floor_wall) = (
            (min(cpu for cpu, _ in runs[kind]), min(wall for _, wall in runs[kind])) for kind in ("off", "on", "floor"))
        peak_off = python_peak(lambda: export_once(path, False))
        peak_on = python_peak(lambda dialect=dialect: export_once(path, True, dialect))
        cells = f"{off_cpu:.3f} ({off_wall:.3f})", f"{on_cpu:.3f} ({on_wall:.3f})", \
            f"{on_cpu / off_cpu:.3f} ({on_wall / off_wall:.3f})"
        print(f"{count:>6} {'shared' if shared else 'unique':>7} {dialect:>8} {cells[0]:>15} "
              f"{cells[1]:>15} {cells[2]:>15} {floor_cpu:>7.3f} {floor_cpu / off_cpu:>7.3f} "
              f"{on_cpu - floor_cpu:>7.3f} {megabytes(peak_off):>12} {megabytes(peak_on):>12}", flush=True)


def main(counts: tuple[int, ...], kinds: tuple[bool, ...]) -> None:
    bench_common.enable_addon()
    bench_common.quiet_gltf_logs()
    print(f"Blender {bpy.app.version_string}: .glb export of N untagged rigid bodies, add-on on / off "
          "(best of 3 runs, 2 at N >= 5000)")
    print("seconds: CPU of this process (wall); ratio on / off: CPU (wall); floor: the exporter alone carrying "
          "the same physics output (CPU), floor / off, ours = on - floor; Python peak of one export (tracemalloc)")
    print(f"{'N':>6} {'meshes':>7} {'dialect':>8} {'off':>15} {'on':>15} {'ratio':>15} {'floor':>7} {'fl/off':>7} "
          f"{'ours':>7} {'py peak off':>12} {'py peak on':>12}")
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "benchmark.glb"
        for count in counts:
            for shared in kinds:
                measure(count, shared, path)
    print(f"process peak resident size: {megabytes(bench_common.resident_peak())}")


if __name__ == "__main__":
    arguments = sys.argv[1:]
    chosen = tuple(int(value) for value in arguments if value.isdigit()) or COUNTS
    main(chosen, (True,) if "--shared-only" in arguments else (False,) if "--unique-only" in arguments
         else (True, False))
