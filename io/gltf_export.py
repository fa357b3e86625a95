"""glTF exporter hooks (io_scene_gltf2 user extension): thin, calls io/omi and io/blender."""

from __future__ import annotations

from typing import Any


class glTF2ExportUserExtension:
    """Created by the glTF exporter once per export."""

    def __init__(self) -> None:
        self.enabled = True


def glTF2_pre_export_callback(export_settings: dict[str, Any]) -> None:  # noqa: N802
    """Runs before the exporter gathers anything."""


def glTF2_post_export_callback(export_settings: dict[str, Any]) -> None:  # noqa: N802
    """Runs after the exporter gathered everything, before the file is written."""
