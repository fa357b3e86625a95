"""Where a body's shape lives when it is not on the body's own object: the import's hidden helpers.

An offset or scaled shape is a child node in glTF; the import keeps its object in the hidden *OMI Physics
Shapes* collection. The body's panels show a button per such child that selects it (its settings are its
own), so an empty Collider switch on the body does not invite a second fit.
"""

from __future__ import annotations

import bpy

from ..properties import object_physics
from .draw import Icon, registered


def hidden_shape_children(obj: bpy.types.Object) -> list[tuple[str, bpy.types.Object]]:
    """(part, child) for the object's children that hold a collider or trigger and are hidden in the viewport:
    the shape helpers an import keeps in its hidden collection (an offset or scaled shape's own node)."""
    found: list[tuple[str, bpy.types.Object]] = []
    for child in obj.children:
        settings = object_physics(child)
        if child.visible_get():
            continue
        for part, used in (("Collider", settings.use_collider), ("Trigger", settings.use_trigger)):
            if used:
                found.append((part, child))
    return found


def draw_hidden_shapes(layout: bpy.types.UILayout, obj: bpy.types.Object) -> None:
    """A button per hidden shape helper under the object, which selects it: its settings are its own, so a
    body whose collider sits on such a child shows where it is (not an empty Collider switch to turn on)."""
    for part, child in hidden_shape_children(obj):
        icon: Icon = 'MESH_CUBE' if part == "Collider" else 'GHOST_ENABLED'
        registered(layout.operator("omi.select_object", text=f"{part} on {child.name} (hidden)", icon=icon)
                   ).name = child.name
