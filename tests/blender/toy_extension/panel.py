"""The toy's panel row, below its settings in its Physics tab sub-panel and the sidebar."""

from __future__ import annotations

import addon_loader

from . import unit

ROW_TEXT = "Gadgets hum at this power"


def rows(layout, settings, _obj) -> None:
    layout.label(text=f"{ROW_TEXT}: {settings.power:g}")


addon_loader.module("panels.units").add_rows(unit.NAME, rows)
