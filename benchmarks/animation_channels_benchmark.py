"""Import time of a file with many animated physics channels, this checkout against an older commit, in one run.

The file: N hinged pairs (a dynamic crate, a lid, a joint with its own settings item) and one animation with
four LINEAR channels per pair: the crate's mass (a setting holds it one-to-one: read from the tables), the
joint's angular limit and drive velocity target (the joint's axes decide the settings: found by moving the
value) and the drive's damping (tables). Each case is `bpy.ops.import_scene.gltf` with the add-on's defaults
(settings and Blender rigid bodies) in an empty scene, in a child process of its own. The floor is the same
file without its animation; printed: seconds above the floor per case, the number of whole-document reads
(`io/omi/read/reader.read_document`) the physics animation made and their CPU time, and the ratio old / new.

The old commit (default: the last one before the import read the document once) is unpacked with
`git archive` into a temporary folder and imported from there, so both sides run on this machine, now.

Run: .venv/bin/python benchmarks/animation_channels_benchmark.py [N ...] [--against COMMIT] (default N: 50 200)
"""

from __future__ import annotations

import base64
import json
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import bench_common

COUNTS = (50, 200)
BEFORE = "4b308807482bf1c4b6933492c439dc61f4f0762e"  # main before the import read the document once
KEYS = 6
BODY, JOINT, SHAPE = "OMI_physics_body", "OMI_physics_joint", "OMI_physics_shape"


def write_file(path: Path, pairs: int, *, animated: bool = True) -> None:
    """`pairs` hinged crate/lid pairs; with `animated`, four channels per pair."""
    nodes: list[dict] = []
    joints = []
    for pair in range(pairs):
        x = 3.0 * (pair % 20)
        z = 3.0 * (pair // 20)
        base = len(nodes)
        nodes += [{"name": f"Crate{pair}", "translation": [x, 1, z], "children": [base + 2],
                   "extensions": {BODY: {"motion": {"type": "dynamic", "mass": 2.0}, "collider": {"shape": 0}}}},
                  {"name": f"Lid{pair}", "translation": [x, 2, z],
                   "extensions": {BODY: {"motion": {"type": "dynamic"}, "collider": {"shape": 0}}}},
                  {"name": f"Hinge{pair}", "translation": [0, 1, 0],
                   "extensions": {JOINT: {"joint": pair, "connectedNode": base + 1}}}]
        joints.append({"limits": [{"linearAxes": [0, 1, 2], "min": 0, "max": 0},
                                  {"angularAxes": [2], "min": -0.5, "max": 1.0}],
                       "drives": [{"type": "angular", "mode": "force", "axis": 2, "velocityTarget": 1.5,
                                   "damping": 2.0}]})
    document: dict = {
        "asset": {"version": "2.0"}, "scene": 0,
        "scenes": [{"nodes": [index for index in range(len(nodes)) if index % 3 != 2]}], "nodes": nodes,
        "extensionsUsed": [BODY, SHAPE, JOINT],
        "extensions": {SHAPE: {"shapes": [{"type": "box", "box": {"size": [1, 0.5, 1]}}]},
                       JOINT: {"physicsJoints": joints}},
    }
    if animated:
        _animate(document, pairs)
    path.write_text(json.dumps(document))


def _animate(document: dict, pairs: int) -> None:
    times = [key / 24.0 for key in range(KEYS)]
    series = {"mass": [2.0 + 0.5 * key for key in range(KEYS)],
              "limit": [-0.1 * (key % 4) for key in range(KEYS)],
              "target": [1.5 - 0.25 * key for key in range(KEYS)],
              "damping": [2.0 + 0.25 * key for key in range(KEYS)]}
    payload = struct.pack(f"<{KEYS}f", *times)
    offsets = {}
    for name, values in series.items():
        offsets[name] = len(payload)
        payload += struct.pack(f"<{KEYS}f", *values)
    document["extensionsUsed"].append("KHR_animation_pointer")
    document["buffers"] = [{"byteLength": len(payload),
                            "uri": "data:application/octet-stream;base64," + base64.b64encode(payload).decode()}]
    document["bufferViews"] = [{"buffer": 0, "byteLength": 4 * KEYS}] + [
        {"buffer": 0, "byteOffset": offsets[name], "byteLength": 4 * KEYS} for name in series]
    document["accessors"] = [{"bufferView": 0, "componentType": 5126, "count": KEYS, "type": "SCALAR",
                              "min": [times[0]], "max": [times[-1]]}] + [
        {"bufferView": view, "componentType": 5126, "count": KEYS, "type": "SCALAR"}
        for view in range(1, len(series) + 1)]
    joint = f"/extensions/{JOINT}/physicsJoints"
    channels, samplers = [], []
    for pair in range(pairs):
        pointers = [f"/nodes/{3 * pair}/extensions/{BODY}/motion/mass", f"{joint}/{pair}/limits/1/min",
                    f"{joint}/{pair}/drives/0/velocityTarget", f"{joint}/{pair}/drives/0/damping"]
        for output, pointer in enumerate(pointers, start=1):
            channels.append({"sampler": len(samplers), "target": {"path": "pointer", "extensions": {
                "KHR_animation_pointer": {"pointer": pointer}}}})
            samplers.append({"input": 0, "output": output})
    document["animations"] = [{"name": "Pairs", "channels": channels, "samplers": samplers}]


def child(path: str) -> None:
    """In the child process: import the file once; report times, document reads and keyframes made."""
    import bpy  # noqa: PLC0415

    bench_common.enable_addon()
    reader = bench_common.addon_module("io.omi.read.reader")
    read_document = reader.read_document
    reads = [0, 0.0]  # document reads, CPU seconds in them

    def counted(*args, **kwargs):
        reads[0] += 1
        started = time.process_time()
        try:
            return read_document(*args, **kwargs)
        finally:
            reads[1] += time.process_time() - started

    reader.read_document = counted
    bench_common.quiet_gltf_logs()
    bpy.ops.wm.read_homefile(use_empty=True)
    wall, cpu = time.perf_counter(), time.process_time()
    bpy.ops.import_scene.gltf(filepath=path)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    keyframes = sum(len(curve.keyframe_points) for obj in bpy.data.objects
                    if obj.animation_data and obj.animation_data.action
                    for curve in bench_common.addon_module("io.blender.animation.curves").fcurves(obj))
    bench_common.report_to_parent({"wall": wall, "cpu": cpu, "reads": reads[0], "read_cpu": reads[1],
                                   "keyframes": keyframes})


def run(script: Path, path: Path) -> dict:
    return bench_common.run_child(script, ["--child", str(path)])


def old_tree(commit: str, folder: Path) -> Path:
    """The add-on at `commit`, unpacked, with this benchmark (and its helpers) copied in; the script to run."""
    root = Path(__file__).resolve().parent.parent
    folder.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(root), "archive", commit], capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    for name in ("bench_common.py", Path(__file__).name):
        shutil.copy(Path(__file__).resolve().parent / name, folder / "benchmarks" / name)
    return folder / "benchmarks" / Path(__file__).name


