"""The sidebar's notice of another glTF-physics add-on's settings waiting to be adopted (counted by
`peer_findings.waiting`, counted again after a file load, undo or redo)."""

from __future__ import annotations

import bpy
from bpy.app.handlers import persistent

from ..io.blender.adopt import peer_findings
from ..io.omi.named import plural


def draw_notice(layout: bpy.types.UILayout, context: bpy.types.Context) -> None:
    """A box naming what was found and the Adopt button; nothing when there is nothing to adopt."""
    scene = context.scene
    if scene is None:
        return
    counted = peer_findings.waiting(scene)
    if not counted:
        return
    box = layout.box()
    for peer, count in sorted(counted.items()):
        box.label(text=f"{plural(count, 'object')} with {peer} physics", icon='IMPORT')
    box.operator("omi.adopt_peer_settings", icon='CHECKMARK')


_HANDLERS = (bpy.app.handlers.load_post, bpy.app.handlers.undo_post, bpy.app.handlers.redo_post)
_invalidate_persistent = persistent(peer_findings.invalidate)


def register() -> None:
    for handlers in _HANDLERS:
        handlers.append(_invalidate_persistent)


def unregister() -> None:
    for handlers in _HANDLERS:
        if _invalidate_persistent in handlers:
            handlers.remove(_invalidate_persistent)
