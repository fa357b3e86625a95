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
import threading
from collections.abc import Callable, Generator, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import TimeoutError as FuturesTimeout
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import TypeVar

from .results import EXIT_INTERRUPTED, Result, failed

GLTF_SUFFIXES = (".gltf", ".glb")
POOL_MIN_BYTES = 1 << 20  # see useful_jobs
FILE_TIME_BASE = 300.0  # seconds any file may take in a worker, plus its size at the rate below
FILE_TIME_BYTES_PER_SECOND = 1 << 20
STOP_GRACE = 5.0  # seconds a stopped worker has to clean up before it is killed

Task = TypeVar("Task")


def run_pool(worker: Callable[[Task], Result], tasks: list[Task], jobs: int) -> Iterator[Result]:
    """Results in task order; a process pool when there is more than one task and job. A file too big for
    the memory left is a failed result, not a MemoryError. Every file ends: a worker that dies (a crash, the
    kernel's out-of-memory killer) or takes longer than `file_time_limit` fails its file, not the batch."""
    jobs = max(1, min(jobs, len(tasks)))
    guarded = functools.partial(_guarded, worker)
    if jobs == 1:
        yield from map(guarded, tasks)
        return
    fork = "fork" in multiprocessing.get_all_start_methods() and sys.platform != "darwin"
    # The forked workers share the loaded schemas and modules without copying their pages; the caller's
    # process gets its collector back afterwards (a frozen heap would outlive the batch in Blender).
    froze = fork and gc.get_freeze_count() == 0
    if froze:
        gc.freeze()
    try:
        left = list(tasks)
        while left:
            # After a worker died, one worker at a time: the file it held is then known, and only it fails.
            done = yield from _pool_run(guarded, left, jobs, fork)
            left, jobs = left[done:], 1
    finally:
        if froze:
            gc.unfreeze()


def _pool_run(guarded: Callable[[Task], Result], tasks: list[Task], jobs: int,
              fork: bool) -> Generator[Result, None, int]:
    """Run `tasks` in one pool, yielding results in order, until all are done or the pool breaks; how many
    tasks were answered (the rest run again). With one worker the task at the break is failed first."""
    if fork:
        context = multiprocessing.get_context("fork")
        pool = ProcessPoolExecutor(jobs, context, initializer=_worker_signals)
    else:
        pool = ProcessPoolExecutor(jobs, multiprocessing.get_context("spawn"), initializer=exec,
                                   initargs=(_spawned_start(), {}))
    answered = 0
    try:
        futures = [pool.submit(guarded, task) for task in tasks]
        for task, future in zip(tasks, futures, strict=True):
            limit = file_time_limit(task)
            try:
                result = future.result(timeout=limit)
            except BrokenProcessPool:
                if jobs > 1:
                    return answered
                result = failed(_task_path(task), "its worker process ended without an answer (a crash, or "
                                "the system stopped it for memory); nothing was written", "failed")
            except FuturesTimeout:
                _stop_workers(pool)
                result = failed(_task_path(task), f"took longer than {limit:.0f} s and was stopped; nothing "
                                "was written", "failed")
                yield result
                return answered + 1
            yield result
            answered += 1
            if jobs == 1 and future.exception() is not None:
                return answered  # the pool is broken: a new one for the rest
        return answered
    except BaseException:
        _stop_workers(pool)  # Ctrl-C or the consumer stopped: the workers clean up (`_stop`) and end
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def file_time_limit(task: object) -> float:
    """Seconds one file may take in a worker: generous (files are checked at about 9 MB/s), so that only a
    worker that hangs reaches it."""
    with contextlib.suppress(OSError):
        return FILE_TIME_BASE + os.stat(_task_path(task)).st_size / FILE_TIME_BYTES_PER_SECOND
    return FILE_TIME_BASE


def _task_path(task: object) -> str:
    return str(task[0]) if isinstance(task, tuple) and task else "?"


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """End the pool's workers: SIGTERM first (each removes what it was writing, `_stop`), SIGKILL for one
    that does not end within `STOP_GRACE` (a worker stuck in C code never runs a Python signal handler).
    The executor has no public way to do this before Python 3.14 (`terminate_workers`)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        with contextlib.suppress(OSError, AttributeError):
            process.terminate()
    for process in processes:
        with contextlib.suppress(OSError, AttributeError, ValueError):
            process.join(STOP_GRACE)
            if process.is_alive():
                process.kill()


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
        _IN_TASK.set()
        return worker(task)
    except _Stopped:
        # Ended here, not returned: the executor would take a SystemExit for the task's result and go on.
        os._exit(EXIT_INTERRUPTED)
    except MemoryError:
        path = _task_path(task)
        size = ""
        with contextlib.suppress(OSError):
            size = f" ({os.stat(path).st_size / 1e9:.2f} GB)"
        return failed(path, f"not enough memory to process it{size}; nothing was written", "failed")
    finally:
        _IN_TASK.clear()


def _worker_signals() -> None:
    """Ctrl-C reaches the main process, which stops the pool; a worker stopped then cleans up as it ends
    (the temporary files of an output it was writing go) instead of printing a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _stop)


class _Stopped(SystemExit):
    """A worker told to stop (SIGTERM): unwinding removes what it was writing, then the process ends."""


_IN_TASK = threading.Event()  # set while a worker runs a task: stopping it unwinds the task first


def _stop(_number: int, _frame: object) -> None:
    """SIGTERM in a worker. Between tasks it ends at once: the executor's own code, there, would take the
    exception for a task's result (or swallow it while sending one) and wait for more work."""
    if not _IN_TASK.is_set():
        os._exit(EXIT_INTERRUPTED)
    raise _Stopped(EXIT_INTERRUPTED)


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
