"""The export's cost as a user meets it: .glb export with the add-on enabled against the same export with it
disabled, the median of per-round ratios, each round's exports back to back in one process (so a shared
machine's load hits both sides of a ratio alike).

The scene is `export_benchmark.build_scene` with shared meshes: N untagged Blender rigid bodies sharing three
meshes over a passive floor, five collision shapes in turn, a hinge every tenth body. Times are CPU seconds of
this process (the wall-clock ratio printed beside: on a busy machine other processes' load lands in it); the
garbage collector runs before every export, untimed.

`--against COMMIT` also runs that commit's add-on (taken out of git with `git archive` into a temporary
extension repository) in the same rounds, on the same scene, and prints both ratios: a regression shows as
the current ratio above the older one. `--profile` prints a cProfile of one export with the add-on (the
functions of the add-on and of the exporter that take the most time). `--dialect` picks OMI, KHR or BOTH.

Run: .venv/bin/python benchmarks/export_ratio.py [N ...] [--rounds 3] [--against 2bc4414] [--dialect BOTH]
                                                 [--profile]
"""

from __future__ import annotations

import argparse
import gc
import importlib
import io
import os
import statistics
import subprocess
import tarfile
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import bench_common
import bpy
import export_benchmark

OLD_REPO_MODULE = "omi_benchmark_old"


class OlderAddon:
    """Another commit's add-on, installed from `git archive` as an extension repository of its own, so that
    it is enabled and disabled in this process exactly as the current one is (one of the two at a time)."""

    def __init__(self, commit: str, folder: Path) -> None:
        loader = bench_common.loader()
        archive = subprocess.run(["git", "-C", str(loader.REPO_ROOT), "archive", "--format=tar", commit],
                                 capture_output=True, check=True).stdout
        target = folder / loader.ADDON_ID
        target.mkdir(parents=True)
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(target, filter="data")
        bpy.context.preferences.extensions.repos.new(name="OMI benchmark (older commit)", module=OLD_REPO_MODULE,
                                                     custom_directory=str(folder), source='USER')
        self.module = f"bl_ext.{OLD_REPO_MODULE}.{loader.ADDON_ID}"
        self.commit = commit

    def enable(self) -> None:
        if self.module not in bpy.context.preferences.addons:
            bpy.ops.preferences.addon_enable(module=self.module)
        if self.module not in bpy.context.preferences.addons:
            raise RuntimeError(f"Blender refused to enable {self.module}")

    def disable(self) -> None:
        if self.module in bpy.context.preferences.addons:
            bpy.ops.preferences.addon_disable(module=self.module)


def export_seconds(path: Path) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one export."""
    gc.collect()  # untimed: no export pays for the garbage of the one before
    start, start_wall = time.process_time(), time.perf_counter()
    result = bpy.ops.export_scene.gltf(filepath=str(path), export_format='GLB')
    elapsed = time.process_time() - start, time.perf_counter() - start_wall
    if result != {'FINISHED'}:
        raise RuntimeError(f"export failed: {result}")
    return elapsed


def configured(enable: Callable[[], None], dialect: str) -> Callable[[], None]:
    def step() -> None:
        enable()
        export_benchmark.choose_dialect(dialect)
    return step


def run(counts: list[int], rounds: int, dialect: str, older: OlderAddon | None, profile: bool) -> None:
    current = configured(bench_common.enable_addon, dialect)
    variants: list[tuple[str, Callable[[], None], Callable[[], None]]] = [("main", current, bench_common.disable_addon)]
    if older is not None:
        variants.append((older.commit, configured(older.enable, dialect), older.disable))
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "benchmark.glb"
        for count in counts:
            export_benchmark.build_scene(count, shared=True)
            for _name, enable, disable in variants:  # warm up each (imports, caches) and check what is measured
                enable()
                export_seconds(path)
                if export_benchmark.physics_nodes(path) < count:
                    raise RuntimeError("the export with the add-on wrote physics on too few bodies")
                disable()
            export_seconds(path)
            ratios: dict[str, list[float]] = {name: [] for name, _enable, _disable in variants}
            wall_ratios: dict[str, list[float]] = {name: [] for name in ratios}
            cells: dict[str, list[str]] = {name: [] for name in ratios}
            for _ in range(rounds):
                off, off_wall = export_seconds(path)
                for name, enable, disable in variants:
                    enable()
                    on, on_wall = export_seconds(path)
                    disable()
                    ratios[name].append(on / off)
                    wall_ratios[name].append(on_wall / off_wall)
                    cells[name].append(f"{on:.2f}/{off:.2f}")
            for name, values in ratios.items():
                print(f"{count:>6} {dialect:>5} {name:>8}: median on/off {statistics.median(values):.3f} CPU, "
                      f"{statistics.median(wall_ratios[name]):.3f} wall  (CPU rounds: {', '.join(cells[name])})",
                      flush=True)
            if profile:
                current()
                bench_common.print_profile(lambda: bpy.ops.export_scene.gltf(filepath=str(path), export_format='GLB'))
                bench_common.disable_addon()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("counts", nargs="*", type=int, default=[2000, 5000])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--dialect", default="OMI", choices=("OMI", "KHR", "BOTH"))
    parser.add_argument("--against", help="an older commit whose add-on runs in the same rounds")
    parser.add_argument("--profile", action="store_true")
    arguments = parser.parse_args()
    bench_common.enable_addon()
    bench_common.quiet_gltf_logs()
    print(f"Blender {bpy.app.version_string}, load {os.getloadavg()[0]:.1f}: .glb export, add-on on / off "
          f"(CPU s), median of {arguments.rounds} rounds")
    with tempfile.TemporaryDirectory() as folder:
        older = OlderAddon(arguments.against, Path(folder)) if arguments.against else None
        bench_common.disable_addon()
        importlib.invalidate_caches()
        run(arguments.counts, arguments.rounds, arguments.dialect, older, arguments.profile)


if __name__ == "__main__":
    main()
