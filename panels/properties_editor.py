"""Properties editor > Physics: the 'OMI Physics' panel and its sub-panels (one per part that applies)."""

from __future__ import annotations

import bpy

from ..properties import object_physics, scene_physics
from ..properties.session import authoring_state
from . import draw, hidden_shapes
from .base import PanelMixin, polled_object, polled_scene


class _PhysicsTab(PanelMixin):
    bl_space_type = 'PROPERTIES'
    bl_region_type = 'WINDOW'
    bl_context = "physics"


class PHYSICS_PT_omi(_PhysicsTab, bpy.types.Panel):
    """What OMI makes of the active object: which parts are on."""

    bl_label = "OMI Physics"  # drawn above Blender's own physics panels (`panel_order`)

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return context.object is not None

    def draw(self, context: bpy.types.Context) -> None:
        settings = object_physics(polled_object(context))
        grid = self.layout.grid_flow(row_major=True, columns=2, even_columns=True, align=True)
        parts: tuple[tuple[str, draw.Icon], ...] = (("use_motion", 'PHYSICS'), ("use_collider", 'MESH_CUBE'),
                                                    ("use_trigger", 'GHOST_ENABLED'), ("use_joint", 'CONSTRAINT'))
        for name, icon in parts:
            grid.prop(settings, name, toggle=True, icon=icon)
        if settings.has_physics and polled_object(context).rigid_body is not None:
            self.layout.label(text="Rigid Body follows OMI", icon='INFO')
        hidden_shapes.draw_hidden_shapes(self.layout.column(align=True), polled_object(context))


class _OMISubPanel(_PhysicsTab):
    bl_parent_id = "PHYSICS_PT_omi"
    part = ""

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        obj = context.object
        return obj is not None and bool(getattr(object_physics(obj), f"use_{cls.part}"))

    def draw(self, context: bpy.types.Context) -> None:
        layout = self.layout
        layout.use_property_split = True
        layout.use_property_decorate = True  # the keyframe dot: physics settings animate (KHR_animation_pointer)
        self.draw_part(layout, context)

    def draw_part(self, layout: bpy.types.UILayout, context: bpy.types.Context) -> None:
        raise NotImplementedError  # each part's panel draws its own settings


class PHYSICS_PT_omi_body(_OMISubPanel, bpy.types.Panel):
    bl_label = "Body Motion"
    part = "motion"

    def draw_part(self, layout: bpy.types.UILayout, context: bpy.types.Context) -> None:
        draw.draw_motion(layout, object_physics(polled_object(context)).motion)


class _BodySubPanel(_OMISubPanel):
    """A sub-panel of Body Motion, shown for the motion types its fields mean something for."""

    bl_parent_id = "PHYSICS_PT_omi_body"
    part = "motion"
    motion_types: frozenset[str] = frozenset()

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return super().poll(context) and object_physics(polled_object(context)).motion.motion_type in cls.motion_types


class PHYSICS_PT_omi_body_velocity(_BodySubPanel, bpy.types.Panel):
    bl_label = "Initial Velocity"
    bl_options = {'DEFAULT_CLOSED'}  # advanced, as Blender's own rigid body sub-panels: the collider stays in view
    motion_types = frozenset({'KINEMATIC', 'DYNAMIC'})

    def draw_part(self, layout: bpy.types.UILayout, context: bpy.types.Context) -> None:
        draw.draw_velocity(layout, object_physics(polled_object(context)).motion)


class PHYSICS_PT_omi_body_mass(_BodySubPanel, bpy.types.Panel):
    bl_label = "Mass Distribution"
    bl_options = {'DEFAULT_CLOSED'}
    motion_types = frozenset({'DYNAMIC'})

    def draw_part(self, layout: bpy.types.UILayout, context: bpy.types.Context) -> None:
        draw.draw_mass_distribution(layout, object_physics(polled_object(context)).motion)


class PHYSICS_PT_omi_collider(_OMISubPanel, bpy.types.Panel):
    bl_label = "Collider"
    part = "collider"

    def draw_part(self, layout: bpy.types.UILayout, context: bpy.types.Context) -> None:
        collider = object_physics(polled_object(context)).collider
        draw.draw_collider(layout, collider, scene_physics(polled_scene(context)))


class PHYSICS_PT_omi_trigger(_OMISubPanel, bpy.types.Panel):
    bl_label = "Trigger"
    part = "trigger"

    def draw_part(self, layout: bpy.types.UILayout, context: bpy.types.Context) -> None:
        trigger = object_physics(polled_object(context)).trigger
        draw.draw_trigger(layout, trigger)
        draw.draw_trigger_filter(layout, trigger, scene_physics(polled_scene(context)))


class PHYSICS_PT_omi_joint(_OMISubPanel, bpy.types.Panel):
    bl_label = "Joint"
    part = "joint"

    def draw_part(self, layout: bpy.types.UILayout, context: bpy.types.Context) -> None:
        draw.draw_joint(layout, polled_object(context))


class _LibraryPanel(_PhysicsTab):
    bl_parent_id = "PHYSICS_PT_omi"
    bl_options = {'DEFAULT_CLOSED'}
    kind = 'MATERIAL'

    @classmethod
    def poll(cls, context: bpy.types.Context) -> bool:
        return context.scene is not None and context.object is not None

    def draw(self, context: bpy.types.Context) -> None:
        draw.draw_library(self.layout, scene_physics(polled_scene(context)), self.kind, authoring_state(context))


class PHYSICS_PT_omi_materials(_LibraryPanel, bpy.types.Panel):
    bl_label = "Scene Physics Materials"
    kind = 'MATERIAL'


class PHYSICS_PT_omi_filters(_LibraryPanel, bpy.types.Panel):
    bl_label = "Scene Collision Filters"
    kind = 'FILTER'


CLASSES: tuple[type, ...] = (
    PHYSICS_PT_omi, PHYSICS_PT_omi_body, PHYSICS_PT_omi_body_velocity, PHYSICS_PT_omi_body_mass,
    PHYSICS_PT_omi_collider, PHYSICS_PT_omi_trigger, PHYSICS_PT_omi_joint,
    PHYSICS_PT_omi_materials, PHYSICS_PT_omi_filters,
)
