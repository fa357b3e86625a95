"""The import's cost against its floor: the file `export_ratio` exports (N untagged rigid bodies sharing three
meshes over a passive floor, five shapes in turn, a hinge every tenth body), imported with the add-on enabled,
against the floor measured in the same rounds of one process.

The floor is what any add-on making the same Blender rigid bodies must cost at least: Blender's importer alone
making the same objects (the plain import of the file with the nodes the add-on adds for it, its convex
hulls' collision-mesh children, already written into the file), then the same rigid bodies and constraints
made through the data API (the objects linked into the rigid body world's collections, which creates their
rigid bodies, and the values that differ from Blender's defaults set; the constraint empties created,
parented and placed; no operators). Its values are read from an import with the add-on before timing, and
the floor's scene is checked against it (the same objects, rigid bodies and constraints). Each round times
the plain import (the add-on disabled, the file as exported), the floor and the import with the add-on, in
CPU seconds of this process, each into an empty scene with the view layer updated after it; the garbage
collector runs before each, untimed. Printed: the median of per-round on / floor and on / plain ratios, and
on / floor in wall-clock seconds beside them (on a busy machine other processes' load lands in it).

`--against COMMIT` runs that commit's add-on in the same rounds (as `export_ratio` does); `--profile` prints
a cProfile of one import with the add-on.

Run: .venv/bin/python benchmarks/import_ratio.py [N ...] [--rounds 3] [--against COMMIT] [--profile]
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import os
import statistics
import struct
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import bench_common
import bpy
import export_benchmark
from export_ratio import OlderAddon

MESH_SHAPES = ("convex", "trimesh")


def _write_glb(document: dict[str, Any], binary: bytes, path: Path) -> None:
    text = json.dumps(document, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 4)
    binary += b"\0" * (-len(binary) % 4)
    chunks = struct.pack("<I4s", len(text), b"JSON") + text + struct.pack("<I4s", len(binary), b"BIN\0") + binary
    path.write_bytes(struct.pack("<4sII", b"glTF", 2, 12 + len(chunks)) + chunks)


def floor_file(path: Path, target: Path) -> None:
    """The exported file with the collision-mesh child nodes the add-on's import adds (a convex or triangle
    mesh shape whose mesh is not its node's own), so that Blender's importer alone makes the same objects."""
    data = path.read_bytes()
    length = struct.unpack_from("<I", data, 12)[0]
    document = json.loads(data[20:20 + length])
    binary_length = struct.unpack_from("<I", data, 20 + length)[0]
    binary = data[28 + length:28 + length + binary_length]
    shapes = document.get("extensions", {}).get("OMI_physics_shape", {}).get("shapes", [])
    nodes = document["nodes"]
    for node in list(nodes):
        collider = node.get("extensions", {}).get("OMI_physics_body", {}).get("collider")
        shape = shapes[collider["shape"]] if collider is not None and "shape" in collider else None
        if shape is None or shape["type"] not in MESH_SHAPES:
            continue
        mesh = shape[shape["type"]]["mesh"]
        if node.get("mesh") is None:
            node["mesh"] = mesh
        elif node["mesh"] != mesh:
            nodes.append({"name": f"{node['name']} collision mesh", "mesh": mesh})
            node["children"] = [*node.get("children", []), len(nodes) - 1]
    _write_glb(document, binary, target)


def _changed(struct_value: Any) -> dict[str, Any]:
    """An RNA struct's writable values that differ from their defaults (pointers by name)."""
    values: dict[str, Any] = {}
    for prop in struct_value.bl_rna.properties:
        if prop.is_readonly or prop.identifier == "rna_type":
            continue
        value = getattr(struct_value, prop.identifier)
        if prop.type == 'POINTER':
            if value is not None:
                values[prop.identifier] = value.name
            continue
        if getattr(prop, "is_array", False):
            value = tuple(value)
            default = tuple(prop.default_array)
        else:
            default = prop.default
        if value != default:
            values[prop.identifier] = value
    return values


class Floor:
    """What an import with the add-on made beyond Blender's importer (`present`: the object names the floor's
    plain import makes), made again through the data API: the objects it generated (wire shape carriers,
    constraint empties), the rigid bodies and the constraints."""

    def __init__(self, present: set[str]) -> None:
        self.made = [(obj.name, None if obj.data is None else obj.data.name, obj.parent.name if obj.parent else None,
                      obj.matrix_world.copy()) for obj in bpy.data.objects if obj.name not in present]
        self.meshes = sorted({mesh for _name, mesh, _parent, _matrix in self.made if mesh is not None})
        self.bodies = [(obj.name, _changed(obj.rigid_body)) for obj in bpy.data.objects if obj.rigid_body]
        self.constraints = [(obj.name, _changed(obj.rigid_body_constraint))
                            for obj in bpy.data.objects if obj.rigid_body_constraint]
        self.names = sorted(obj.name for obj in bpy.data.objects)

    def make(self) -> None:
        scene = bpy.context.scene
        world = scene.rigidbody_world
        meshes = {name: bpy.data.meshes.get(name) or bpy.data.meshes.new(name) for name in self.meshes}
        objects = {obj.name: obj for obj in bpy.data.objects}
        collection = bpy.data.collections.new("Generated")
        scene.collection.children.link(collection)
        for name, mesh, parent, matrix in self.made:
            obj = bpy.data.objects.new(name, None if mesh is None else meshes[mesh])
            collection.objects.link(obj)
            if parent is not None:
                obj.parent = objects[parent]
            obj.matrix_world = matrix
            objects[obj.name] = obj
        link = world.collection.objects.link
        for name, values in self.bodies:
            obj = objects[name]
            link(obj)
            body = obj.rigid_body
            for key, value in values.items():
                setattr(body, key, value)
        link = world.constraints.objects.link
        for name, values in self.constraints:
            obj = objects[name]
            link(obj)
            constraint = obj.rigid_body_constraint
            for key, value in values.items():
                setattr(constraint, key, objects[value] if key in ("object1", "object2") else value)

    def check(self) -> None:
        if sorted(obj.name for obj in bpy.data.objects) != self.names or \
                sum(1 for obj in bpy.data.objects if obj.rigid_body) != len(self.bodies) or \
                sum(1 for obj in bpy.data.objects if obj.rigid_body_constraint) != len(self.constraints):
            raise RuntimeError("the floor made other objects or rigid bodies than the add-on's import")


