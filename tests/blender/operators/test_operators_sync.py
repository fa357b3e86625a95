"""Sync both ways through bpy.ops: settings -> Blender rigid bodies (and Bullet moves them), Blender rigid
bodies -> settings, and a round trip that gives back the settings it started from."""

from __future__ import annotations

import bpy
import omi_core.model
import pytest


@pytest.fixture(autouse=True)
def _enabled(omi_addon):
    return omi_addon


def cube(name, location, size=1.0):
    bpy.ops.mesh.primitive_cube_add(size=size, location=location)
    obj = bpy.context.active_object
    obj.name = name
    return obj


def select(*objects):
    for obj in bpy.context.view_layer.objects:
        obj.select_set(False)
    for obj in objects:
        obj.select_set(True)
    bpy.context.view_layer.objects.active = objects[0]


def tagged_scene():
    """A static floor, a dynamic 2 kg crate above it, and a hinged door on a static post."""
    floor = cube("Floor", (0, 0, -0.5))
    floor.scale = (10, 10, 1)
    bpy.ops.object.transform_apply(location=False, rotation=False, scale=True)
    crate = cube("Crate", (0, 0, 3.0))
    post = cube("Post", (5, 0, 1), size=0.2)
    door = cube("Door", (5.6, 0, 1))
    door.scale = (1, 0.1, 1)
    bpy.ops.object.transform_apply(location=False, rotation=False, scale=True)
    for obj, motion in ((floor, 'STATIC'), (crate, 'DYNAMIC'), (post, 'STATIC'), (door, 'DYNAMIC')):
        select(obj)
        bpy.ops.omi.make_body(motion_type=motion)
        bpy.ops.omi.fit_collider(shape_type='BOX')
    crate.omi_physics.motion.mass = 2.0
    bpy.ops.omi.library_add_preset(kind='MATERIAL', preset="Rubber")
    select(crate)
    bpy.ops.omi.assign_material(material="Rubber")
    select(door, post)
    bpy.context.view_layer.objects.active = post
    bpy.ops.omi.create_joint(preset='HINGE', axis='Z', angle_min=-1.0, angle_max=1.0)
    return floor, crate, post, door


def test_settings_to_rigid_bodies_and_bullet_simulates_them(clean_scene):
    floor, crate, post, door = tagged_scene()
    assert bpy.ops.omi.sync_to_rigid_bodies() == {'FINISHED'}
    assert crate.rigid_body.type == 'ACTIVE' and crate.rigid_body.mass == pytest.approx(2.0)
    assert crate.rigid_body.collision_shape == 'BOX'
    assert crate.rigid_body.restitution == pytest.approx(0.8)  # the Rubber preset
    assert floor.rigid_body.type == 'PASSIVE' and post.rigid_body.type == 'PASSIVE'
    constraints = [obj for obj in bpy.context.scene.objects if obj.rigid_body_constraint is not None]
    assert len(constraints) == 1
    hinge = constraints[0].rigid_body_constraint
    assert hinge.type == 'HINGE' and {hinge.object1, hinge.object2} == {door, post}
    assert hinge.use_limit_ang_z
    assert sorted((hinge.limit_ang_z_lower, hinge.limit_ang_z_upper)) == pytest.approx([-1.0, 1.0])
    scene = bpy.context.scene
    for frame in range(scene.frame_start, scene.frame_start + 60):
        scene.frame_set(frame)
    landed = crate.matrix_world.to_translation().z
    assert landed == pytest.approx(0.5, abs=0.1)  # fell 2.5 m and rests on the floor's top


