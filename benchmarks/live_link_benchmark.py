"""The live link's cost, as ratios against the same work with the link off, in the same run.

1. Tagging: Make Body + Fit Collider (box) on N selected cubes at once, then the link's one build of them,
   against the two operators alone with the link off.
2. One edit on a scene of M live bodies: one body's motion type changed, then the link's build (that body
   only), against the same edit with the link off, and against Rebuild (Sync to Blender) of the scene.
3. The check after an undo, a redo or a file load: which of the M bodies are out of step (edit counts only).

Run: .venv/bin/python benchmarks/live_link_benchmark.py [tagged] [bodies]   (or .venv-4.2/bin/python)
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator

import bench_common
import bpy


def cubes(count: int) -> list[bpy.types.Object]:
    """`count` cubes in a grid sharing one mesh, all selected."""
    bpy.ops.wm.read_homefile(use_empty=True)
    mesh = bpy.data.meshes.new("Cube")
    size = 0.5
    mesh.from_pydata([(x, y, z) for x in (-size, size) for y in (-size, size) for z in (-size, size)], [],
                     [(0, 1, 3, 2), (4, 6, 7, 5), (0, 4, 5, 1), (2, 3, 7, 6), (0, 2, 6, 4), (1, 5, 7, 3)])
    collection = bpy.context.scene.collection
    objects = []
    side = max(1, int(count ** 0.5))
    for index in range(count):
        obj = bpy.data.objects.new(f"Cube{index:05d}", mesh)
        obj.location = (2.0 * (index % side), 2.0 * (index // side), 2.0)
        collection.objects.link(obj)
        objects.append(obj)
    bpy.context.view_layer.update()
    for obj in objects:
        obj.select_set(True)
    bpy.context.view_layer.objects.active = objects[0]
    return objects


def tag() -> None:
    bpy.ops.omi.make_body(motion_type='DYNAMIC')
    bpy.ops.omi.fit_collider(shape_type='BOX')


def timed(function) -> float:
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


def tagging(count: int, link) -> None:
    print(f"tagging {count} cubes at once (Make Body + Fit Collider box):", flush=True)
    times = {}
    for live in (False, True):
        objects = cubes(count)
        bpy.context.scene.omi_physics.live_rigid_bodies = live
        times[live] = timed(lambda: (tag(), link.flush(bpy.context.scene)))
        built = sum(obj.rigid_body is not None for obj in objects)
        print(f"  link {'on ' if live else 'off'}  {times[live]:8.3f} s   {built} rigid bodies", flush=True)
    print(f"  ratio on / off: {times[True] / times[False]:.2f}", flush=True)


def one_edit(count: int, link) -> None:
    print(f"one edit on a scene of {count} live bodies:", flush=True)
    objects = cubes(count)
    tag()
    start = time.perf_counter()
    link.flush(bpy.context.scene)
    print(f"  the scene's first build: {time.perf_counter() - start:.2f} s", flush=True)
    target = objects[count // 2]
    times = {}
    for live in (False, True):
        bpy.context.scene.omi_physics.live_rigid_bodies = live
        motions = iter(('KINEMATIC', 'DYNAMIC') * 3)

        def edit(motions: Iterator[str] = motions) -> None:
            target.omi_physics.motion.motion_type = next(motions)
            link.flush(bpy.context.scene)

        times[live] = bench_common.best_of(edit, 3)
        print(f"  settings edit, link {'on ' if live else 'off'}  {times[live] * 1000:9.2f} ms", flush=True)
    types = iter(('PASSIVE', 'ACTIVE') * 3)

    def evaluated(change) -> float:
        return bench_common.best_of(lambda: (change(), bpy.context.view_layer.update()), 3)

    times['blender'] = evaluated(lambda: setattr(target.rigid_body, "type", next(types)))
    again = iter(('KINEMATIC', 'DYNAMIC') * 3)
    times['evaluated'] = evaluated(lambda: (setattr(target.omi_physics.motion, "motion_type", next(again)),
                                            link.flush(bpy.context.scene)))
    print(f"  with Blender's evaluation after it: the same change in Blender's Rigid Body panel "
          f"{times['blender']:.2f} s, in the OMI settings (live) {times['evaluated']:.2f} s", flush=True)
    bpy.context.scene.omi_physics.live_rigid_bodies = False
    rebuild = bench_common.best_of(bpy.ops.omi.sync_to_rigid_bodies, 1)
    bpy.context.scene.omi_physics.live_rigid_bodies = True
    print(f"  Rebuild (the whole scene): {rebuild:.2f} s", flush=True)
    print(f"  ratio on / off: {times[True] / times[False]:.0f}; live edit / whole rebuild: "
          f"{times[True] / rebuild:.4f}; evaluated, OMI settings / Blender's panel: "
          f"{times['evaluated'] / times['blender']:.2f}", flush=True)
    check = bench_common.best_of(lambda: link._out_of_step(bpy.context.scene), 3)
    print(f"  the check after undo/redo/load over {count} bodies: {check * 1000:.1f} ms", flush=True)


def main(tagged: int = 1000, bodies: int = 5000) -> None:
    bench_common.enable_addon()
    print(f"Blender {bpy.app.version_string}, background={bpy.app.background}")
    link = bench_common.addon_module("operators.live_link")
    tagging(tagged, link)
    one_edit(bodies, link)


if __name__ == "__main__":
    main(*(int(value) for value in sys.argv[1:3]))
