"""The viewport overlay's lines: shapes placed exactly in world space, coloured by role, rebuilt on change.

Blender has no GPU in background mode: the lines are built and checked here, the batch is skipped.
"""

from __future__ import annotations

import math

import bpy
import numpy as np
import pytest
from mathutils import Matrix, Vector


@pytest.fixture
def overlay(omi):
    return omi("viewport.overlay")


@pytest.fixture
def geometry(omi):
    return omi("viewport.geometry")


def lines_of(omi, objects):
    return omi("viewport.collect").scene_lines(objects, depsgraph=bpy.context.evaluated_depsgraph_get())


def empty(name, location=(0, 0, 0), rotation=(0, 0, 0), scale=(1, 1, 1)):
    obj = bpy.data.objects.new(name, None)
    bpy.context.scene.collection.objects.link(obj)
    obj.location, obj.rotation_euler, obj.scale = location, rotation, scale
    return obj


def nearest(points, targets) -> np.ndarray:
    """Distance from each point to the nearest target."""
    points, targets = np.asarray(points, float), np.asarray(targets, float)
    return np.linalg.norm(points[:, None, :] - targets[None, :, :], axis=2).min(axis=1)


def colored(lines, color) -> np.ndarray:
    mask = np.all(np.isclose(lines.colors, color), axis=1)
    return lines.positions[mask]


def test_box_lines_are_the_world_box_edges(omi, geometry, clean_scene):
    obj = empty("Crate", (1, 2, 3), (0.3, -0.2, 0.9), (2, 1, 0.5))
    settings = obj.omi_physics
    settings.use_collider = True
    settings.collider.shape.size = (1, 2, 3)
    settings.collider.shape.use_offset = True
    settings.collider.shape.offset_location = (0.5, 0, 0)
    bpy.context.view_layer.update()
    lines = lines_of(omi, [obj])
    assert lines.positions.shape == (24, 3) and lines.shapes == 1
    assert np.allclose(lines.colors, geometry.ROLE_COLORS['STATIC'])
    matrix = obj.matrix_world @ Matrix.Translation((0.5, 0, 0))
    corners = [tuple(matrix @ Vector((x * 0.5, y, z * 1.5))) for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]
    assert nearest(lines.positions, corners).max() < 1e-4  # every line end is a corner
    assert nearest(corners, lines.positions).max() < 1e-4  # every corner is drawn


def test_round_shapes_are_placed_and_coloured_by_the_body_above(omi, geometry, clean_scene):
    body = empty("Body", (0, 0, 5), (0, math.pi / 2, 0))
    body.omi_physics.use_motion = True
    body.omi_physics.motion.motion_type = 'KINEMATIC'
    ball = empty("Ball", (1, 0, 0))
    ball.parent = body
    ball.omi_physics.use_collider = True
    ball.omi_physics.collider.shape.shape_type = 'SPHERE'
    ball.omi_physics.collider.shape.radius = 0.7
    pill = empty("Pill", (0, 3, 0), scale=(2, 2, 2))
    pill.omi_physics.use_motion = True
    pill.omi_physics.use_collider = True
    shape = pill.omi_physics.collider.shape
    shape.shape_type = 'CAPSULE'
    shape.height, shape.radius_top, shape.radius_bottom = 1.0, 0.5, 0.25
    can = empty("Can", (0, -3, 0))
    can.omi_physics.use_trigger = True
    can_shape = can.omi_physics.trigger.shape
    can_shape.shape_type = 'CYLINDER'
    can_shape.height, can_shape.radius_top, can_shape.radius_bottom = 2.0, 0.3, 0.6
    bpy.context.view_layer.update()
    lines = lines_of(omi, [body, ball, pill, can])
    assert lines.shapes == 3

    sphere = colored(lines, geometry.ROLE_COLORS['KINEMATIC'])
    center = np.array(ball.matrix_world.to_translation())
    assert np.allclose(np.linalg.norm(sphere - center, axis=1), 0.7, atol=1e-5)

    capsule = colored(lines, geometry.ROLE_COLORS['DYNAMIC'])
    local = (np.array(pill.matrix_world.inverted()) @ np.c_[capsule, np.ones(len(capsule))].T).T[:, :3]
    assert local[:, 2].max() == pytest.approx(0.5 + 0.5, abs=1e-5)  # top end: h/2 + radius_top
    assert local[:, 2].min() == pytest.approx(-0.5 - 0.25, abs=1e-5)
    top_ring = local[np.isclose(local[:, 2], 0.5)]
    assert np.linalg.norm(top_ring[:, :2], axis=1).max() == pytest.approx(0.5, abs=1e-5)

    cylinder = colored(lines, geometry.ROLE_COLORS['TRIGGER'])
    local = cylinder - np.array(can.location)
    assert set(np.round(local[:, 2], 5)) == {-1.0, 1.0}
    bottom = local[np.isclose(local[:, 2], -1.0)]
    assert np.linalg.norm(bottom[:, :2], axis=1).max() == pytest.approx(0.6, abs=1e-5)


