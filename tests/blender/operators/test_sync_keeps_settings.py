"""Sync to Blender then Sync from Blender changes no setting of the every-setting scene; a value edited in
Blender's rigid-body panel in between comes back, named, and nothing else changes (issue #27: a sphere
fitted to a cube, a gravity factor, inertia, velocities and materials were all replaced silently)."""

from __future__ import annotations

import bpy
import pytest
from every_setting_scene import build_scene

pytestmark = pytest.mark.usefixtures("omi_addon")


def settings_of(group: bpy.types.PropertyGroup) -> dict:
    """Every property of a settings group, nested groups and collections included."""
    values: dict = {}
    for prop in group.bl_rna.properties:
        name = prop.identifier
        if name == "rna_type" or (prop.is_readonly and prop.type not in {'POINTER', 'COLLECTION'}):
            continue
        value = getattr(group, name)
        if prop.type == 'POINTER':
            values[name] = settings_of(value) if isinstance(value, bpy.types.PropertyGroup) else \
                (value.name if value is not None else None)
        elif prop.type == 'COLLECTION':
            values[name] = [settings_of(item) for item in value]
        elif getattr(prop, "is_array", False):
            values[name] = tuple(value)
        else:
            values[name] = value
    return values


def every_setting(scene: bpy.types.Scene) -> dict:
    found = {obj.name: settings_of(obj.omi_physics) for obj in scene.objects}
    found["<scene>"] = settings_of(scene.omi_physics)
    return found



def test_sync_to_then_from_blender_changes_no_setting(clean_scene):
    build_scene()
    scene = bpy.context.scene
    tagged = {obj.name for obj in scene.objects if obj.omi_physics.has_physics}
    before = every_setting(scene)
    assert bpy.ops.omi.sync_to_rigid_bodies(scope='SCENE') == {'FINISHED'}
    assert bpy.ops.omi.sync_from_rigid_bodies(scope='SCENE') == {'FINISHED'}
    after = every_setting(scene)
    changed = {name: (before[name], after[name]) for name in tagged if before[name] != after[name]}
    assert changed == {}
    assert before["<scene>"]["physics_materials"] == after["<scene>"]["physics_materials"][:2]
    # PlainRigidBody had a hand-made rigid body and no settings: adopting it is what the operator is for
    assert "PlainRigidBody" not in tagged and scene.objects["PlainRigidBody"].omi_physics.use_motion


def test_values_edited_in_blender_come_back_and_nothing_else(clean_scene):
    build_scene()
    scene = bpy.context.scene
    assert bpy.ops.omi.sync_to_rigid_bodies(scope='SCENE') == {'FINISHED'}
    # The Crate's centre of mass is off its origin, so a generated body stands in for it in Blender's
    # simulation (edits of that one do not come back yet): the Ball, dynamic with its own rigid body, is edited
    ball = scene.objects["Ball"]
    before = settings_of(ball.omi_physics)
    ball.rigid_body.mass = 7.0
    ball.rigid_body.linear_damping = 0.5
    assert bpy.ops.omi.sync_from_rigid_bodies(scope='SCENE') == {'FINISHED'}
    after = settings_of(ball.omi_physics)
    assert after["motion"]["mass"] == pytest.approx(7.0)
    after["motion"]["mass"] = before["motion"]["mass"]
    assert after == before  # everything Blender does not hold stayed
    assert bpy.ops.omi.sync_from_rigid_bodies(scope='SCENE') == {'FINISHED'}  # again: nothing new to take
    assert settings_of(ball.omi_physics)["motion"]["mass"] == pytest.approx(7.0)
