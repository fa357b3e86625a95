"""Authoring operators (fit colliders, bodies, joints, copy, sync, validate)."""

import bpy

_CLASSES: tuple[type, ...] = ()


def register() -> None:
    for cls in _CLASSES:
        bpy.utils.register_class(cls)


def unregister() -> None:
    for cls in reversed(_CLASSES):
        bpy.utils.unregister_class(cls)
