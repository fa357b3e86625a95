"""3D viewport sidebar > Physics: tools that act on every selected object, and the active one's summary."""

from __future__ import annotations

from typing import cast

import bpy

from ..properties import scene_physics
from ..properties.body import MOTION_TYPE_ITEMS
from ..properties.joint import JOINT_PRESET_ITEMS
from ..properties.session import authoring_state
from ..properties.shape import SHAPE_TYPE_ITEMS
from . import draw, peers, summary
from .base import PanelMixin, polled_scene
from .draw import registered
from .overlay_legend import draw_legend


class _Sidebar(PanelMixin):
    bl_space_type = 'VIEW_3D'
    bl_region_type = 'UI'
    bl_category = "Physics"


class VIEW3D_PT_omi_physics(_Sidebar, bpy.types.Panel):
    """Tag the whole selection at once: bodies, colliders, materials and filters."""

    bl_label = "OMI Physics"

    def draw(self, context: bpy.types.Context) -> None:
        layout = self.layout
        selected = len(getattr(context, "selected_objects", ()) or ())
        peers.draw_notice(layout, context)
        layout.label(text=f"{selected} selected", icon='RESTRICT_SELECT_OFF')

        layout.label(text="Body")
        row = layout.row(align=True)
        for identifier, name, _description, icon, _number in cast("list[draw.IconEnumItem]", MOTION_TYPE_ITEMS):
            registered(row.operator("omi.make_body", text=name, icon=icon)).motion_type = identifier

        layout.label(text="Fit Collider")
        grid = layout.grid_flow(row_major=True, columns=2, even_columns=True, align=True)
        for identifier, name, _description, icon, _number in cast("list[draw.IconEnumItem]", SHAPE_TYPE_ITEMS):
            registered(grid.operator("omi.fit_collider", text=name, icon=icon)).shape_type = identifier
        column = layout.column(align=True)
        column.operator("omi.convex_decomposition", icon='MOD_EXPLODE')
        column.operator("omi.tag_from_names", icon='SORTALPHA')
        column.operator("omi.physics_only", icon='MOD_WIREFRAME')

        column = layout.column(align=True)
        column.operator_menu_enum("omi.assign_material", "material", icon='MATERIAL')
        column.operator_menu_enum("omi.assign_filter", "collision_filter", icon='FILTER')
        column = layout.column(align=True)
        column.operator("omi.copy_settings", icon='COPYDOWN')
        column.operator("omi.clear_physics", icon='X')


class VIEW3D_PT_omi_active(_Sidebar, bpy.types.Panel):
    bl_label = "Active Object"
    bl_parent_id = "VIEW3D_PT_omi_physics"

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return context.active_object is not None

    def draw(self, context: bpy.types.Context) -> None:
        obj = context.active_object
        assert obj is not None, "poll: an active object"
        summary.draw_summary(self.layout, obj)


class VIEW3D_PT_omi_joints(_Sidebar, bpy.types.Panel):
    bl_label = "Joints"
    bl_parent_id = "VIEW3D_PT_omi_physics"

    def draw(self, _context: bpy.types.Context) -> None:
        layout = self.layout
        layout.label(text="Join the two selected bodies:")
        grid = layout.grid_flow(row_major=True, columns=3, even_columns=True, align=True)
        for identifier, name, _description, _number in JOINT_PRESET_ITEMS:
            registered(grid.operator("omi.create_joint", text=name)).preset = identifier
        row = layout.row(align=True)
        registered(row.operator("omi.joint_drive_add", text="Add Motor", icon='FORCE_FORCE')).kind = 'MOTOR'
        registered(row.operator("omi.joint_drive_add", text="Add Spring", icon='FORCE_HARMONIC')).kind = 'SPRING'