def test_rigid_bodies_to_settings(clean_scene):
    ball = cube("Ball", (0, 0, 2))
    ground = cube("Ground", (0, 0, 0))
    select(ball)
    bpy.ops.rigidbody.world_add()
    world = bpy.context.scene.rigidbody_world
    if world.collection is None:
        world.collection = bpy.data.collections.new("RigidBodyWorld")
    for obj in (ball, ground):
        world.collection.objects.link(obj)
    bpy.context.view_layer.update()
    ball.rigid_body.type = 'ACTIVE'
    ball.rigid_body.mass = 3.0
    ball.rigid_body.collision_shape = 'SPHERE'
    ball.rigid_body.friction = 0.3
    ball.rigid_body.restitution = 0.5
    ground.rigid_body.type = 'PASSIVE'
    ground.rigid_body.collision_shape = 'BOX'
    assert bpy.ops.omi.sync_from_rigid_bodies() == {'FINISHED'}
    settings = ball.omi_physics
    assert settings.use_motion and settings.motion.motion_type == 'DYNAMIC'
    assert settings.motion.mass == pytest.approx(3.0)
    assert settings.use_collider and settings.collider.shape.shape_type == 'SPHERE'
    assert settings.collider.shape.radius == pytest.approx(0.5)  # half the 1 m cube's largest size
    material = bpy.context.scene.omi_physics.physics_materials[settings.collider.physics_material]
    assert (material.dynamic_friction, material.restitution) == pytest.approx((0.3, 0.5))
    assert ground.omi_physics.motion.motion_type == 'STATIC'
    assert ground.omi_physics.collider.shape.shape_type == 'BOX'
    assert tuple(ground.omi_physics.collider.shape.size) == pytest.approx((1.0, 1.0, 1.0))


def snapshot(omi, objects):
    """What the settings mean, in glTF values: motion, shape and material per object, joint limits."""
    convert = omi("properties.convert")
    default = omi_core.model.PhysicsMaterial()
    meaning = {}
    for obj in objects:
        node = convert.node_from_object(obj)
        collider = node.collider
        meaning[obj.name] = (
            node.motion.type if node.motion else None,
            round(node.motion.mass, 4) if node.motion else None,
            collider.shape.type if collider and collider.shape else None,
            tuple(round(v, 4) for v in collider.shape.size) if collider and collider.shape else None,
            # No material means the spec's default (friction 0.6, no bounce): compare the values.
            (round((collider.physics_material or default).dynamic_friction, 4),
             round((collider.physics_material or default).restitution, 4)) if collider else None,
        )
    return meaning


def joint_limits(omi, joint_obj):
    joint = omi("properties.convert").joint_to_model(joint_obj.omi_physics.joint, joint_obj)
    return sorted((limit.linear_axes, limit.angular_axes, round(limit.min, 4), round(limit.max, 4))
                  for limit in joint.settings.limits)


def test_sync_round_trip_gives_back_the_settings(omi, clean_scene):
    floor, crate, post, door = tagged_scene()
    bodies = [floor, crate, post, door]
    joint_obj = next(obj for obj in bpy.context.scene.objects if obj.omi_physics.use_joint)
    before, limits_before = snapshot(omi, bodies), joint_limits(omi, joint_obj)
    assert bpy.ops.omi.sync_to_rigid_bodies() == {'FINISHED'}
    select(*bodies)
    assert bpy.ops.omi.clear_physics() == {'FINISHED'}
    assert not any(obj.omi_physics.has_physics for obj in bodies)
    assert bpy.ops.omi.sync_from_rigid_bodies() == {'FINISHED'}
    assert snapshot(omi, bodies) == before
    # The constraint Sync to Blender made stands for the joint's own settings: not adopted a second time.
    assert [obj for obj in bpy.context.scene.objects if obj.omi_physics.use_joint] == [joint_obj]
    assert joint_limits(omi, joint_obj) == limits_before
    # And back again: the same Blender simulation setup.
    assert bpy.ops.omi.sync_to_rigid_bodies() == {'FINISHED'}
    assert crate.rigid_body.mass == pytest.approx(2.0) and crate.rigid_body.restitution == pytest.approx(0.8)
    assert [obj.rigid_body_constraint.type for obj in bpy.context.scene.objects
            if obj.rigid_body_constraint is not None] == ['HINGE']


def test_clear_physics_can_remove_the_blender_rigid_bodies_too(clean_scene):
    floor, crate, _post, _door = tagged_scene()
    assert bpy.ops.omi.sync_to_rigid_bodies() == {'FINISHED'}
    select(crate)
    assert bpy.ops.omi.clear_physics(rigid_bodies=True) == {'FINISHED'}
    assert crate.rigid_body is None and floor.rigid_body is not None
