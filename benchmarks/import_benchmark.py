"""Import speed and peak memory: a glTF with N dynamic bodies imported with the OMI physics, against the
plain import of the same file in the same run.

Each body is laid out the way exporters such as Godot write it: a body node (dynamic motion), a collider
child node (a box, no mesh) and a visible child mesh node, over one static floor. Meshes:
- "shared": every mesh node uses one box mesh (instanced props);
- "unique": every mesh node has a mesh of its own (N glTF meshes, so N Blender meshes; they read the
  same accessors, which keeps the file small without sparing the importer any work per mesh). Blender's
  importer alone grows about quadratically here: it makes each mesh on a temporary object named
  '##gltf-import:tmp-object##' (sorted before every other object, so placed by a walk over all of them)
  and removes it again (a scan of every data block). Measured CPU: 6.5 s at 2,000, 46 s at 5,000, so the
  default run stops unique meshes there (20,000 would take about 12 CPU-minutes per import).
Three imports of each file, each case in child processes of its own so that its peak resident size is
its own (rounds of the three cases in turned order, two imports per process: three rounds up to N = 2,000,
two up to 5,000, else one round of one import):
- plain: the add-on disabled (Blender's glTF importer alone);
- settings: OMI settings written, no Blender rigid bodies;
- physics: settings and Blender rigid bodies (the default).
Times are `bpy.ops.import_scene.gltf` plus the view layer update that follows it, best of a few runs,
each in an empty scene, as CPU seconds of the process (other programs on a shared machine do not skew
them; Blender's own worker threads count) and wall-clock seconds. Memory: the child's peak resident size
(`ru_maxrss`) and, for scale, its resident size before the first import (Blender and the add-on loaded).

Run: .venv/bin/python benchmarks/import_benchmark.py [N ...] [--shared-only] [--unique-only] [--scale]
                                                     [--interleaved-names]
(--scale adds N = 100,000: shared meshes, plain and physics only, one run each: about 2.5 CPU-minutes, 10
minutes wall on a busy 2-core machine, 10 GB peak. --interleaved-names: see `write_scene`.)
"""

from __future__ import annotations

import base64
import json
import struct
import sys
import tempfile
import time
from pathlib import Path

import bench_common
from bench_common import megabytes

COUNTS = (2000, 5000, 20000)
# Blender's importer alone grows about quadratically with unique meshes (see above), so the default run stops
# unique meshes at this N; name larger counts to measure them anyway.
UNIQUE_LIMIT = 5000
SCALE_COUNT = 100_000
CASES = ("plain", "settings", "physics")


def _box_mesh_buffer() -> tuple[str, int, int]:
    """A unit box (8 positions, 12 triangles) as a data URI, and the byte sizes of its two views."""
    corners = [(x, y, z) for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)]
    faces = ((0, 1, 3), (0, 3, 2), (4, 6, 7), (4, 7, 5), (0, 4, 5), (0, 5, 1),
             (2, 3, 7), (2, 7, 6), (0, 2, 6), (0, 6, 4), (1, 5, 7), (1, 7, 3))
    positions = struct.pack("<24f", *(c for corner in corners for c in corner))
    indices = struct.pack("<36H", *(i for face in faces for i in face))
    data = base64.b64encode(positions + indices).decode("ascii")
    return f"data:application/octet-stream;base64,{data}", len(positions), len(indices)


