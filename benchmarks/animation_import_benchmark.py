"""Import time of one animated physics channel (KHR_animation_pointer) against its number of keys.

The file: one dynamic body with a box collider over a static floor, and one LINEAR channel of N keys on the
body's mass (`/nodes/0/extensions/OMI_physics_body/motion/mass`, a value Blender's rigid body follows). Each
case is `bpy.ops.import_scene.gltf` with the add-on's defaults (settings and Blender rigid bodies), in an
empty scene, in a child process of its own, stopped after a time limit (issue #27: 10,000 keys took 12.8 s,
30,000 keys 58 s, 100,000 keys more than 120 s).

Printed: wall and CPU seconds per case, microseconds per key, and the ratio of each case's time per key to
the smallest case's (linear: about 1). `--settings-only` imports without Blender rigid bodies. The import of
the same file with the channel left out is the floor. The baseline, in the same run: the first case
imported with every key translated whole (the document read, the settings written and read back, and the
rigid bodies built again, per key: the code before `linear_keys`, kept as its fallback; keyframes are now
added at once in both), and imported with the settings found by moving the value (once per component, a
few document reads) instead of read from the Object Model tables (`io/blender/animation/imports/table`).
Measured on 875e0e8 (before linear_keys, one keyframe_insert per key), bpy 5.0, busy 2-core machine:
1,000 keys 2.8 s CPU (7.2 s wall), 3,000 keys 11.8 s CPU (30 s wall); issue #27: 10,000 keys 12.8 s,
30,000 keys 58 s, 100,000 keys more than 120 s.

`--crowd M` adds M static boxes to the file: every read of the document then costs more, which is what
finding a channel's settings by nudging pays a few times per channel and reading them from the tables not.

Run: .venv/bin/python benchmarks/animation_import_benchmark.py [N ...] [--limit SECONDS] [--settings-only]
[--crowd M]
(default N: 1000 10000 30000 100000, limit 300 s per case)
"""

from __future__ import annotations

import base64
import json
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import bench_common

COUNTS = (1000, 10_000, 30_000, 100_000)
POINTER = "/nodes/0/extensions/OMI_physics_body/motion/mass"


def write_file(path: Path, keys: int, crowd: int = 0) -> None:
    """One body (node 0) over a floor (node 1); `keys` > 0 adds the mass channel (times 0.01 s apart); `crowd`
    more static boxes make each read of the document cost more (what a channel's nudges pay)."""
    nodes = [{"name": "Crate", "translation": [0, 2, 0], "extensions": {"OMI_physics_body": {
                 "motion": {"type": "dynamic", "mass": 2.0}, "collider": {"shape": 0}}}},
             {"name": "Floor", "extensions": {"OMI_physics_body": {"collider": {"shape": 1}}}}]
    nodes += [{"name": f"Box{index}", "translation": [2.0 * (index % 50), 0.5, 2.0 * (index // 50)],
               "extensions": {"OMI_physics_body": {"collider": {"shape": 0}}}} for index in range(crowd)]
    document: dict = {
        "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": list(range(2 + crowd))}], "nodes": nodes,
        "extensionsUsed": ["OMI_physics_body", "OMI_physics_shape"],
        "extensions": {"OMI_physics_shape": {"shapes": [{"type": "box", "box": {"size": [1, 1, 1]}},
                                                        {"type": "box", "box": {"size": [10, 0.2, 10]}}]}},
    }
    if keys:
        times = [index * 0.01 for index in range(keys)]
        values = [1.0 + (index % 50) * 0.1 for index in range(keys)]
        payload = struct.pack(f"<{keys}f", *times) + struct.pack(f"<{keys}f", *values)
        uri = "data:application/octet-stream;base64," + base64.b64encode(payload).decode("ascii")
        document["extensionsUsed"].append("KHR_animation_pointer")
        document["buffers"] = [{"byteLength": len(payload), "uri": uri}]
        document["bufferViews"] = [{"buffer": 0, "byteLength": 4 * keys},
                                   {"buffer": 0, "byteOffset": 4 * keys, "byteLength": 4 * keys}]
        document["accessors"] = [
            {"bufferView": 0, "componentType": 5126, "count": keys, "type": "SCALAR", "min": [times[0]],
             "max": [times[-1]]},
            {"bufferView": 1, "componentType": 5126, "count": keys, "type": "SCALAR"}]
        document["animations"] = [{"name": "Mass", "samplers": [{"input": 0, "output": 1}], "channels": [
            {"sampler": 0, "target": {"path": "pointer", "extensions": {"KHR_animation_pointer": {
                "pointer": POINTER}}}}]}]
    path.write_text(json.dumps(document))


