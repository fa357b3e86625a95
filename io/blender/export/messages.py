"""The export's messages into the glTF exporter's log, each starting `OMI physics: ` (a helper the export
session owns; the scene writing and the shared JSON speak through it). They are held until the export is
done, then written summarised (`summary`): one line per kind of finding, however big the scene."""

from __future__ import annotations

from collections.abc import Iterable

import bpy

from ...omi import model, summary

# What the last export said, summarised (this session's): Check Export lists it before a file is kept.
LAST_SAID: list[tuple[str, str]] = []


class Messages:
    def __init__(self, export_settings: dict) -> None:
        self.settings = export_settings
        self.held: list[tuple[str, str]] = []

    def warn(self, message: str, severity: str = "warning") -> None:
        self.held.append(("info" if severity == "info" else "warning", message))

    def flush(self) -> None:
        """Write what was said, summarised, into the exporter's log."""
        held, self.held = self.held, []
        # `in bpy.data.objects` walks them all; `keys()` lists their names in one call
        names = set(bpy.data.objects.keys()) if held else set()
        LAST_SAID[:] = summary.summarise(held, is_name=names.__contains__)
        log = self.settings.get("log")
        if log is None:
            return
        for severity, message in LAST_SAID:
            text = f"{model.LOG_PREFIX}{message}"
            if severity == "info":
                log.info(text)
            else:
                log.warning(text, popup=True)

    def report(self, issues: Iterable[model.Issue], obj: bpy.types.Object | None = None) -> None:
        self.held.extend(_said(issues, obj))

    def mark(self) -> int:
        """Where the next message goes: `insert` puts what is found later there, in the order it was asked."""
        return len(self.held)

    def insert(self, mark: int, issues: Iterable[model.Issue], obj: bpy.types.Object | None = None) -> int:
        """Say `issues` at `mark` (a message said later but about that moment); how many lines went in."""
        said = _said(issues, obj)
        self.held[mark:mark] = said
        return len(said)


def _said(issues: Iterable[model.Issue], obj: bpy.types.Object | None) -> list[tuple[str, str]]:
    said = []
    for issue in issues:
        message = issue.message
        if obj is not None and not message.startswith("object "):
            message = f"object {obj.name!r}: {message}"
        said.append(("info" if issue.severity == "info" else "warning", message))
    return said