def write_scene(count: int, shared: bool, path: Path, interleaved_names: bool = False) -> None:
    """The benchmark file. Blender keeps each kind of data block sorted by name and finds a new one's place
    by walking back from the end, so creating objects out of name order costs time growing with N per
    object: names here sort in the order the importer creates the objects (a body, its collider, its mesh
    node), unless `interleaved_names` (Body*, Collider*, Mesh*: 8 of 16 s of the plain import at 20,000)."""
    uri, positions_size, indices_size = _box_mesh_buffer()
    nodes: list[dict] = [{
        "name": "Floor", "translation": [0.0, -0.5, 0.0], "scale": [1.0, 1.0, 1.0],
        "extensions": {"OMI_physics_body": {"collider": {"shape": 1}}},
    }]
    roots = [0]
    side = max(1, round(count ** 0.5))
    for index in range(count):
        body = len(nodes)
        nodes.append({
            "name": f"Body{index:06d}", "children": [body + 1],
            "translation": [2.0 * (index % side), 2.0 + (index // (side * side)) * 2.0, 2.0 * (index // side % side)],
            "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic", "mass": 2.0}}},
        })
        collider, mesh = ((f"Collider{index:06d}", f"Mesh{index:06d}") if interleaved_names
                          else (f"Body{index:06d}Collider", f"Body{index:06d}Mesh"))
        nodes.append({"name": collider, "children": [body + 2],
                      "extensions": {"OMI_physics_body": {"collider": {"shape": 0}}}})
        nodes.append({"name": mesh, "mesh": 0 if shared else index})
        roots.append(body)
    floor_size = 2.0 * side + 2.0
    primitive = {"attributes": {"POSITION": 0}, "indices": 1}
    meshes = [{"name": "Crate" if shared else f"Crate{index:06d}", "primitives": [primitive]}
              for index in range(1 if shared else count)]
    document = {
        "asset": {"version": "2.0"},
        "extensionsUsed": ["OMI_physics_body", "OMI_physics_shape"],
        "extensions": {"OMI_physics_shape": {"shapes": [
            {"type": "box", "box": {"size": [1.0, 1.0, 1.0]}},
            {"type": "box", "box": {"size": [floor_size, 1.0, floor_size]}},
        ]}},
        "buffers": [{"byteLength": positions_size + indices_size, "uri": uri}],
        "bufferViews": [{"buffer": 0, "byteLength": positions_size, "target": 34962},
                        {"buffer": 0, "byteOffset": positions_size, "byteLength": indices_size, "target": 34963}],
        "accessors": [
            {"bufferView": 0, "componentType": 5126, "count": 8, "type": "VEC3",
             "min": [-0.5, -0.5, -0.5], "max": [0.5, 0.5, 0.5]},
            {"bufferView": 1, "componentType": 5123, "count": 36, "type": "SCALAR"},
        ],
        "meshes": meshes,
        "nodes": nodes,
        "scenes": [{"nodes": roots}],
        "scene": 0,
    }
    path.write_text(json.dumps(document))


# --- the child process: one case, a few runs ---------------------------------------------------------------


def import_seconds(path: Path, case: str) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one import of `path` into an empty scene."""
    import bpy  # noqa: PLC0415  (the parent process never loads Blender)

    bpy.ops.wm.read_homefile(use_empty=True)
    if case == "plain":
        bench_common.disable_addon()
    else:
        bench_common.enable_addon()
        options = bpy.context.scene.omi_physics
        options.import_physics = True
        options.import_rigid_bodies = case == "physics"
    start_cpu, start_wall = time.process_time(), time.perf_counter()
    bpy.ops.import_scene.gltf(filepath=str(path))
    bpy.context.view_layer.update()
    elapsed = time.process_time() - start_cpu, time.perf_counter() - start_wall
    body = bpy.data.objects.get("Body000000")
    if body is None or (body.rigid_body is not None) != (case == "physics"):
        raise RuntimeError(f"the {case} import did not do what was measured")
    return elapsed


def child(path: Path, case: str, repeats: int) -> None:
    import bpy  # noqa: PLC0415

    bench_common.enable_addon()
    bench_common.quiet_gltf_logs()
    bpy.ops.wm.read_homefile(use_empty=True)
    loaded = bench_common.resident_peak()
    runs = [import_seconds(path, case) for _ in range(repeats)]
    bench_common.report_to_parent({"cpu": min(cpu for cpu, _ in runs), "wall": min(wall for _, wall in runs),
                                   "loaded": loaded, "peak": bench_common.resident_peak()})


# --- the parent: writes the files, runs the cases, prints the table --------------------------------------------


def measure_cases(path: Path, count: int, cases: tuple[str, ...]) -> dict[str, dict]:
    """Each case's best CPU and wall time and its largest peak over `rounds` rounds of child processes.

    The cases alternate, and the order turns each round (plain, settings, physics; then physics, settings,
    plain), so that a change in the machine's load hits every case alike rather than the one that ran last."""
    rounds, repeats = (3, 2) if count <= 2000 else (2, 2) if count <= 5000 else (1, 1)
    results: dict[str, dict] = {}
    for turn in range(rounds):
        for case in (cases if turn % 2 == 0 else tuple(reversed(cases))):
            run = bench_common.run_child(Path(__file__), ["--child", str(path), case, str(repeats)])
            best = results.setdefault(case, run)
            best.update(cpu=min(best["cpu"], run["cpu"]), wall=min(best["wall"], run["wall"]),
                        peak=max(best["peak"], run["peak"]))
    return results


