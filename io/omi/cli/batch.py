"""Batches for the command-line tool: which files, and how many worker processes to check them with."""

from __future__ import annotations

import contextlib
import gc
import multiprocessing
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

from .results import Result

GLTF_SUFFIXES = (".gltf", ".glb")
POOL_MIN_BYTES = 1 << 20  # see useful_jobs

Task = TypeVar("Task")


def run_pool(worker: Callable[[Task], Result], tasks: list[Task], jobs: int) -> Iterator[Result]:
    """Results in task order; a process pool when there is more than one task and job."""
    jobs = max(1, min(jobs, len(tasks)))
    if jobs == 1:
        yield from map(worker, tasks)
        return
    fork = "fork" in multiprocessing.get_all_start_methods() and sys.platform != "darwin"
    if fork:
        gc.freeze()  # the workers share the loaded schemas and modules without copying their pages
    with multiprocessing.get_context("fork" if fork else "spawn").Pool(jobs) as pool:
        yield from pool.imap(worker, tasks, chunksize=max(1, len(tasks) // (jobs * 32)))


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


def expand_paths(arguments: list[str]) -> list[tuple[str, Path]]:
    """(file, its name for --out-dir): files as given, under their own name; a folder stands for every
    .gltf/.glb file below it (sorted), named by its path inside the folder."""
    files: list[tuple[str, Path]] = []
    for argument in arguments:
        path = Path(argument)
        if path.is_dir():
            files += [(str(found), found.relative_to(path)) for found in sorted(path.rglob("*"))
                      if found.suffix.lower() in GLTF_SUFFIXES and found.is_file()]
        else:
            files.append((argument, Path(path.name)))
    return files
