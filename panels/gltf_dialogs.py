"""Option panels that the glTF add-on draws inside its export and import dialogs."""

from __future__ import annotations

import bpy


def draw_export(context: bpy.types.Context, layout: bpy.types.UILayout) -> None:
    """Called by the glTF exporter dialog with its layout."""
    settings = context.scene.omi_physics
    header, body = layout.panel("OMI_physics_export", default_closed=False)
    header.use_property_split = False
    header.prop(settings, "export_physics", text="")
    header.label(text="OMI Physics")
    if body is not None:
        body.use_property_split = True
        body.use_property_decorate = False
        body.active = settings.export_physics
        body.prop(settings, "export_rigid_bodies")


def draw_import(context: bpy.types.Context, layout: bpy.types.UILayout) -> None:
    """Called by the glTF importer dialog with its layout."""
    settings = context.scene.omi_physics
    header, body = layout.panel("OMI_physics_import", default_closed=False)
    header.use_property_split = False
    header.prop(settings, "import_physics", text="")
    header.label(text="OMI Physics")
    if body is not None:
        body.use_property_split = True
        body.use_property_decorate = False
        body.active = settings.import_physics
        body.prop(settings, "import_rigid_bodies")
