"""Viewport overlay of collider shapes and joint frames (gpu module, batched), and its colour legend."""

from . import joint_gizmo, legend, overlay


def register() -> None:
    legend.register()
    overlay.register()
    joint_gizmo.register()


def unregister() -> None:
    joint_gizmo.unregister()
    overlay.unregister()
    legend.unregister()
