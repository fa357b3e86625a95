"""Option panels that the glTF add-on draws inside its export and import dialogs."""

from __future__ import annotations

from typing import Any


def draw_export(context: Any, layout: Any) -> None:
    """Called by the glTF exporter dialog."""


def draw_import(context: Any, layout: Any) -> None:
    """Called by the glTF importer dialog."""
