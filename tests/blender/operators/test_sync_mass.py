"""One value per physics property: a body's mass is the same number in the add-on's panel and in
Blender's Rigid Body panel after Sync, and editing either changes the simulation and the export
(issue 26, item 3). The glTF export option says which rigid bodies it adds."""

from __future__ import annotations

from pathlib import Path

import bpy
import pytest
from export_support import export


def synced_crate(mass: float = 2.0) -> bpy.types.Object:
    bpy.ops.mesh.primitive_cube_add(size=1.0, location=(0.0, 0.0, 3.0))
    crate = bpy.context.active_object
    crate.name = "Crate"
    settings = crate.omi_physics
    settings.use_motion = True
    settings.motion.mass = mass
    settings.use_collider = True
    assert bpy.ops.omi.sync_to_rigid_bodies() == {'FINISHED'}
    assert crate.rigid_body is not None
    return crate


def exported_mass(tmp_path: Path, name: str) -> float:
    return export(tmp_path, name).body("Crate")["motion"].get("mass", 1.0)


def test_editing_blenders_rigid_body_mass_is_the_bodys_mass(omi, clean_scene, tmp_path: Path):
    crate = synced_crate(2.0)
    assert crate.rigid_body.mass == pytest.approx(2.0)
    crate.rigid_body.mass = 7.5  # the artist types into Blender's own Rigid Body > Mass
    assert crate.omi_physics.motion.mass == pytest.approx(7.5)  # the add-on's panel shows the same number
    assert exported_mass(tmp_path, "blender_edit") == pytest.approx(7.5)


def test_editing_the_addons_mass_changes_what_blender_simulates(omi, clean_scene, tmp_path: Path):
    crate = synced_crate(2.0)
    crate.omi_physics.motion.mass = 12.0
    assert crate.rigid_body.mass == pytest.approx(12.0)  # Bullet simulates this value
    assert exported_mass(tmp_path, "addon_edit") == pytest.approx(12.0)


def test_a_blender_edit_survives_sync_and_clearing_the_rigid_bodies(omi, clean_scene):
    crate = synced_crate(2.0)
    crate.rigid_body.mass = 4.0
    bpy.ops.omi.sync_to_rigid_bodies()
    assert crate.rigid_body.mass == pytest.approx(4.0) and crate.omi_physics.motion.mass == pytest.approx(4.0)
    for obj in bpy.context.view_layer.objects:
        obj.select_set(obj == crate)
    bpy.ops.omi.clear_physics(parts={'COLLIDER'}, rigid_bodies=True)
    assert crate.rigid_body is None
    assert crate.omi_physics.motion.mass == pytest.approx(4.0)


def test_masses_below_blenders_floor_stay_in_the_settings(omi, clean_scene):
    crate = synced_crate(2.0)
    crate.omi_physics.motion.mass = 0.0  # OMI allows it; Blender simulates its 0.001 kg floor
    assert crate.rigid_body.mass == pytest.approx(0.001)
    assert crate.omi_physics.motion.mass == 0.0


def test_the_export_option_says_which_rigid_bodies_it_adds(omi):
    prop = bpy.types.Scene.bl_rna.properties["omi_physics"].fixed_type.properties["export_rigid_bodies"]
    assert prop.name == "Export Untagged Rigid Bodies"
    assert "no OMI settings" in prop.description
