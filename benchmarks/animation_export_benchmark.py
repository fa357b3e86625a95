"""Export time of keyed physics settings against their number of keys: the Object Model table's way
(`io/blender/animation/exports/direct`: the pointer and each key's value from the tables, by arithmetic) against
the whole translation (each F-curve nudged to find its pointer, the object's physics derived and written
at every key: the code before the table, kept as the fallback), in the same run and the same process.

The scene: one dynamic body with a box collider and a library material; its mass, centre of mass and
gravity factor, and the material's restitution, keyed (LINEAR) at N frames. Each case is
`bpy.ops.export_scene.gltf` (.glb) of that scene, best of a few runs, in CPU seconds; the export of the
same scene without keys is the floor. Printed per N: both times above the floor and their ratio. The
files of both ways are compared byte for byte (tests/blender/animation/test_animation_export_table.py asserts it).

`--imported`: the scene is instead the import (with Blender rigid bodies) of `animation_import_benchmark`'s file,
one mass channel of N keys: the import keys the settings' mass and Blender's rigid_body.mass, which the
export reads as a mirror of it (`properties/animated_settings.MIRRORS`).

Run: .venv/bin/python benchmarks/animation_export_benchmark.py [N ...] [--imported] (default N: 1000 10000)
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import bench_common
import bpy

COUNTS = (1000, 10_000)


def keyed_scene(keys: int) -> None:
    """The body and its material, keyed at frames 1..keys (no keys: the floor)."""
    bpy.ops.wm.read_homefile(use_empty=True)
    body = bpy.data.objects.new("Body", None)
    bpy.context.scene.collection.objects.link(body)
    settings = body.omi_physics
    settings.use_motion = settings.use_collider = True
    settings.collider.shape.shape_type = 'BOX'
    motion = settings.motion
    motion.use_center_of_mass = True
    entry = bpy.context.scene.omi_physics.physics_materials.add()
    entry.name = "Keyed"
    settings.collider.physics_material = "Keyed"
    if not keys:
        return
    paths = [(body, f"omi_physics.motion.{name}", width) for name, width in
             (("mass", 1), ("center_of_mass", 3), ("gravity_factor", 1))]
    paths.append((bpy.context.scene, entry.path_from_id("restitution"), 1))
    for id_data, path, _width in paths:  # one key inserted (the action, slot and curves), the rest added at once
        id_data.keyframe_insert(path, frame=1)
    curves = bench_common.addon_module("io.blender.animation.curves")
    for id_data, path, width in paths:
        for index in range(width):
            [curve] = [c for c in curves.fcurves(id_data) if c.data_path == path and c.array_index == index]
            points = curve.keyframe_points
            points.add(keys - 1)
            flat = [c for frame in range(1, keys + 1) for c in (float(frame), _value(path, index, frame))]
            points.foreach_set("co", flat)
            points.foreach_set("interpolation", [1] * keys)  # 'LINEAR'
            curve.update()


def _value(path: str, index: int, frame: int) -> float:
    if path.endswith("mass"):
        return 1.0 + 0.5 * (frame % 7)
    if path.endswith("gravity_factor"):
        return 0.1 * (frame % 3)
    if "restitution" in path:
        return 0.02 * (frame % 11)
    return 0.01 * frame * (index + 1)


def imported_scene(keys: int, folder: Path) -> None:
    """The import of one body with a mass channel of `keys` keys (none: the floor), with rigid bodies."""
    import animation_import_benchmark  # noqa: PLC0415 - its file writer only

    path = folder / f"mass_{keys}.gltf"
    animation_import_benchmark.write_file(path, keys)
    bpy.ops.wm.read_homefile(use_empty=True)
    bpy.context.scene.omi_physics.import_rigid_bodies = True
    assert bpy.ops.import_scene.gltf(filepath=str(path)) == {'FINISHED'}


def export_cpu(path: Path, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        assert bpy.ops.export_scene.gltf(filepath=str(path), export_format='GLB') == {'FINISHED'}
        best = min(best, time.process_time() - start)
    return best


def main(argv: list[str]) -> None:
    counts = [int(arg) for arg in argv if arg.isdigit()] or list(COUNTS)
    imported = "--imported" in argv
    bench_common.enable_addon()
    bench_common.quiet_gltf_logs()
    direct = bench_common.addon_module("io.blender.animation.exports.direct")
    table_way = direct.map_channel
    print("Export of an imported mass channel (settings and Blender rigid body keyed), " if imported else
          "Keyed physics export (mass, centre of mass, gravity factor, a material's restitution; 6 F-curves), ",
          "CPU seconds, best of runs", sep="")
    with tempfile.TemporaryDirectory() as folder:
        make = (lambda keys: imported_scene(keys, Path(folder))) if imported else keyed_scene
        make(0)
        floor = export_cpu(Path(folder) / "floor.glb", 5)
        print(f"  no keys (the floor): {floor:.3f} s")
        for keys in counts:
            make(keys)
            repeats = 3 if keys <= 1000 else 1
            direct.map_channel = table_way
            table = export_cpu(Path(folder) / "table.glb", repeats)
            direct.map_channel = lambda *_args: None  # the whole translation, as before the table
            whole = export_cpu(Path(folder) / "whole.glb", repeats)
            direct.map_channel = table_way
            same = (Path(folder) / "table.glb").read_bytes() == (Path(folder) / "whole.glb").read_bytes()
            above_table, above_whole = table - floor, whole - floor
            print(f"  {keys:>7,} keys: table {table:7.3f} s ({above_table:7.3f} above the floor), whole "
                  f"translation {whole:7.3f} s ({above_whole:7.3f} above): x{above_whole / max(above_table, 1e-3):.1f} "
                  f"above the floor (x{whole / table:.1f} in all); same file: {same}")


if __name__ == "__main__":
    main(sys.argv[1:])
