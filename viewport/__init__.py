"""Viewport overlay of collider shapes and joint frames (gpu module, batched), and its colour legend."""

from . import legend, overlay


def register() -> None:
    legend.register()
    overlay.register()


def unregister() -> None:
    overlay.unregister()
    legend.unregister()