def main(counts: tuple[int, ...], kinds: tuple[bool, ...], cases: tuple[str, ...] = CASES,
         unique_limit: int | None = UNIQUE_LIMIT, interleaved_names: bool = False) -> None:
    print("Import of N dynamic bodies (body + collider + mesh nodes each), each case in its own process.")
    print("seconds: CPU (wall); ratios against the plain import: CPU (wall); peak: resident peak of the process "
          "(Blender + add-on alone before the first import: 'loaded')")
    print(f"{'N':>6} {'meshes':>7} {'plain':>15} {'settings':>15} {'physics':>15} {'settings x':>12} "
          f"{'physics x':>12} {'peak plain':>11} {'peak phys':>10} {'peak x':>7} {'loaded':>8}", flush=True)
    with tempfile.TemporaryDirectory() as directory:
        for count in counts:
            for shared in kinds:
                if not shared and unique_limit is not None and count > unique_limit:
                    continue
                path = Path(directory) / f"bodies_{count}_{'shared' if shared else 'unique'}.gltf"
                write_scene(count, shared, path, interleaved_names)
                results = measure_cases(path, count, cases)
                plain = results["plain"]
                cells = [f"{results[case]['cpu']:.2f} ({results[case]['wall']:.2f})" if case in results else "-"
                         for case in CASES]
                ratios = [f"{results[case]['cpu'] / plain['cpu']:.2f} ({results[case]['wall'] / plain['wall']:.2f})"
                          if case in results else "-" for case in ("settings", "physics")]
                peaks = (plain["peak"], results["physics"]["peak"])
                print(f"{count:>6} {'shared' if shared else 'unique':>7} {cells[0]:>15} {cells[1]:>15} {cells[2]:>15} "
                      f"{ratios[0]:>12} {ratios[1]:>12} {megabytes(peaks[0]):>11} {megabytes(peaks[1]):>10} "
                      f"{peaks[1] / peaks[0]:>7.2f} {megabytes(plain['loaded']):>8}", flush=True)
                path.unlink()


if __name__ == "__main__":
    arguments = sys.argv[1:]
    if arguments[:1] == ["--child"]:
        child(Path(arguments[1]), arguments[2], int(arguments[3]))
    else:
        named = tuple(int(value) for value in arguments if value.isdigit())
        kinds = (True,) if "--shared-only" in arguments else (False,) if "--unique-only" in arguments else (True, False)
        interleaved = "--interleaved-names" in arguments
        main(named or COUNTS, kinds, unique_limit=None if named else UNIQUE_LIMIT, interleaved_names=interleaved)
        if "--scale" in arguments:
            main((SCALE_COUNT,), (True,), ("plain", "physics"), interleaved_names=interleaved)
