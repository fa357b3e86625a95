"""A batch worker that misbehaves on purpose, for tests/unit/cli/test_cli_batch.py. Its own module, importing
nothing of the add-on: a spawned worker unpickles it by name in a fresh Python, where the core's test name
(`omi_core`) may not exist (with the bpy wheels it aliases the add-on's package)."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any


def flaky(task: tuple[str, None]) -> dict[str, Any]:
    """Dies on a file named crash*, hangs on hang*, answers the others as a clean file."""
    name = Path(task[0]).name
    if name.startswith("crash"):
        os._exit(3)  # as a segfault or the out-of-memory killer ends a worker: no answer, no exception
    if name.startswith("hang"):
        time.sleep(120)
    return {"file": task[0], "status": "ok", "issues": [], "errors": 0, "warnings": 0, "infos": 0}
