"""What the panels share besides drawing settings: the base of a panel mixin, and the context values the
panels' polls guarantee (the stubs type them as optional)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import bpy

if TYPE_CHECKING:
    class PanelMixin(bpy.types.Panel):
        """The base of a panel mixin (a class whose users also subclass bpy.types.Panel): the type checker
        sees a Panel, Blender a plain class (it registers only the users)."""

        layout: bpy.types.UILayout  # Blender gives a panel its layout while it draws (the stubs allow None)
else:
    PanelMixin = object


def polled_object(context: bpy.types.Context) -> bpy.types.Object:
    """The context's object, for a panel whose poll asked for one."""
    obj = context.object
    assert obj is not None, "poll: a panel drawn for an object"
    return obj


def polled_scene(context: bpy.types.Context) -> bpy.types.Scene:
    """The context's scene, for a panel whose poll asked for one."""
    scene = context.scene
    assert scene is not None, "poll: a panel drawn in a scene"
    return scene
