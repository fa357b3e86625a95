"""Viewport overlay of collider shapes and joint frames (gpu module, batched)."""

from . import overlay


def register() -> None:
    overlay.register()


def unregister() -> None:
    overlay.unregister()