def test_mesh_shapes_draw_their_edges_and_hull(omi, geometry, clean_scene):
    bpy.ops.mesh.primitive_monkey_add(location=(2, 0, 0))
    monkey = bpy.context.active_object
    monkey.omi_physics.use_collider = True
    monkey.omi_physics.collider.shape.shape_type = 'TRIMESH'
    bpy.context.view_layer.update()
    lines = lines_of(omi, [monkey])
    assert len(lines.positions) == 2 * len(monkey.data.edges)
    monkey.omi_physics.collider.shape.shape_type = 'CONVEX'
    lines = lines_of(omi, [monkey])
    world = [tuple(monkey.matrix_world @ v.co) for v in monkey.data.vertices]
    assert nearest(lines.positions, world).max() < 1e-4
    assert len(np.unique(np.round(lines.positions, 3), axis=0)) < len(world)  # hull vertices only


def test_joint_frame_and_limit_arcs(omi, geometry, clean_scene):
    door = empty("Door", (1, 0, 0))
    door.omi_physics.use_motion = True
    frame = empty("Frame")
    frame.omi_physics.use_motion = True
    frame.omi_physics.motion.motion_type = 'STATIC'
    for obj in (door, frame):
        obj.select_set(True)
    bpy.context.view_layer.objects.active = frame
    assert bpy.ops.omi.create_joint(preset='HINGE', axis='Z', angle_min=-1.0, angle_max=1.0) == {'FINISHED'}
    bpy.context.view_layer.update()
    lines = lines_of(omi, bpy.context.scene.objects)
    assert lines.joints == 1
    arc = colored(lines, geometry.ROLE_COLORS['LIMIT'])
    assert len(arc)
    joint_obj = next(o for o in bpy.context.scene.objects if o.omi_physics.use_joint)
    origin = np.array(joint_obj.matrix_world.to_translation())
    radii = np.linalg.norm(arc - origin, axis=1)
    rim = arc[radii > 1e-6]
    assert np.allclose(rim[:, 2], origin[2])  # the arc turns around Z
    angles = np.arctan2(rim[:, 1] - origin[1], rim[:, 0] - origin[0])
    assert angles.min() == pytest.approx(-1.0, abs=1e-5) and angles.max() == pytest.approx(1.0, abs=1e-5)
    tripod = lines.positions[np.all(np.isclose(lines.colors, geometry.AXIS_COLORS[0]), axis=1)]
    assert len(tripod) == 2


