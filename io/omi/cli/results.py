"""The command-line tool's results: plain dicts, their counts, their text lines and the exit status.

Workers return plain dicts (cheap to pickle, and the `--json` output as it is): {"file", "status",
"issues": [{"severity", "pointer", "message", "source"}], "errors", "warnings", "infos", ...}.
No bpy here: `validate` and `upgrade` run without Blender.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..json_types import array_index
from ..model import Issue

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as shells report Ctrl-C
SEVERITIES = ("error", "warning", "info")
NOT_CHECKED = ("unreadable", "failed")  # statuses of a file that was never checked: exit status 2

Result = dict[str, Any]


def issue(severity: str, pointer: str, message: str, source: str) -> dict[str, str]:
    return {"severity": severity, "pointer": pointer, "message": message, "source": source}


def from_issues(issues: Iterable[Issue], source: str) -> list[dict[str, str]]:
    return [issue(found.severity, found.pointer, found.message, source) for found in issues]


def _pointer_key(item: dict[str, str]) -> list[tuple[int, int | str]]:
    tokens = item["pointer"].split("/")[1:] if item["pointer"] else []
    return [(1, token) if (number := array_index(token)) is None else (0, number) for token in tokens]


def counted(result: Result) -> Result:
    """The result with its issues in pointer order and counted by severity."""
    result["issues"].sort(key=_pointer_key)
    for severity, key in zip(SEVERITIES, ("errors", "warnings", "infos"), strict=True):
        result[key] = sum(1 for item in result["issues"] if item["severity"] == severity)
    return result


def failed(path: str, message: str, status: str = "unreadable", **extra: Any) -> Result:
    """A file that could not be read ("unreadable") or written or was refused ("failed"): exit status 2."""
    return {"file": path, "status": status, "message": message, "issues": [], "errors": 0, "warnings": 0,
            "infos": 0, **extra}


def plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def status_text(result: Result) -> str:
    if result["status"] in NOT_CHECKED:
        return str(result["status"])
    counts = [plural(result[key], word) for key, word in (("errors", "error"), ("warnings", "warning"))
              if result[key]]
    return ", ".join(counts) or "ok"


def issue_lines(file: str, result: Result, shown: set[str]) -> list[str]:
    """`FILE: SEVERITY POINTER: message` for each issue of a shown severity."""
    if result["status"] in NOT_CHECKED:
        return [f"{file}: error: {result['message']}"]
    return [f"{file}: {item['severity']} {item['pointer'] or '/'}: {item['message']}"
            for item in result["issues"] if item["severity"] in shown]


def shown_severities(quiet: bool, verbose: bool) -> set[str]:
    if quiet:
        return {"error"}
    return set(SEVERITIES) if verbose else {"error", "warning"}


def summary(results: list[Result], *extra: str) -> tuple[str, dict[str, int]]:
    """The summary line and its numbers for --json."""
    totals = {"files": len(results), "errors": sum(r["errors"] for r in results),
              "warnings": sum(r["warnings"] for r in results),
              "unreadable": sum(1 for r in results if r["status"] == "unreadable")}
    failures = sum(1 for r in results if r["status"] == "failed")
    if failures:
        totals["failed"] = failures
    parts = [plural(totals["files"], "file"), *extra, plural(totals["errors"], "error"),
             plural(totals["warnings"], "warning")]
    parts += [f"{totals[key]} {key}" for key in NOT_CHECKED if totals.get(key)]
    return ", ".join(parts), totals


def exit_status(results: list[Result], strict: bool) -> int:
    if any(r["status"] in NOT_CHECKED for r in results):
        return EXIT_USAGE
    if any(r["errors"] or (strict and r["warnings"]) or r["status"] == "not written" for r in results):
        return EXIT_PROBLEMS
    return EXIT_OK
