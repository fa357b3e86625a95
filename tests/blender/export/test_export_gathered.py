"""The export gathers model values only, and the home dialect is written once every scene is gathered
(io/blender/export/output.py `write_gathered`, through io/omi/write/export_writer.py): nothing writes physics
JSON while a scene is gathered, an animated node included (its channels are checked against a preview of the
same writing), and every keyed value still gets its channel."""

from __future__ import annotations

from typing import Any

import addon_loader
import pytest
from animation_support import animated_scene, channels
from export_support import export

pytestmark = pytest.mark.usefixtures("omi_addon", "clean_scene")


def test_the_home_dialect_is_written_once_every_scene_is_gathered(monkeypatch: Any, tmp_path: Any) -> None:
    physics = addon_loader.module("io.blender.export.physics").PhysicsExport
    writer = addon_loader.module("io.omi.write.export_writer").ExportWriter
    calls: list[str] = []
    write_scene, node, preview = physics.write_scene, writer.node, writer.preview

    def spied_scene(self: Any, *args: Any) -> None:
        calls.append("gathering")
        write_scene(self, *args)
        calls.append("gathered")

    def spied_node(self: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append("written")
        return node(self, *args, **kwargs)

    def spied_preview(self: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append("preview")
        return preview(self, *args, **kwargs)

    monkeypatch.setattr(physics, "write_scene", spied_scene)
    monkeypatch.setattr(writer, "node", spied_node)
    monkeypatch.setattr(writer, "preview", spied_preview)
    keyed = animated_scene()
    exported = export(tmp_path, fmt="GLB")
    gathering = calls[calls.index("gathering"):calls.index("gathered")]
    assert "written" not in gathering and "preview" in gathering  # the animated nodes are checked meanwhile
    assert calls.index("written") > calls.index("gathered") and calls.count("written") >= 2
    assert len(channels(exported)) == len(keyed)