class VIEW3D_PT_omi_ragdoll(_Sidebar, bpy.types.Panel):
    """The active armature's ragdoll: make it, and switch it between simulated and animated."""

    bl_label = "Ragdoll"
    bl_parent_id = "VIEW3D_PT_omi_physics"

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return context.active_object is not None and context.active_object.type == 'ARMATURE'

    def draw(self, _context: bpy.types.Context) -> None:
        layout = self.layout
        layout.operator("omi.make_ragdoll", icon='ARMATURE_DATA')
        row = layout.row(align=True)
        registered(row.operator("omi.ragdoll_simulate", text="Simulated", icon='PHYSICS')).simulated = True
        registered(row.operator("omi.ragdoll_simulate", text="Animated", icon='ACTION')).simulated = False


class VIEW3D_PT_omi_scene(_Sidebar, bpy.types.Panel):
    """Scene libraries, Blender rigid body sync and the overlay switch."""

    bl_label = "Scene"
    bl_parent_id = "VIEW3D_PT_omi_physics"
    bl_options = {'DEFAULT_CLOSED'}

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return context.scene is not None

    def draw(self, context: bpy.types.Context) -> None:
        layout = self.layout
        settings = scene_physics(polled_scene(context))
        row = layout.row(align=True)
        row.prop(settings, "show_overlay", icon='OVERLAY')
        row.prop(settings, "overlay_in_front", text="", icon='XRAY')
        if settings.show_overlay:
            draw_legend(layout, context)
        column = layout.column(align=True)
        column.prop(settings, "live_rigid_bodies", icon='PHYSICS')
        column.operator("omi.sync_to_rigid_bodies", icon='FILE_REFRESH')
        column.operator("omi.sync_from_rigid_bodies", icon='IMPORT')
        state = authoring_state(context)
        layout.label(text="Physics Materials")
        draw.draw_library(layout, settings, 'MATERIAL', state)
        layout.label(text="Collision Filters")
        draw.draw_library(layout, settings, 'FILTER', state)


class VIEW3D_PT_omi_objects(_Sidebar, bpy.types.Panel):
    """Every object with physics in the scene, with its role; click one to select it."""

    bl_label = "Physics Objects"
    bl_parent_id = "VIEW3D_PT_omi_physics"

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return context.scene is not None

    def draw(self, context: bpy.types.Context) -> None:
        state = authoring_state(context)
        self.layout.template_list("OMI_UL_physics_objects", "", context.scene, "objects", state,
                                  "physics_objects_index", rows=6)


class VIEW3D_PT_omi_validate(_Sidebar, bpy.types.Panel):
    bl_label = "Validate"
    bl_parent_id = "VIEW3D_PT_omi_physics"

    def draw(self, context: bpy.types.Context) -> None:
        layout = self.layout
        state = authoring_state(context)
        row = layout.row(align=True)
        row.operator("omi.validate_scene", icon='CHECKMARK')
        row.operator("omi.check_export", text="Check Export", icon='EXPORT')
        layout.prop(scene_physics(polled_scene(context)), "export_dialect", text="Target")
        if not state.checked:
            return
        if not len(state.problems):
            layout.label(text="No problems found", icon='CHECKMARK')
            return
        layout.template_list("OMI_UL_problems", "", state, "problems", state, "problems_active_index", rows=4,
                             item_dyntip_propname="message")  # a row's tooltip: its whole message
        if 0 <= state.problems_active_index < len(state.problems):  # the active problem's message, whole
            problem = state.problems[state.problems_active_index]
            box = layout.box()
            region = getattr(context, "region", None)
            width = region.width if region is not None else draw.SIDEBAR_WIDTH
            draw.draw_wrapped(box, f"{problem.name or 'Scene'}: {problem.message}", width)
        layout.operator("omi.select_problem", icon='RESTRICT_SELECT_OFF')


# Sub-panels are drawn in this order. Validate comes before the scene's settings and the objects list: below
# them, the active problem's message fell under the sidebar's bottom at the factory layout.
CLASSES: tuple[type, ...] = (
    VIEW3D_PT_omi_physics, VIEW3D_PT_omi_active, VIEW3D_PT_omi_joints, VIEW3D_PT_omi_ragdoll, VIEW3D_PT_omi_validate,
    VIEW3D_PT_omi_scene, VIEW3D_PT_omi_objects,
)
