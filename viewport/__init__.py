"""Viewport overlay of collider shapes and joint frames (gpu module, batched)."""

import bpy

_CLASSES: tuple[type, ...] = ()


def register() -> None:
    for cls in _CLASSES:
        bpy.utils.register_class(cls)


def unregister() -> None:
    for cls in reversed(_CLASSES):
        bpy.utils.unregister_class(cls)
