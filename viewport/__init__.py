"""Viewport overlay of collider shapes and joint frames (gpu module, batched), and its colour legend."""

from . import joint_gizmo, legend, overlay, unit_gizmo


def register() -> None:
    legend.register()
    overlay.register()
    joint_gizmo.register()
    unit_gizmo.register()


def unregister() -> None:
    unit_gizmo.unregister()
    joint_gizmo.unregister()
    overlay.unregister()
    legend.unregister()
