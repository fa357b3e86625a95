"""Panels: Properties editor Physics tab, 3D viewport sidebar, glTF dialog options. Draw code only."""

import bpy

from . import gltf_dialogs, gravity, lists, overlay_legend, panel_order, peers, properties_editor, sidebar, units

_CLASSES: tuple[type, ...] = (*lists.CLASSES, *properties_editor.CLASSES, *sidebar.CLASSES, *gravity.CLASSES,
                             *overlay_legend.CLASSES)


def register() -> None:
    for cls in _CLASSES:
        bpy.utils.register_class(cls)
    gltf_dialogs.register()
    peers.register()
    units.register()  # after the Physics tab's parent panel
    panel_order.put_ours_first()


def unregister() -> None:
    units.unregister()
    peers.unregister()
    gltf_dialogs.unregister()
    for cls in reversed(_CLASSES):
        bpy.utils.unregister_class(cls)
