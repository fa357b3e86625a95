"""What every benchmark here shares: loading the add-on, timing, peak memory, quiet glTF logs.

Benchmarks print ratios measured in the same run (never a timed assertion): the add-on's work against
Blender's own work on the same scene. Times are the best of a few runs; memory is reported two ways:
- Python peak: tracemalloc's peak during one untimed run (sees every Python object the exporter, the
  importer and the add-on create, not Blender's C allocations);
- resident peak: the process's maximum resident set size (`ru_maxrss`), which is what a user's machine
  feels. It only grows within a process, so benchmarks that compare peaks run each case in a child
  process (`run_child`).
"""

from __future__ import annotations

import cProfile
import gc
import json
import logging
import pstats
import resource
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "scripts"))  # not the repo root: io/ would shadow io
sys.path.insert(0, str(HERE.parent / "tests"))  # addon_loader
CHILD_MARK = "BENCHMARK-RESULT "


def loader():
    """tests/addon_loader, imported on first use: it loads bpy, which a parent process never needs."""
    import addon_loader  # noqa: PLC0415

    return addon_loader


def enable_addon() -> None:
    loader().enable()


def disable_addon() -> None:
    """Disable the add-on if it is enabled (Blender complains about disabling it twice)."""
    import bpy  # noqa: PLC0415

    if loader().ADDON_MODULE in bpy.context.preferences.addons:
        loader().disable()


def addon_module(name: str):
    return loader().module(name)


def best_of(function: Callable[[], object], repeats: int = 5) -> float:
    """The shortest wall-clock time of `repeats` calls, in seconds."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def python_peak(function: Callable[[], object]) -> int:
    """Peak bytes of Python allocations during one call (tracemalloc; the call runs slower meanwhile)."""
    tracemalloc.start()
    try:
        function()
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak


def resident_peak() -> int:
    """The process's peak resident set size so far, in bytes (Linux reports KiB, macOS bytes)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024


def megabytes(size: int) -> str:
    return f"{size / 2**20:.1f} MB"


def quiet_gltf_logs() -> None:
    """The glTF add-on logs every primitive at INFO level; console output would dominate the timing."""
    logging.getLogger("glTFImporter").setLevel(logging.WARNING)
    import bpy  # noqa: PLC0415

    bpy.app.debug_value = 2  # the glTF add-on's own log level: errors only


def report_to_parent(result: dict) -> None:
    """Print one result line a parent process reads back (see `run_child`)."""
    print(CHILD_MARK + json.dumps(result), flush=True)


def run_child(script: Path, arguments: list[str]) -> dict:
    """Run `script` with `arguments` in a fresh Python (the one running now) and return its result line."""
    completed = subprocess.run([sys.executable, str(script), *arguments], capture_output=True, text=True,
                               check=False)
    for line in completed.stdout.splitlines():
        if line.startswith(CHILD_MARK):
            return json.loads(line[len(CHILD_MARK):])
    raise RuntimeError(f"{script.name} {' '.join(arguments)} printed no result (exit {completed.returncode}):\n"
                       f"{completed.stdout[-2000:]}\n{completed.stderr[-2000:]}")


def print_profile(function: Callable[[], object], cumulative_rows: int = 45) -> None:
    """A cProfile of one call (after a collection, so a pending one is not charged to it), printed by
    cumulative and by own time: where a benchmark's ratio goes."""
    profiler = cProfile.Profile()
    gc.collect()
    profiler.enable()
    function()
    profiler.disable()
    stats = pstats.Stats(profiler)
    stats.sort_stats("cumulative").print_stats(cumulative_rows)
    stats.sort_stats("tottime").print_stats(30)