def empty_scene(floor: bool) -> None:
    bpy.ops.wm.read_homefile(use_empty=True)
    if floor:  # the world before the objects, as the add-on makes it (no data API creates a world)
        bpy.ops.rigidbody.world_add()
        world = bpy.context.scene.rigidbody_world
        world.collection = bpy.data.collections.new("RigidBodyWorld")
        world.constraints = bpy.data.collections.new("RigidBodyConstraints")


def import_seconds(path: Path, after: Callable[[], None] | None = None, floor: bool = False) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one import into an empty scene, `after` and the view layer's update
    included."""
    empty_scene(floor)
    gc.collect()
    start, start_wall = time.process_time(), time.perf_counter()
    bpy.ops.import_scene.gltf(filepath=str(path))
    if after is not None:
        after()
    bpy.context.view_layer.update()
    return time.process_time() - start, time.perf_counter() - start_wall


def run(counts: list[int], rounds: int, older: OlderAddon | None, profile: bool) -> None:
    variants: list[tuple[str, Callable[[], None], Callable[[], None]]] = [
        ("main", bench_common.enable_addon, bench_common.disable_addon)]
    if older is not None:
        variants.append((older.commit, older.enable, older.disable))
    with tempfile.TemporaryDirectory() as directory:
        path, plain_path = Path(directory) / "bodies.glb", Path(directory) / "floor.glb"
        for count in counts:
            export_benchmark.build_scene(count, shared=True)
            bench_common.enable_addon()
            export_benchmark.choose_dialect("OMI")
            bpy.ops.export_scene.gltf(filepath=str(path), export_format='GLB')
            bench_common.disable_addon()
            floor_file(path, plain_path)
            import_seconds(plain_path)
            present = {obj.name for obj in bpy.data.objects}
            floors: dict[str, Floor] = {}
            for name, enable, disable in variants:  # warm up; read what the floor makes
                enable()
                import_seconds(path)
                floors[name] = Floor(present)
                disable()
            floor = floors["main"]
            import_seconds(plain_path, floor.make, floor=True)
            floor.check()
            ratios: dict[str, list[float]] = {name: [] for name in floors}
            wall_ratios: dict[str, list[float]] = {name: [] for name in floors}
            plain_ratios: dict[str, list[float]] = {name: [] for name in floors}
            cells: dict[str, list[str]] = {name: [] for name in floors}
            for _ in range(rounds):
                plain, _plain_wall = import_seconds(path)
                least, least_wall = import_seconds(plain_path, floor.make, floor=True)
                for name, enable, disable in variants:
                    enable()
                    on, on_wall = import_seconds(path)
                    disable()
                    ratios[name].append(on / least)
                    wall_ratios[name].append(on_wall / least_wall)
                    plain_ratios[name].append(on / plain)
                    cells[name].append(f"{on:.2f}/{least:.2f}/{plain:.2f}")
            for name, values in ratios.items():
                print(f"{count:>6} {name:>8}: median on/floor {statistics.median(values):.3f} CPU, "
                      f"{statistics.median(wall_ratios[name]):.3f} wall, on/plain "
                      f"{statistics.median(plain_ratios[name]):.3f}  (CPU rounds on/floor/plain: "
                      f"{', '.join(cells[name])})", flush=True)
            if profile:
                bench_common.enable_addon()
                empty_scene(False)
                def imported() -> None:
                    bpy.ops.import_scene.gltf(filepath=str(path))
                    bpy.context.view_layer.update()

                bench_common.print_profile(imported, cumulative_rows=60)
                bench_common.disable_addon()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("counts", nargs="*", type=int, default=[2000, 5000])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--against", help="an older commit whose add-on runs in the same rounds")
    parser.add_argument("--profile", action="store_true")
    arguments = parser.parse_args()
    bench_common.enable_addon()
    bench_common.quiet_gltf_logs()
    print(f"Blender {bpy.app.version_string}, load {os.getloadavg()[0]:.1f}: .glb import, add-on on / floor / "
          f"plain (CPU s), median of {arguments.rounds} rounds")
    with tempfile.TemporaryDirectory() as folder:
        older = OlderAddon(arguments.against, Path(folder)) if arguments.against else None
        bench_common.disable_addon()
        importlib.invalidate_caches()
        run(arguments.counts, arguments.rounds, older, arguments.profile)


if __name__ == "__main__":
    main()
