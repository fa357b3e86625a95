"""Switching a part on gives it the shape the object's other part was fitted with, not a default 1 m box."""

from __future__ import annotations

import bpy
import pytest


@pytest.fixture(autouse=True)
def _enabled(omi_addon):
    return omi_addon


def zone():
    bpy.ops.mesh.primitive_cube_add(size=1.0, location=(0.0, 0.0, 0.75))
    obj = bpy.context.active_object
    obj.name = "Zone"
    obj.scale = (3.0, 2.0, 1.5)
    bpy.ops.object.transform_apply(location=False, rotation=False, scale=True)
    assert bpy.ops.omi.fit_collider(shape_type='BOX') == {'FINISHED'}
    return obj


def test_collider_to_trigger_keeps_the_fitted_size(clean_scene):
    settings = zone().omi_physics
    assert tuple(settings.collider.shape.size) == pytest.approx((3.0, 2.0, 1.5))
    settings.use_trigger = True  # Properties > OMI Physics: Trigger on, then Collider off
    settings.use_collider = False
    assert settings.trigger.shape.shape_type == 'BOX'
    assert tuple(settings.trigger.shape.size) == pytest.approx((3.0, 2.0, 1.5))


def test_trigger_to_collider_keeps_it_too_and_a_shaped_trigger_is_left_alone(clean_scene):
    settings = zone().omi_physics
    settings.use_trigger = True
    settings.use_collider = False
    settings.trigger.shape.size = (4.0, 4.0, 4.0)
    settings.collider.property_unset("shape")
    settings.use_collider = True
    assert tuple(settings.collider.shape.size) == pytest.approx((4.0, 4.0, 4.0))
    settings.collider.shape.size = (1.0, 1.0, 1.0)
    settings.use_trigger = False
    settings.use_trigger = True  # the trigger's own shape stays
    assert tuple(settings.trigger.shape.size) == pytest.approx((4.0, 4.0, 4.0))
