"""Each type-check suppression in the repository names its error codes and, on its own line, why (issue #20
item 7): scripts/test.sh type-checks the whole add-on against the bpy stubs of Blender 4.2 and the newest at
zero errors, so a suppression is the one place a stub gap or a runtime fact the checker cannot see is
written down; without its reason nobody can tell when it may go."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
# "type" + ": ignore" spelled apart, so that this file holds no suppression of its own
SUPPRESSION = re.compile(r"#\s*type" + r":\s*ignore(?P<codes>\[[^\]]+\])?(?P<rest>.*)$")


def suppressions() -> list[tuple[str, re.Match[str]]]:
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        relative = path.relative_to(ROOT)
        if any(part.startswith(".") or part == "node_modules" for part in relative.parts):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            match = SUPPRESSION.search(line)
            if match is not None:
                found.append((f"{relative}:{number}", match))
    return found


def unexplained(found: list[tuple[str, re.Match[str]]]) -> list[str]:
    """Where a suppression names no error code or gives no reason (a `# ...` comment after it)."""
    return [where for where, match in found
            if match["codes"] is None or re.match(r"\s+#\s*\S", match["rest"]) is None]


def test_the_rule_sees_a_missing_code_or_reason() -> None:
    lines = ["x = f()  # type" ": ignore", "x = f()  # type" ": ignore[arg-type]",
             "x = f()  # type" ": ignore[arg-type]  # the stubs: a Vector is no Sequence[float]"]
    found = [(str(number), match) for number, line in enumerate(lines)
             if (match := SUPPRESSION.search(line)) is not None]
    assert unexplained(found) == ["0", "1"]


def test_every_suppression_names_its_code_and_reason() -> None:
    found = suppressions()
    assert len(found) > 10  # the walk reaches the add-on's sources (they hold a few dozen)
    assert unexplained(found) == []
