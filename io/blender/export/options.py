"""What one export was asked for, as the scene writing reads it (a part of the export session)."""

from __future__ import annotations

from dataclasses import dataclass, field

import bpy

from ..adopt import from_bodies
from .parts import SettingsReader


@dataclass
class Options:
    settings: dict  # the glTF exporter's export_settings
    tagged: SettingsReader  # the objects' and the scene's settings, read by the hook layer
    dialects: tuple[str, ...]
    include_rigid_bodies: bool  # untagged Blender rigid bodies and constraints are exported too
    scene: bpy.types.Scene
    _filters: bool | None = field(default=None, repr=False)

    def filters_needed(self) -> bool:
        if self._filters is None:
            self._filters = from_bodies.filters_needed(self.scene)
        return self._filters
