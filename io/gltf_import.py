"""glTF importer hooks (io_scene_gltf2 user extension): thin, calls io/omi and io/blender."""

from __future__ import annotations


class glTF2ImportUserExtension:
    """Created by the glTF importer once per import."""

    def __init__(self) -> None:
        self.enabled = True
