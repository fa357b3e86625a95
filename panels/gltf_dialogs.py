"""Option panels that the glTF add-on draws inside its export and import dialogs."""

from __future__ import annotations

from typing import cast

import bpy

from ..io.blender import gltf_compat
from ..properties import scene_physics
from ..properties.scene import OMISceneSettings

# The key the glTF add-on itself uses for an add-on's draw function (its module name), so that Blender
# 4.2, which registers the function on its own when the dialog opens, does not draw it twice.
_ADDON_MODULE = __package__.rpartition(".")[0]
# "Untagged / Create" in the label column, "Rigid Bodies" beside the checkbox: the options' full names
# ("Export Untagged Rigid Bodies", "Create Blender Rigid Bodies") do not fit the dialogs' narrow options
# region (249 px); their tooltips say the whole.
_RIGID_BODY_HEADINGS = {"export": "Untagged", "import": "Create"}


def _draw_options(layout: bpy.types.UILayout, settings: OMISceneSettings, direction: str) -> None:
    """One collapsible "OMI Physics" section: the on/off switch in the header, the rigid-body option below."""
    switch = f"{direction}_physics"
    # 4.2's stubs type UILayout.panel as returning None; it returns (header, body or None when closed).
    header, body = cast(tuple[bpy.types.UILayout, bpy.types.UILayout | None],
                        layout.panel(f"OMI_physics_{direction}", default_closed=False))
    header.use_property_split = False
    header.prop(settings, switch, text="")
    header.label(text="OMI Physics")
    if body is not None:
        body.use_property_split = True
        body.use_property_decorate = False
        body.active = getattr(settings, switch)
        column = body.column(heading=_RIGID_BODY_HEADINGS[direction])
        column.prop(settings, f"{direction}_rigid_bodies", text="Rigid Bodies")
        if direction == "export":
            body.prop(settings, "export_dialect")


def draw_export(context: bpy.types.Context, layout: bpy.types.UILayout) -> None:
    """Called by the glTF exporter dialog with its layout."""
    assert context.scene is not None, "the exporter's dialog is drawn in a scene"
    _draw_options(layout, scene_physics(context.scene), "export")


def draw_import(context: bpy.types.Context, layout: bpy.types.UILayout) -> None:
    """Called by the glTF importer dialog with its layout."""
    assert context.scene is not None, "the importer's dialog is drawn in a scene"
    _draw_options(layout, scene_physics(context.scene), "import")


def register() -> None:
    """Show `draw_export` in the glTF export dialog (glTF-Blender-IO 4.4+ no longer finds it by itself)."""
    draws = gltf_compat.exporter_dialog_draws()
    if draws is not None:
        draws[_ADDON_MODULE] = draw_export


def unregister() -> None:
    draws = gltf_compat.exporter_dialog_draws()
    if draws is not None and draws.get(_ADDON_MODULE) is draw_export:
        del draws[_ADDON_MODULE]
