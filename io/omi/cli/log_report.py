"""The command-line `import` and `export`: what Blender's glTF log says, beside what `validate` says.

`import` checks its input with the very checks of `validate` (validate_file.validate_one: the rules, the
schemas, the structure) and prints those findings as `validate` does, so both commands give one file the
same verdict. The glTF log of the import then adds only what it says beyond them (what Blender made of the
file, a failed hook step); a log line that repeats a finding (the import hook logs the reader's findings)
is not said twice. No bpy here: records are (logging level, message) pairs.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable

from .. import model, summary
from .results import Result

_COUNT_LINE = re.compile(r"\d+ problem\(s\) in the file's physics")


def _said_already(text: str, findings: list[dict[str, str]]) -> dict[str, str] | None:
    """The finding a log line repeats: same message, at the same pointer (when the finding has one)."""
    def at(pointer: str) -> bool:  # the hook writes "node N 'name' (POINTER): ..." or "POINTER: ..."
        return not pointer or f"({pointer})" in text or text.startswith(f"{pointer}: ")

    return next((item for item in findings if text.endswith(item["message"]) and at(item["pointer"])), None)


def report_log(label: str, records: Iterable[tuple[int, str]], shown: set[str],
               findings: Iterable[dict[str, str]] = ()) -> tuple[int, int]:
    """Print the OMI messages of a glTF log not among `findings` (said already); their (errors, warnings).
    A hook failure or an ERROR record is an error; a WARNING record a warning; the rest notes."""
    pending = list(findings)
    errors = warnings = 0
    for level, message in records:
        if model.LOG_PREFIX not in message:
            continue
        text = message.split(model.LOG_PREFIX, 1)[1]
        if _COUNT_LINE.match(text):  # the import's count of the problems it logged: each is said already
            continue
        repeated = _said_already(summary.first_of(text), pending)
        if repeated is not None:  # a summary line stands for its kind's findings: validate printed each
            pending.remove(repeated)
            continue
        hook_failure = level >= logging.ERROR or text.startswith(model.HOOK_FAILURE)
        severity = "error" if hook_failure else "warning" if level >= logging.WARNING else "info"
        errors += severity == "error"
        warnings += severity == "warning"
        if severity in shown:
            print(f"{label}: {severity} {text}")
    return errors, warnings


def print_findings(label: str, checked: Result, shown: set[str]) -> None:
    """validate's lines for one file: `FILE: SEVERITY POINTER: message`."""
    for item in checked["issues"]:
        if item["severity"] in shown:
            print(f"{label}: {item['severity']} {item['pointer'] or '/'}: {item['message']}")
