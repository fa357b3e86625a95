"""Batches for the command-line tool: which files, and how many worker processes to check them with."""

from __future__ import annotations

import contextlib
import functools
import gc
import multiprocessing
import os
import signal
import stat
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

from .results import EXIT_INTERRUPTED, Result, failed

GLTF_SUFFIXES = (".gltf", ".glb")
POOL_MIN_BYTES = 1 << 20  # see useful_jobs

Task = TypeVar("Task")


def run_pool(worker: Callable[[Task], Result], tasks: list[Task], jobs: int) -> Iterator[Result]:
    """Results in task order; a process pool when there is more than one task and job. A file too big for
    the memory left is a failed result, not a MemoryError."""
    jobs = max(1, min(jobs, len(tasks)))
    guarded = functools.partial(_guarded, worker)
    if jobs == 1:
        yield from map(guarded, tasks)
        return
    fork = "fork" in multiprocessing.get_all_start_methods() and sys.platform != "darwin"
    if fork:
        gc.freeze()  # the workers share the loaded schemas and modules without copying their pages
        pool = multiprocessing.get_context("fork").Pool(jobs, initializer=_worker_signals)
    else:
        pool = multiprocessing.get_context("spawn").Pool(jobs, initializer=exec, initargs=(_spawned_start(), {}))
    with pool:
        yield from pool.imap(guarded, tasks, chunksize=max(1, len(tasks) // (jobs * 32)))


def _spawned_start() -> str:
    """What a spawned worker (macOS, Windows) runs first. It is a fresh Python, and the core's package was
    loaded by path under a name no fresh Python can import (`omi_core` for scripts/omi_physics_cli.py,
    Blender's `bl_ext.<repository>.<id>.io.omi` inside Blender): it is loaded the same way before any task
    (whose function is named by that package) arrives. Only `io/omi` is needed: it imports nothing else; the
    packages above it are empty stand-ins, which `from .. import x` needs present."""
    package = __name__.removesuffix(".cli.batch")
    folder = Path(__file__).resolve().parent.parent
    parents = [package.rsplit(".", depth)[0] for depth in range(package.count("."), 0, -1)]
    return (f"import importlib, importlib.util, sys, types\n"
            f"for name in {parents!r}:\n"
            f"    sys.modules.setdefault(name, types.ModuleType(name))\n"
            f"if {package!r} not in sys.modules:\n"
            f"    spec = importlib.util.spec_from_file_location({package!r}, {str(folder / '__init__.py')!r},\n"
            f"                                                  submodule_search_locations=[{str(folder)!r}])\n"
            f"    module = importlib.util.module_from_spec(spec)\n"
            f"    sys.modules[{package!r}] = module\n"
            f"    spec.loader.exec_module(module)\n"
            f"importlib.import_module({package + '.cli.batch'!r})._worker_signals()\n")


def _guarded(worker: Callable[[Task], Result], task: Task) -> Result:
    try:
        return worker(task)
    except MemoryError:
        path = str(task[0]) if isinstance(task, tuple) and task else "?"
        size = ""
        with contextlib.suppress(OSError):
            size = f" ({os.stat(path).st_size / 1e9:.2f} GB)"
        return failed(path, f"not enough memory to process it{size}; nothing was written", "failed")


def _worker_signals() -> None:
    """Ctrl-C reaches the main process, which stops the pool; a worker stopped then cleans up as it ends
    (the temporary files of an output it was writing go) instead of printing a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _stop)


def _stop(_number: int, _frame: object) -> None:
    raise SystemExit(EXIT_INTERRUPTED)


def useful_jobs(files: list[str], jobs: int | None) -> int:
    """`--jobs` as given; without it, the CPU count, or 1 when the files are too small for a pool to pay for
    starting its processes.

    Measured on the project's 2-core machine: a file is checked at about 9 MB/s (schemas included) and a
    pool of two costs about 60 ms, so below about 1 MB in all one process is faster.
    """
    if jobs is not None:
        return max(1, jobs)
    total = 0
    for file in files:
        with contextlib.suppress(OSError):
            total += os.stat(file).st_size
    return (os.cpu_count() or 1) if total >= POOL_MIN_BYTES else 1


def expand_paths(arguments: list[str], skipped: list[tuple[str, str]] | None = None) -> list[tuple[str, Path]]:
    """(file, its name for --out-dir): files as given, under their own name; a folder stands for every
    .gltf/.glb file below it (sorted), named by its path inside the folder. Entries of a folder with a glTF
    name that are no regular file (a folder named x.gltf, a FIFO, a dangling link) go to `skipped` as
    (path, what it is), so that each is named rather than passed over in silence."""
    files: list[tuple[str, Path]] = []
    for argument in arguments:
        path = Path(argument)
        if path.is_dir():
            for found in sorted(path.rglob("*")):
                if found.suffix.lower() not in GLTF_SUFFIXES:
                    continue
                kind = not_a_file(found)
                if kind is None:
                    files.append((str(found), found.relative_to(path)))
                elif skipped is not None:
                    skipped.append((str(found), kind))
        else:
            files.append((argument, Path(path.name)))
    return files


def not_a_file(path: Path) -> str | None:
    """What the path is when it is not a regular file (a folder, a FIFO, a dangling link...), else None."""
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return "a symbolic link to a missing file" if path.is_symlink() else "No such file or directory"
    except OSError as error:
        return str(error.strerror or error)
    if stat.S_ISREG(mode):
        return None
    kinds = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"),
             (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"))
    return next((f"not a regular file but {name}" for test, name in kinds if test(mode)), "not a regular file")