def main(argv: list[str]) -> None:
    if argv[:1] == ["--child"]:
        child(argv[1])
        return
    commit = argv[argv.index("--against") + 1] if "--against" in argv else BEFORE
    counts = [int(arg) for arg in argv if arg.isdigit()] or list(COUNTS)
    print(f"Import of N hinged pairs with 4 physics channels each ({KEYS} keys), this checkout against "
          f"{commit[:10]}: CPU seconds above the file without animation")
    with tempfile.TemporaryDirectory() as folder:
        old_script = old_tree(commit, Path(folder) / "old")
        new_script = Path(__file__).resolve()
        for pairs in counts:
            still, animated = Path(folder) / f"still_{pairs}.gltf", Path(folder) / f"pairs_{pairs}.gltf"
            write_file(still, pairs, animated=False)
            write_file(animated, pairs)
            found = {}
            for name, script in (("old", old_script), ("new", new_script)):
                floor, result = run(script, still), run(script, animated)
                found[name] = result["cpu"] - floor["cpu"], result["reads"] - floor["reads"], result["keyframes"]
                reading = result["read_cpu"] - floor["read_cpu"]
                print(f"  {pairs:>4} pairs ({4 * pairs} channels), {name}: {found[name][0]:7.2f} s CPU "
                      f"({result['wall']:.2f} s wall in all), {found[name][1]} document reads ({reading:.2f} s CPU), "
                      f"{found[name][2]} keyframes")
            print(f"  {pairs:>4} pairs: old / new = x{found['old'][0] / max(found['new'][0], 1e-9):.1f} "
                  f"(same keyframes: {found['old'][2] == found['new'][2]})")


if __name__ == "__main__":
    main(sys.argv[1:])
