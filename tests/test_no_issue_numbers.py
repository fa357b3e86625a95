"""The add-on's code names no issue numbers: a comment or docstring says why the code is so, and the
history (which issue asked for it) lives in commit messages and tests."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ADDON = ("io", "properties", "operators", "panels", "viewport")
ISSUE = re.compile(r"\b[Ii]ssues? #?\d+|(?<![\w&])#\d{1,3}\b(?!\w)")


def test_the_addon_names_no_issue_numbers():
    sources = [ROOT / "__init__.py", *(path for folder in ADDON for path in (ROOT / folder).rglob("*.py"))]
    found = [f"{path.relative_to(ROOT)}:{number}: {line.strip()}" for path in sources
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if ISSUE.search(line)]
    assert len(sources) > 100
    assert found == []
