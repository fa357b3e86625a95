"""The export's messages into the glTF exporter's log, each starting `OMI physics: ` (a helper the export
session owns; the scene writing and the shared JSON speak through it)."""

from __future__ import annotations

from collections.abc import Iterable

import bpy

from ...omi import model


class Messages:
    def __init__(self, export_settings: dict) -> None:
        self.settings = export_settings

    def warn(self, message: str, severity: str = "warning") -> None:
        log = self.settings.get("log")
        text = f"{model.LOG_PREFIX}{message}"
        if log is None:
            return
        if severity == "info":
            log.info(text)
        else:
            log.warning(text, popup=True)

    def report(self, issues: Iterable[model.Issue], obj: bpy.types.Object | None = None) -> None:
        for issue in issues:
            message = issue.message
            if obj is not None and not message.startswith("object "):
                message = f"object {obj.name!r}: {message}"
            self.warn(message, "info" if issue.severity == "info" else "warning")
