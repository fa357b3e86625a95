"""The crash guard of `import` and `export`: Blender runs in a child process that a crash cannot take the
report down with.

The parent never loads Blender. It runs the same command line again with `--in-process` and the file that
holds Blender's output; if the child dies by a signal, the parent prints the end of that output and says in
one sentence what happened. How the child is started (a Python with the bpy module, or Blender's own
`--command`) is the caller's choice.
"""

from __future__ import annotations

import contextlib
import glob
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from .results import EXIT_PROBLEMS

CRASH_TAIL_LINES = 60  # of Blender's output, printed when it dies


def run_guarded(command: list[str], start: int, what: str) -> int:
    """Run `command` (its tool's arguments from `start` on) with the child's flags added; its exit status,
    or 1 after saying that Blender crashed and what it printed last."""
    with tempfile.NamedTemporaryFile(prefix="omi_cli_blender_", suffix=".log", delete=False) as held:
        log_path = held.name
    try:
        # In its own process group: Ctrl-C reaches this process only, which stops the child (Blender interrupted
        # while it starts prints a traceback per add-on) and removes what it left (`remove_unfinished`).
        child = subprocess.run([*command[:start], *child_arguments(command[start:], log_path)], check=False,
                               process_group=0 if os.name == "posix" else None)
        if child.returncode >= 0:
            return child.returncode
        output = Path(log_path).read_bytes().decode("utf-8", "replace").splitlines()
    finally:
        with contextlib.suppress(OSError):
            os.unlink(log_path)
    if output:
        print(f"Blender's last output (up to {CRASH_TAIL_LINES} lines):", file=sys.stderr)
        print("\n".join(output[-CRASH_TAIL_LINES:]), file=sys.stderr)
    print(f"error: Blender crashed ({_signal_name(-child.returncode)}) while {what}; nothing was written")
    return EXIT_PROBLEMS


def child_arguments(argv: list[str], log_path: str) -> list[str]:
    """The user's command line with the child's own flags right after the command name: never after a `--`
    (which makes everything after it a file name), so they never show up in a usage message."""
    position = next((index for index, word in enumerate(argv) if word in ("import", "export")), -1) + 1
    return [*argv[:position], "--in-process", "--blender-log", log_path, *argv[position:]]


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def one_sentence(message: str) -> str:
    """Why Blender's operator failed, from what it raised: the operator's RuntimeError carries the Python
    traceback of the importer or exporter that failed and a `Location:` line; only the exception line says
    why (a Python exception's type follows its text: the same words for import, export and saving)."""
    lines = [line.strip() for line in message.strip().splitlines()
             if line.strip() and not line.strip().startswith("Location:")]
    if not lines:
        return "no reason given"
    last = lines[-1].removeprefix("Error: ").removeprefix("Python: ")
    kind, separator, text = last.partition(": ")
    if separator and re.fullmatch(r"[\w.]*(Error|Exception)", kind):
        return text if kind in ("Exception", "ImportError", "RuntimeError") else f"{text} ({kind})"
    return last


def remove_unfinished(out: str) -> None:
    """What a stopped Blender child leaves beside `out`: the .blend Blender was saving (`out@`) and the hidden
    folder an export was staged in (resources.Staged)."""
    target = Path(out)
    with contextlib.suppress(OSError):
        Path(f"{out}@").unlink()
    for folder in target.parent.glob(f".{glob.escape(target.name)}.*"):
        if folder.is_dir() and not folder.is_symlink():
            shutil.rmtree(folder, ignore_errors=True)
