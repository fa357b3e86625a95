"""The test folders have no __init__.py, so pytest imports each test module by its file name alone: two of one
name in different folders (tests/unit and tests/blender) stop the whole run at collection."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent


def test_every_test_module_name_is_unique():
    folders: dict[str, list[str]] = defaultdict(list)
    for path in TESTS.rglob("*.py"):
        if "node_modules" not in path.parts and path.name.startswith("test_"):  # conftest.py is per folder
            folders[path.name].append(str(path.parent.relative_to(TESTS)))
    assert {name: where for name, where in folders.items() if len(where) > 1} == {}
