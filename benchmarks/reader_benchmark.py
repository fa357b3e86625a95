"""Reader speed: `io.omi.read.reader.read_document` on a glTF with N bodies, against baselines of the same run.

The document is laid out like the import benchmark's (a body node with a dynamic motion, a collider
child with a box shape, a physics material and a collision filter, a child mesh node: 3 nodes per body),
so N = 5000 gives 15 000 nodes. Times are the best of a few runs, CPU seconds of this process:
- json.loads: parsing the document's text (what every importer pays before reading anything);
- traversal: a plain walk that touches every node's OMI extension and every value in it (the least a
  reader that looks at everything can do);
- read_document: the reader, from parsed JSON to the model, with every check.
The ratios are read_document over each baseline. No timing is asserted anywhere.

Run: .venv/bin/python benchmarks/reader_benchmark.py [N ...]   (or .venv-4.2/bin/python)
"""

from __future__ import annotations

import gc
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # addon_loader; never the repo root (io/)
import addon_loader

COUNTS = (1000, 5000, 15000)
REPEATS = {1000: 7, 5000: 5, 15000: 3}
BODY = "OMI_physics_body"


def document(count: int) -> dict:
    """N dynamic bodies (body + collider + mesh nodes each) over one static floor."""
    nodes: list[dict] = [{"name": "Floor", "extensions": {BODY: {"collider": {"shape": 1}}}}]
    side = max(1, round(count ** 0.5))
    for index in range(count):
        body = len(nodes)
        nodes.append({
            "name": f"Body{index:05d}", "children": [body + 1],
            "translation": [2.0 * (index % side), 2.0, 2.0 * (index // side % side)],
            "extensions": {BODY: {"motion": {"type": "dynamic", "mass": 2.0, "linearVelocity": [0.0, 1.0, 0.0]}}},
        })
        nodes.append({"name": f"Collider{index:05d}", "children": [body + 2],
                      "extensions": {BODY: {"collider": {"shape": 0, "physicsMaterial": index % 2,
                                                         "collisionFilter": 0}}}})
        nodes.append({"name": f"Mesh{index:05d}", "mesh": 0})
    return {
        "asset": {"version": "2.0"},
        "extensionsUsed": [BODY, "OMI_physics_shape"],
        "extensions": {
            "OMI_physics_shape": {"shapes": [{"type": "box", "box": {"size": [1.0, 1.0, 1.0]}},
                                             {"type": "box", "box": {"size": [200.0, 1.0, 200.0]}}]},
            BODY: {"physicsMaterials": [{"staticFriction": 0.8}, {"restitution": 0.5, "frictionCombine": "maximum"}],
                   "collisionFilters": [{"collisionSystems": ["crates"], "notCollideWithSystems": ["ghosts"]}]},
        },
        "meshes": [{"name": "Crate", "primitives": [{"attributes": {"POSITION": 0}}]}],
        "nodes": nodes,
        "scenes": [{"nodes": [0, *range(1, 3 * count + 1, 3)]}],
        "scene": 0,
    }


def traverse(gltf: dict) -> int:
    """Touch every node's OMI extension and every value inside it; return how many values were seen."""
    seen = 0
    stack: list[Any] = []
    for node in gltf["nodes"]:
        extensions = node.get("extensions")
        if isinstance(extensions, dict) and BODY in extensions:
            stack.append(extensions[BODY])
        while stack:
            value = stack.pop()
            seen += 1
            if isinstance(value, dict):
                stack.extend(value.values())
            elif isinstance(value, list):
                stack.extend(value)
    return seen


def best_cpu(run: Callable[[], object], repeats: int) -> float:
    """The shortest CPU time of `repeats` runs (the garbage collector paused, as in the import hook)."""
    times = []
    for _ in range(repeats):
        gc.collect()
        gc.disable()
        try:
            start = time.process_time()
            run()
            times.append(time.process_time() - start)
        finally:
            gc.enable()
    return min(times)


def main(counts: tuple[int, ...]) -> None:
    addon_loader.enable()
    reader = addon_loader.module("io.omi.read.reader")
    print(f"Python {sys.version.split()[0]}: read_document on N bodies (3 nodes each); CPU seconds, best of a few")
    print(f"{'N':>6} {'nodes':>6} {'json.loads':>11} {'traversal':>10} {'reader':>8} {'x loads':>8} {'x walk':>8}")
    for count in counts:
        gltf = document(count)
        text = json.dumps(gltf)
        parsed = json.loads(text)
        physics = reader.read_document(parsed)
        bodies = sum(1 for node in physics.nodes.values() if node.motion is not None)
        if bodies != count or physics.issues:
            raise RuntimeError(f"the reader did not read what was measured: {bodies} bodies, {physics.issues[:3]}")
        repeats = REPEATS.get(count, 3)
        loads = best_cpu(lambda text=text: json.loads(text), repeats)
        walk = best_cpu(lambda parsed=parsed: traverse(parsed), repeats)
        read = best_cpu(lambda parsed=parsed: reader.read_document(parsed), repeats)
        print(f"{count:>6} {len(parsed['nodes']):>6} {loads:>11.4f} {walk:>10.4f} {read:>8.4f} "
              f"{read / loads:>8.2f} {read / walk:>8.2f}")


if __name__ == "__main__":
    arguments = [int(value) for value in sys.argv[1:] if value.isdigit()]
    main(tuple(arguments) or COUNTS)
