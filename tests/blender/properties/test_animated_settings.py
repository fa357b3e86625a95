"""The settings side of the Object Model table (properties/animated_settings, registered with
io/blender/animation/settings) against its pure side (io/omi/dialects/pointers) and the add-on's
PropertyGroups: every animatable pointer's model value has an entry, every entry a pointer, every setting it
names exists, and the axis maps are the conversion's own."""

from __future__ import annotations

import addon_loader
import bpy
import omi_core.dialects.pointers
import pytest

pytestmark = pytest.mark.usefixtures("omi_addon")


def _tables():
    return addon_loader.module("io.blender.animation.settings"), omi_core.dialects.pointers


def test_the_registered_table_is_the_bindings():
    settings, _pointers = _tables()
    binding = addon_loader.module("properties.animated_settings")
    assert settings.layout() is binding.LAYOUT
    assert settings.layout().settings is binding.SETTINGS


def test_every_animatable_pointer_has_a_settings_entry_and_every_entry_a_pointer():
    settings, pointers = _tables()
    table = settings.layout()
    rows = {template.model_value for template in (*pointers.OMI_POINTERS, *pointers.KHR_POINTERS)}
    assert rows == set(table.settings), (rows ^ set(table.settings))
    assert {part for part, _attr in rows} == set(table.groups)
    booleans = {template.model_value for template in (*pointers.OMI_POINTERS, *pointers.KHR_POINTERS)
                if template.type == "bool"}
    assert all(isinstance(table.settings[key], settings.NotHeld) for key in booleans)


def _group(settings, part: str):
    """A settings group of each part, on a fresh object (and the scene's library), with one item per list."""
    obj = bpy.data.objects.new("Probe", None)
    bpy.context.scene.collection.objects.link(obj)
    obj.omi_physics.joint.limits.add()
    obj.omi_physics.joint.drives.add()
    bpy.context.scene.omi_physics.physics_materials.add()
    datablock, paths = settings.layout().groups[part]
    owner = bpy.context.scene if datablock == "scene" else obj
    return [owner.path_resolve(path.format(0)) for path in paths]


def test_every_setting_named_exists(clean_scene):
    settings, _pointers = _tables()
    for (part, attr), entry in settings.layout().settings.items():
        names = (entry.name, *(name for name in (entry.off_when, entry.needs) if name)) \
            if isinstance(entry, settings.Held) else getattr(entry, "names", ())
        for group in _group(settings, part):
            for name in names:
                assert name in group.bl_rna.properties, (part, attr, name)
            if isinstance(entry, settings.Held):
                prop = group.bl_rna.properties[entry.name]
                assert max(prop.array_length, 1) == len(entry.axes), (part, attr)


def test_held_settings_are_found_from_their_paths():
    settings, _pointers = _tables()
    assert settings.held_by("omi_physics.motion", "mass")[:2] == ("motion", "mass")
    assert settings.held_by("omi_physics.physics_materials[12]", "restitution")[:2] == ("material", "restitution")
    assert settings.held_by("omi_physics.trigger.shape", "radius")[2].placed  # the export bakes the scale in
    assert settings.held_by("omi_physics.joint.limits[0]", "min_angular") is None  # through the translation
    assert settings.held_by("omi_physics.motion", "motion_type") is None
    # glTF (x, y, z) is Blender (x, -z, y): Blender's y is minus glTF's z
    assert settings.POSITION == ((0, 1.0), (2, -1.0), (1, 1.0))
    assert settings.ROTATION == ((3, 1.0), (0, 1.0), (2, -1.0), (1, 1.0))