def test_overlay_rebuilds_only_after_a_change_and_never_touches_the_gpu_here(omi, overlay, clean_scene):
    assert overlay.is_registered()
    assert overlay.on_depsgraph_update in bpy.app.handlers.depsgraph_update_post
    obj = empty("Crate")
    obj.omi_physics.use_collider = True
    bpy.context.view_layer.update()
    overlay.draw()  # the POST_VIEW callback itself, in background mode
    assert overlay.STATE.batch is None and not overlay.STATE.dirty
    assert overlay.STATE.lines.shapes == 1
    rebuilds = overlay.STATE.rebuilds
    overlay.draw()
    assert overlay.STATE.rebuilds == rebuilds  # nothing changed: no rebuild
    obj.location.x += 1.0
    bpy.context.view_layer.update()
    assert overlay.STATE.dirty
    overlay.draw()
    assert overlay.STATE.rebuilds == rebuilds + 1
    assert overlay.STATE.lines.positions[:, 0].min() == pytest.approx(0.5, abs=1e-5)
    obj.hide_set(True)  # hidden objects are not drawn
    bpy.context.view_layer.update()
    overlay.draw()
    assert overlay.STATE.lines.shapes == 0
    obj.hide_set(False)
    bpy.context.scene.omi_physics.show_overlay = False
    bpy.context.view_layer.update()
    overlay.draw()
    assert overlay.STATE.rebuilds == rebuilds + 2  # overlay off: not even rebuilt
    bpy.context.scene.omi_physics.show_overlay = True


def test_mesh_edge_cache_forgets_changed_geometry(omi, overlay, clean_scene):
    bpy.ops.mesh.primitive_cube_add()
    cube = bpy.context.active_object
    cube.omi_physics.use_collider = True
    cube.omi_physics.collider.shape.shape_type = 'TRIMESH'
    bpy.context.view_layer.update()
    overlay.rebuild(bpy.context.scene, bpy.context.evaluated_depsgraph_get())
    key = (cube.session_uid, 'TRIMESH')
    assert key in overlay.STATE.mesh_cache.entries
    top = next(v for v in cube.data.vertices if v.co.z > 0)
    top.co.z += 1.0
    cube.data.update()
    bpy.context.view_layer.update()
    assert key not in overlay.STATE.mesh_cache.entries
    lines = overlay.rebuild(bpy.context.scene, bpy.context.evaluated_depsgraph_get())
    assert lines.positions[:, 2].max() == pytest.approx(2.0, abs=1e-5)


def test_unregister_removes_the_draw_handler_and_handlers(omi_addon):
    import addon_loader

    addon_loader.disable()
    try:
        names = {getattr(f, "__name__", "") for f in bpy.app.handlers.depsgraph_update_post}
        assert "on_depsgraph_update" not in names
    finally:
        addon_loader.enable()
    assert addon_loader.module("viewport.overlay").is_registered()


def test_undo_and_redo_drop_what_was_built_from_the_old_data(omi, overlay, clean_scene):
    """After an undo every object may be new memory: no line, batch or cached mesh edge of the old data
    survives, and the next draw rebuilds from the restored scene (issue 26, item 2)."""
    bpy.ops.mesh.primitive_cube_add()
    cube = bpy.context.active_object
    cube.omi_physics.use_collider = True
    cube.omi_physics.collider.shape.shape_type = 'TRIMESH'
    bpy.ops.ed.undo_push(message="tagged")
    cube.location.x = 3.0
    bpy.ops.ed.undo_push(message="moved")
    bpy.context.view_layer.update()
    overlay.rebuild(bpy.context.scene, bpy.context.evaluated_depsgraph_get())
    assert overlay.STATE.mesh_cache.entries and overlay.STATE.lines is not None
    overlay.STATE.dirty = False
    assert bpy.ops.ed.undo() == {'FINISHED'}
    assert overlay.on_undo in bpy.app.handlers.undo_post and overlay.on_undo in bpy.app.handlers.redo_post
    assert overlay.STATE.lines is None and not overlay.STATE.mesh_cache.entries and overlay.STATE.dirty
    lines = overlay.rebuild(bpy.context.scene, bpy.context.evaluated_depsgraph_get())
    assert lines.positions[:, 0].max() == pytest.approx(1.0, abs=1e-5)  # the cube is back at the origin


