"""Gravity volumes in Blender's UI: the operator that makes them from the selection, the panel's fields per type
(one draw function for the Physics tab and the sidebar), validation of the spec's rules, the overlay's arrows
pointing where the field pulls, and the settings' enum numbers."""

from __future__ import annotations

import types

import bpy
import pytest
from mathutils import Vector
from ui_recorder import Recorder, make_context


@pytest.fixture
def planet(clean_scene, omi_addon):
    bpy.ops.mesh.primitive_uv_sphere_add(radius=2.0, location=(5.0, 0.0, 0.0))
    obj = bpy.context.active_object
    obj.omi_physics.use_collider = True
    obj.omi_physics.collider.shape.shape_type = 'SPHERE'
    return obj


def test_enum_numbers_are_stable(omi):
    gravity = omi("properties.gravity")
    assert [(item[0], item[-1]) for item in gravity.GRAVITY_TYPE_ITEMS] == [
        ('DIRECTIONAL', 0), ('POINT', 1), ('DISC', 2), ('TORUS', 3), ('LINE', 4), ('SHAPED', 5)]


def test_make_gravity_volume_puts_a_trigger_child_around_a_body(planet):
    assert bpy.ops.omi.gravity_volume_from_selection(gravity_type='POINT', reach=3.0) == {'FINISHED'}
    (volume,) = [obj for obj in bpy.data.objects if obj.parent is planet]
    settings = volume.omi_physics
    assert settings.use_trigger and settings.use_gravity and not settings.use_collider
    assert settings.gravity.gravity_type == 'POINT'
    assert settings.gravity.unit_distance == pytest.approx(2.0, rel=1e-3)  # the planet's surface
    assert settings.trigger.shape.shape_type == 'SPHERE' and settings.trigger.shape.radius == pytest.approx(6.0, 1e-3)
    assert tuple(volume.matrix_world.translation) == pytest.approx((5.0, 0.0, 0.0))


def test_make_gravity_volume_on_a_plain_trigger_uses_it(clean_scene, omi_addon):
    bpy.ops.object.empty_add()
    pad = bpy.context.active_object
    pad.omi_physics.use_trigger = True
    bpy.ops.omi.gravity_volume_from_selection(gravity_type='DIRECTIONAL')
    assert pad.omi_physics.use_gravity and len(bpy.data.objects) == 1


def _draw(omi, obj) -> Recorder:
    layout = Recorder()
    omi("panels.gravity").draw_gravity(layout, make_context(obj), obj)
    return layout


@pytest.mark.parametrize(("gravity_type", "shown", "hidden"), [
    ('DIRECTIONAL', {"direction"}, {"unit_distance", "radius"}),
    ('POINT', {"unit_distance"}, {"direction", "radius"}),
    ('TORUS', {"radius", "unit_distance"}, {"direction"}),
    ('LINE', {"unit_distance", "co"}, {"direction", "radius"}),
    ('SHAPED', {"unit_distance", "shape_type", "size"}, {"direction", "radius"}),
])
def test_panel_shows_the_fields_of_the_type(omi, planet, gravity_type, shown, hidden):
    bpy.ops.omi.gravity_volume_from_selection(gravity_type='POINT')
    volume = next(obj for obj in bpy.data.objects if obj.parent is planet)
    volume.omi_physics.gravity.gravity_type = gravity_type
    if gravity_type == 'LINE':
        volume.omi_physics.gravity.points.add()
    drawn = set(_draw(omi, volume).props())
    assert shown <= drawn and not hidden & drawn, drawn
    assert {"strength", "priority", "replace", "stop"} <= drawn


def test_both_panels_draw_the_same_settings(omi, planet):
    bpy.ops.omi.gravity_volume_from_selection(gravity_type='DISC')
    volume = next(obj for obj in bpy.data.objects if obj.parent is planet)
    panels = omi("panels.gravity")
    drawn = {}
    for cls in (panels.PHYSICS_PT_omi_gravity, panels.VIEW3D_PT_omi_gravity):
        layout = Recorder()
        cls.draw(types.SimpleNamespace(layout=layout), make_context(volume))
        drawn[cls.__name__] = layout.props()
    assert drawn["PHYSICS_PT_omi_gravity"] == drawn["VIEW3D_PT_omi_gravity"]
    assert panels.PHYSICS_PT_omi_gravity.poll(make_context(volume))
    assert not panels.PHYSICS_PT_omi_gravity.poll(make_context(planet))  # a collider: no gravity volume here


def test_validation_names_each_rule(omi, planet):
    checks = omi("operators.validate_checks")
    planet.omi_physics.use_gravity = True  # on a collider: not a trigger
    bpy.ops.object.empty_add()
    line = bpy.context.active_object
    line.omi_physics.use_trigger = line.omi_physics.use_gravity = True
    line.omi_physics.gravity.gravity_type = 'LINE'
    line.omi_physics.gravity.points.add()  # one point
    bpy.ops.object.empty_add()
    pad = bpy.context.active_object
    pad.omi_physics.use_trigger = pad.omi_physics.use_gravity = True
    pad.omi_physics.gravity.direction = (0.0, 0.0, -2.0)
    problems = {(p.object_name, p.severity): p.message for p in checks.check_scene(bpy.context.scene)
                if p.code.startswith("GRAVITY")}
    assert "not a trigger" in problems[(planet.name, "error")]
    assert "at least 6" in problems[(line.name, "error")]
    assert "normalised" in problems[(pad.name, "warning")]
    assert "do not feel gravity volumes" in problems[(bpy.context.scene.name, "info")]
    layout = _draw(omi, line)
    assert "at least 6" in " ".join(layout.labels())  # wrapped over lines


def test_overlay_arrows_point_to_the_planet_centre(omi, planet):
    bpy.ops.omi.gravity_volume_from_selection(gravity_type='POINT')
    volume = next(obj for obj in bpy.data.objects if obj.parent is planet)
    lines = omi("viewport.gravity_lines")
    buffer = omi("viewport.geometry").LineBuffer()
    assert lines.volume_lines(volume, buffer)
    positions, _colors = buffer.arrays()
    shafts = positions[: 6 * 28].reshape(-1, 6, 3)[:, :2]  # each arrow: shaft, then its two head strokes
    centre = Vector((5.0, 0.0, 0.0))
    for start, end in shafts:
        direction = Vector(end) - Vector(start)
        toward = centre - Vector(start)
        assert direction.normalized().dot(toward.normalized()) > 0.999
    volume.omi_physics.use_gravity = False
    assert not lines.volume_lines(volume, omi("viewport.geometry").LineBuffer())
    overlay = omi("viewport.overlay")
    without = len(overlay.rebuild(bpy.context.scene).positions)
    volume.omi_physics.use_gravity = True
    assert len(overlay.rebuild(bpy.context.scene).positions) > without


def test_clearing_the_trigger_clears_its_gravity_volume(clean_scene, omi_addon):
    bpy.ops.object.empty_add()
    pad = bpy.context.active_object
    pad.omi_physics.use_trigger = True
    bpy.ops.omi.gravity_volume_from_selection(gravity_type='DIRECTIONAL')
    pad.omi_physics.gravity.strength = 3.0
    assert bpy.ops.omi.clear_physics(parts={'TRIGGER'}) == {'FINISHED'}
    assert not pad.omi_physics.use_gravity and pad.omi_physics.gravity.strength == pytest.approx(9.80665)
