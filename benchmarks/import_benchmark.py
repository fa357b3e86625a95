"""Import speed: a glTF with N dynamic bodies imported with the OMI physics, against the same import without.

Each body is laid out the way exporters such as Godot write it: a body node (dynamic motion), a
collider child node (a box, no mesh) and a visible child mesh (one shared box mesh), over one static
floor. Times are `bpy.ops.import_scene.gltf` plus the view layer update that follows it, best of a few
runs, each in an empty scene, as CPU seconds of this process (other programs on a shared machine do not
skew them; Blender's own worker threads count) and as wall-clock seconds:
- baseline: the add-on's import option off (the glTF importer alone);
- settings: OMI settings written, no Blender rigid bodies;
- physics: settings and Blender rigid bodies (the default).

Run: .venv/bin/python benchmarks/import_benchmark.py [N ...]   (or .venv-4.2/bin/python)
"""

from __future__ import annotations

import base64
import json
import struct
import sys
import tempfile
import time
from pathlib import Path

import bpy

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))  # not the repo root: io/ would shadow io
import addon_loader

COUNTS = (100, 1000, 5000)
REPEATS = {100: 5, 1000: 3, 5000: 3}


def _box_mesh_buffer() -> tuple[str, int, int]:
    """A unit box (8 positions, 12 triangles) as a data URI, and the byte sizes of its two views."""
    corners = [(x, y, z) for x in (-0.5, 0.5) for y in (-0.5, 0.5) for z in (-0.5, 0.5)]
    faces = ((0, 1, 3), (0, 3, 2), (4, 6, 7), (4, 7, 5), (0, 4, 5), (0, 5, 1),
             (2, 3, 7), (2, 7, 6), (0, 2, 6), (0, 6, 4), (1, 5, 7), (1, 7, 3))
    positions = struct.pack("<24f", *(c for corner in corners for c in corner))
    indices = struct.pack("<36H", *(i for face in faces for i in face))
    data = base64.b64encode(positions + indices).decode("ascii")
    return f"data:application/octet-stream;base64,{data}", len(positions), len(indices)


def write_scene(count: int, path: Path) -> None:
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
            "name": f"Body{index:05d}", "children": [body + 1],
            "translation": [2.0 * (index % side), 2.0 + (index // (side * side)) * 2.0, 2.0 * (index // side % side)],
            "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic", "mass": 2.0}}},
        })
        nodes.append({"name": f"Collider{index:05d}", "children": [body + 2],
                      "extensions": {"OMI_physics_body": {"collider": {"shape": 0}}}})
        nodes.append({"name": f"Mesh{index:05d}", "mesh": 0})
        roots.append(body)
    floor_size = 2.0 * side + 2.0
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
        "meshes": [{"name": "Crate", "primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}],
        "nodes": nodes,
        "scenes": [{"nodes": roots}],
        "scene": 0,
    }
    path.write_text(json.dumps(document))


def import_seconds(path: Path, physics: bool, rigid_bodies: bool) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one import."""
    bpy.ops.wm.read_homefile(use_empty=True)
    options = bpy.context.scene.omi_physics
    options.import_physics = physics
    options.import_rigid_bodies = rigid_bodies
    start_cpu, start_wall = time.process_time(), time.perf_counter()
    bpy.ops.import_scene.gltf(filepath=str(path))
    bpy.context.view_layer.update()
    elapsed = time.process_time() - start_cpu, time.perf_counter() - start_wall
    expected = rigid_bodies and physics
    body = bpy.data.objects.get("Body00000")
    if body is None or (body.rigid_body is not None) != expected:
        raise RuntimeError(f"the import did not do what was measured (rigid bodies expected: {expected})")
    return elapsed


def best(path: Path, physics: bool, rigid_bodies: bool, repeats: int) -> tuple[float, float]:
    runs = [import_seconds(path, physics, rigid_bodies) for _ in range(repeats)]
    return min(cpu for cpu, _wall in runs), min(wall for _cpu, wall in runs)


def main(counts: tuple[int, ...]) -> None:
    addon_loader.enable()
    bpy.app.debug_value = 2  # the importer logs errors only: console output is not what is measured
    print(f"Blender {bpy.app.version_string}: import of N dynamic bodies (body + collider + mesh nodes each)")
    print("seconds: CPU (wall); ratios against the baseline: CPU (wall)")
    print(f"{'N':>6} {'baseline':>15} {'settings':>15} {'physics':>15} {'settings x':>13} {'physics x':>13}")
    with tempfile.TemporaryDirectory() as directory:
        for count in counts:
            path = Path(directory) / f"bodies_{count}.gltf"
            write_scene(count, path)
            repeats = REPEATS.get(count, 2)
            baseline = best(path, False, False, repeats)
            settings = best(path, True, False, repeats)
            physics = best(path, True, True, repeats)
            cells = [f"{cpu:.3f} ({wall:.3f})" for cpu, wall in (baseline, settings, physics)]
            ratios = [f"{run[0] / baseline[0]:.2f} ({run[1] / baseline[1]:.2f})" for run in (settings, physics)]
            print(f"{count:>6} {cells[0]:>15} {cells[1]:>15} {cells[2]:>15} {ratios[0]:>13} {ratios[1]:>13}")


if __name__ == "__main__":
    arguments = [int(value) for value in sys.argv[1:] if value.isdigit()]
    main(tuple(arguments) or COUNTS)
