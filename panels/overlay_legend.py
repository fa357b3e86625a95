"""The physics overlay where artists look for overlays: a sub-panel of the 3D viewport's Overlays popover
with the switch in its header and the colour legend below (also drawn in the sidebar's Scene panel)."""

from __future__ import annotations

import bpy

from ..properties import scene_physics
from ..viewport.legend import LEGEND, icon


def draw_legend(layout: bpy.types.UILayout, _context: bpy.types.Context) -> None:
    """One colour square and its name per overlay colour, two to a row."""
    grid = layout.grid_flow(row_major=True, columns=2, even_columns=True, align=False)
    for role, label in LEGEND:
        grid.label(text=label, icon_value=icon(role))


class VIEW3D_PT_omi_overlay(bpy.types.Panel):
    """Viewport Overlays > OMI Physics: show the colliders, triggers and joints; what the colours mean."""

    bl_space_type = 'VIEW_3D'
    bl_region_type = 'HEADER'
    bl_parent_id = "VIEW3D_PT_overlay"
    bl_label = "OMI Physics"

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return context.scene is not None

    def draw_header(self, context: bpy.types.Context) -> None:
        layout, scene = self.layout, context.scene
        assert layout is not None and scene is not None, "Blender draws a panel in its layout; poll: a scene"
        layout.prop(scene_physics(scene), "show_overlay", text="")

    def draw(self, context: bpy.types.Context) -> None:
        layout, scene = self.layout, context.scene
        assert layout is not None and scene is not None, "Blender draws a panel in its layout; poll: a scene"
        layout.active = scene_physics(scene).show_overlay
        layout.prop(scene_physics(scene), "overlay_in_front")
        draw_legend(layout, context)


CLASSES: tuple[type, ...] = (VIEW3D_PT_omi_overlay,)