def child(path: str, rigid_bodies: bool, mode: str) -> None:
    """In the child process: import the file once; report times and the keys made. `mode`: "table" (the add-on
    as it is), "nudged" (the settings found by moving the value, not read from the Object Model tables),
    "whole" (neither the tables nor the affine map: every key translated whole)."""
    import bpy  # noqa: PLC0415

    bench_common.enable_addon()
    if mode in ("nudged", "whole"):
        bench_common.addon_module("io.blender.animation.imports.table").table_map = lambda *_args, **_kwargs: None
    if mode == "whole":  # the baseline: no affine map, every key translated whole
        bench_common.addon_module("io.omi.animation.linear_keys").fit = lambda *_args, **_kwargs: None
    bench_common.quiet_gltf_logs()
    bpy.ops.wm.read_homefile(use_empty=True)
    bpy.context.scene.omi_physics.import_rigid_bodies = rigid_bodies
    wall, cpu = time.perf_counter(), time.process_time()
    bpy.ops.import_scene.gltf(filepath=path)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    crate = bpy.data.objects["Crate"]
    action = crate.animation_data.action if crate.animation_data else None
    settings_keys = sum(len(curve.keyframe_points) for curve in bench_common.addon_module(
        "io.blender.animation.curves").fcurves(crate)) if action else 0
    bench_common.report_to_parent({"wall": wall, "cpu": cpu, "keys": settings_keys})


def run(keys: int, rigid_bodies: bool, limit: float, folder: Path, mode: str = "table", *,
        crowd: int = 0) -> dict | None:
    path = folder / f"mass_{keys}.gltf"
    write_file(path, keys, crowd)
    try:
        completed = subprocess.run([sys.executable, __file__, "--child", str(path), str(rigid_bodies), mode],
                                   capture_output=True, text=True, check=False, timeout=limit)
    except subprocess.TimeoutExpired:
        return None
    for line in completed.stdout.splitlines():
        if line.startswith(bench_common.CHILD_MARK):
            return json.loads(line[len(bench_common.CHILD_MARK):])
    raise RuntimeError(f"no result for {keys} keys (exit {completed.returncode}):\n{completed.stderr[-2000:]}")


def main(argv: list[str]) -> None:
    if argv[:1] == ["--child"]:
        child(argv[1], argv[2] == "True", argv[3])
        return
    rigid_bodies = "--settings-only" not in argv
    limit = 300.0
    if "--limit" in argv:
        limit = float(argv[argv.index("--limit") + 1])
    crowd = int(argv[argv.index("--crowd") + 1]) if "--crowd" in argv else 0
    options = {str(int(limit)), str(crowd)} if "--limit" in argv else {str(crowd)}
    counts = [int(arg) for arg in argv if arg.isdigit() and arg not in options] or list(COUNTS)
    print(f"One mass channel imported ({'settings and Blender rigid bodies' if rigid_bodies else 'settings only'}),"
          f" limit {limit:g} s per case{f', {crowd:,} more bodies in the file' if crowd else ''}")
    with tempfile.TemporaryDirectory() as folder:
        floor = run(0, rigid_bodies, limit, Path(folder), crowd=crowd)
        if floor is not None:
            print(f"  no channel (the floor): {floor['wall']:.2f} s wall, {floor['cpu']:.2f} s CPU")
        first_per_key = None
        baseline = run(counts[0], rigid_bodies, limit, Path(folder), "whole", crowd=crowd)
        nudged = run(counts[0], rigid_bodies, limit, Path(folder), "nudged", crowd=crowd)
        for keys in counts:
            result = run(keys, rigid_bodies, limit, Path(folder), crowd=crowd)
            if result is None:
                print(f"  {keys:>7,} keys: not finished in {limit:g} s")
                continue
            spent = result["cpu"] - (floor["cpu"] if floor else 0.0)
            per_key = spent / keys
            first_per_key = first_per_key or per_key
            print(f"  {keys:>7,} keys: {result['wall']:7.2f} s wall, {result['cpu']:7.2f} s CPU, "
                  f"{per_key * 1e6:7.1f} us CPU per key above the floor (x{per_key / first_per_key:.2f} the "
                  f"first case's), {result['keys']:,} keyframes on the body")
            if keys == counts[0]:
                if baseline is None:
                    print(f"  {keys:>7,} keys translated whole (baseline): not finished in {limit:g} s")
                else:
                    print(f"  {keys:>7,} keys translated whole (baseline): {baseline['wall']:7.2f} s wall, "
                          f"{baseline['cpu']:7.2f} s CPU: x{baseline['cpu'] / result['cpu']:.1f} the CPU time")
                if nudged is not None:
                    print(f"  {keys:>7,} keys, settings found by nudging (not the tables): {nudged['wall']:7.2f} s "
                          f"wall, {nudged['cpu']:7.2f} s CPU: x{nudged['cpu'] / result['cpu']:.2f} the CPU time "
                          f"({nudged['cpu'] - result['cpu']:+.2f} s)")


if __name__ == "__main__":
    main(sys.argv[1:])