def test_a_failing_rebuild_is_said_once_and_not_retried_every_redraw(omi, overlay, clean_scene, monkeypatch, caplog):
    bpy.ops.mesh.primitive_cube_add()
    bpy.context.active_object.omi_physics.use_collider = True
    calls = []

    def broken(*_args, **_kwargs):
        calls.append(1)
        raise RuntimeError("boom")

    monkeypatch.setattr(overlay, "scene_lines", broken)
    overlay.STATE.invalidate()
    overlay.draw()
    overlay.draw()
    assert len(calls) == 1 and overlay.STATE.failure == "boom"
    assert [record for record in caplog.records if "overlay could not be drawn" in record.getMessage()]


def test_a_tag_alone_redraws_the_overlay(omi, overlay, clean_scene):
    """Tagging with a sidebar button (no other click) reaches the overlay: the setting's edit asks for a
    depsgraph update, which marks the lines dirty and redraws the 3D viewports."""
    obj = empty("Crate")
    bpy.context.view_layer.update()
    overlay.draw()
    assert not overlay.STATE.dirty and overlay.STATE.lines.shapes == 0
    obj.omi_physics.use_collider = True
    bpy.context.view_layer.update()  # what Blender runs after the click
    assert overlay.STATE.dirty
    overlay.draw()
    assert overlay.STATE.lines.shapes == 1


def test_the_overlay_can_draw_in_front_of_the_meshes(clean_scene):
    settings = bpy.context.scene.omi_physics
    assert not settings.overlay_in_front  # off by default: meshes hide what is behind them, as Blender draws
    settings.overlay_in_front = True


def test_the_legend_names_every_colour_the_overlay_draws(omi):
    legend, geometry = omi("viewport.legend"), omi("viewport.geometry")
    gravity = omi("viewport.gravity_lines")
    assert {role for role, _label in legend.LEGEND} == set(geometry.ROLE_COLORS)
    assert geometry.ROLE_COLORS['GRAVITY'] == gravity.GRAVITY_COLOR
    colours = list(geometry.ROLE_COLORS.values())
    assert len(set(colours)) == len(colours)  # no two roles in one colour


@pytest.mark.parametrize("perspective", [True, False])
def test_lines_are_drawn_a_little_nearer_than_the_surfaces_they_lie_on(overlay, perspective):
    """A fitted box lies on its mesh's edges and faces: at their very depth it z-fought them (fragments in a
    real window). Each point keeps its place on the screen and moves nearer by a fraction of its distance."""
    near, far = 0.01, 1000.0  # the factory view's clip range
    if perspective:
        projection = Matrix(((1.5, 0, 0, 0), (0, 2, 0, 0), (0, 0, -(far + near) / (far - near),
                             -2 * far * near / (far - near)), (0, 0, -1, 0)))
    else:
        projection = Matrix(((0.2, 0, 0, 0), (0, 0.25, 0, 0), (0, 0, -2 / (far - near),
                             -(far + near) / (far - near)), (0, 0, 0, 1)))
    pulled = overlay.pulled_nearer(projection)

    def screen(matrix, point):  # in doubles: mathutils holds floats, too coarse for a depth step
        clip = np.array(matrix, float) @ np.array((*point, 1.0))
        return clip[:3] / clip[3]

    def eye_depth(ndc_z):  # the distance a normalised depth means under the view's own projection
        if perspective:
            return projection[2][3] / (ndc_z + projection[2][2])
        return -(ndc_z - projection[2][3]) / projection[2][2]

    for point in ((0.3, -0.2, -2.0), (1.0, 2.0, -10.0), (-4.0, 3.0, -50.0)):
        seen, drawn = screen(projection, point), screen(pulled, point)
        assert drawn[:2] == pytest.approx(seen[:2], abs=1e-9)
        assert drawn[2] < seen[2] - 2 ** -24 * 2  # nearer by more than a step of a 24-bit depth buffer
        # perspective: 0.2% of its distance nearer; orthographic: 1 cm (0.002% of the 1 km clip range)
        assert eye_depth(drawn[2]) == pytest.approx(-point[2], rel=0.0025 if perspective else 0.0, abs=0.0 if
                                                     perspective else 0.015)
