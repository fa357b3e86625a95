"""The add-on installs, enables, disables and re-enables like a real Blender extension."""

from __future__ import annotations

import addon_loader
import bpy


def test_enabled_addon_exposes_settings_and_gltf_hooks(omi_addon):
    assert addon_loader.ADDON_MODULE in bpy.context.preferences.addons
    for name in ("glTF2ExportUserExtension", "glTF2ImportUserExtension", "draw_export", "draw_import",
                 "glTF2_pre_export_callback", "glTF2_post_export_callback"):
        assert callable(getattr(omi_addon, name)), name
    assert "omi_physics" in bpy.types.Object.bl_rna.properties
    assert "omi_physics" in bpy.types.Scene.bl_rna.properties


def test_enable_disable_enable_cycle(omi_addon, clean_scene):
    command_line = addon_loader.module("io.cli_blender")
    addon_loader.disable()
    assert addon_loader.ADDON_MODULE not in bpy.context.preferences.addons
    assert "omi_physics" not in bpy.types.Object.bl_rna.properties
    assert command_line._handle == []  # `blender --command omi_physics` unregistered with the add-on
    module = addon_loader.enable()
    assert "omi_physics" in bpy.types.Object.bl_rna.properties
    assert len(command_line._handle) == 1  # and registered once again
    obj = bpy.data.objects.new("Probe", None)
    obj.omi_physics.use_collider = True
    assert tuple(obj.omi_physics.collider.shape.size) == (1.0, 1.0, 1.0)
    assert module.__name__ == addon_loader.ADDON_MODULE
