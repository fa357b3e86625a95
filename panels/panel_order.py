"""OMI Physics first in the Properties editor's Physics tab, right under Blender's Enable Physics buttons.

Blender draws a region's panels in the order their types were registered, lower `bl_order` first; `bl_order`
is unsigned (a negative one reads as 0) and a type registered with an order already taken goes after the
others, so an add-on's panel follows Blender's own. A panel met for the first time is placed right after the
panel drawn before it, and keeps that place (the file stores it): Blender's Rigid Body panel, first drawn
once the object has a rigid body, would land above ours. So Blender's own Physics-tab panels that have a
header are registered again after ours, in Blender's order, sub-panels after their parents; enabling the
add-on in a running session puts ours above a Rigid Body panel shown already too. A file saved once both
were placed keeps its order (the artist may have dragged them).
"""

from __future__ import annotations

import importlib

import bpy


def _registered_panels() -> list[type[bpy.types.Panel]]:
    """Every registered Panel class, found through Python's subclass lists."""
    found: list[type[bpy.types.Panel]] = []
    stack = list(bpy.types.Panel.__subclasses__())
    seen: set[type] = set()
    while stack:
        cls = stack.pop(0)
        if cls in seen:
            continue
        seen.add(cls)
        stack.extend(cls.__subclasses__())
        if getattr(cls, "is_registered", False):
            found.append(cls)
    return found


def blender_physics_panels() -> list[type[bpy.types.Panel]]:
    """Blender's own panels of the Physics tab that have a header, and the sub-panels under them (any
    add-on's too, so none is left without its parent), in the order Blender registered them."""
    try:
        bl_ui = importlib.import_module("bl_ui")
    except ImportError:
        return []
    ordered = [cls for module in getattr(bl_ui, "_modules_loaded", ()) for cls in getattr(module, "classes", ())
               if isinstance(cls, type) and issubclass(cls, bpy.types.Panel) and getattr(cls, "is_registered", False)]
    roots = [cls for cls in ordered
             if getattr(cls, "bl_space_type", "") == 'PROPERTIES' and getattr(cls, "bl_context", "") == "physics"
             and not getattr(cls, "bl_parent_id", "") and 'HIDE_HEADER' not in getattr(cls, "bl_options", set())]
    moved = list(roots)
    names = {cls.__name__ for cls in roots}
    children = [cls for cls in (*ordered, *_registered_panels()) if getattr(cls, "bl_parent_id", "")]
    grown = True
    while grown:  # sub-panels, and theirs, in registration order after their parents
        grown = False
        for cls in children:
            if cls.__name__ not in names and getattr(cls, "bl_parent_id", "") in names:
                moved.append(cls)
                names.add(cls.__name__)
                grown = True
    return moved


def put_ours_first() -> None:
    """Register Blender's Physics-tab panels again, after ours (call once ours are registered)."""
    moved = blender_physics_panels()
    for cls in reversed(moved):  # sub-panels before their parents: a parent leaves none orphaned
        bpy.utils.unregister_class(cls)
    for cls in moved:
        bpy.utils.register_class(cls)
