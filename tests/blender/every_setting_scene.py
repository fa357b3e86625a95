"""A scene with every kind of setting the add-on stores (scene libraries, every shape, motion, trigger, joint
limit and drive kind): the .blend round trip's, the reference exports' and the sync round trip's scene."""

from __future__ import annotations

import math

import bpy
import export_support as support


def add_library(scene: bpy.types.Scene) -> None:
    libraries = scene.omi_physics
    grippy = libraries.physics_materials.add()
    grippy.name = "Grippy"
    grippy.static_friction, grippy.dynamic_friction, grippy.restitution = 0.9, 0.7, 0.1
    grippy.friction_combine, grippy.restitution_combine = 'MAXIMUM', 'MINIMUM'
    bouncy = libraries.physics_materials.add()
    bouncy.name = "Bouncy"
    bouncy.restitution = 0.95
    for name, systems, mode, listed in (("Players", ["Player"], 'ONLY', ["World", "Player"]),
                                        ("Ghosts", ["Ghost"], 'EXCEPT', ["Player"])):
        entry = libraries.collision_filters.add()
        entry.name = name
        entry.mode = mode
        for system in systems:
            entry.collision_systems.add().name = system
        for system in listed:
            entry.listed_systems.add().name = system


def build_scene() -> None:
    scene = bpy.context.scene
    # settings only, as the reference exports were captured: with live rigid bodies, the tagged bodies'
    # filters would put them in collision collections, and the plain rigid body's collections (made by
    # hand, never rebuilt) would then export as a filter of their own
    scene.omi_physics.live_rigid_bodies = False
    add_library(scene)

    ground = support.mesh_object("Ground", size=10.0, location=(0.0, 0.0, -5.0))
    support.tag_shape(ground, "collider", 'TRIMESH')
    ground.omi_physics.collider.physics_material = "Grippy"

    crate = support.mesh_object("Crate", location=(0.0, 0.0, 1.0), rotation=(0.1, 0.2, 0.3))
    support.tag_motion(crate, 'DYNAMIC', mass=3.5, use_center_of_mass=True, center_of_mass=(0.1, 0.0, -0.1),
                       inertia_diagonal=(1.0, 2.0, 3.0),
                       inertia_orientation=(0.9238795, 0.0, 0.3826834, 0.0), linear_velocity=(1.0, 0.0, 2.0),
                       angular_velocity=(0.0, 0.5, 0.0), gravity_factor=0.5)
    support.tag_shape(crate, "collider", 'BOX', size=(1.0, 0.8, 0.6), use_offset=True,
                      offset_location=(0.0, 0.1, 0.0), offset_rotation=(0.0, 0.0, 0.3))
    crate.omi_physics.collider.physics_material = "Bouncy"
    crate.omi_physics.collider.collision_filter = "Players"

    barrel = support.mesh_object("Barrel", "cylinder", location=(3.0, 0.0, 1.0))
    support.tag_motion(barrel, 'KINEMATIC')
    support.tag_shape(barrel, "collider", 'CYLINDER', height=1.0, radius_top=0.5, radius_bottom=0.5)

    pill = support.mesh_object("Pill", location=(-3.0, 0.0, 1.0))
    support.tag_motion(pill, 'DYNAMIC', mass=0.5)
    support.tag_shape(pill, "collider", 'CAPSULE', height=0.8, radius_top=0.2, radius_bottom=0.3)

    ball = support.mesh_object("Ball", "ico", location=(0.0, 3.0, 1.0))
    support.tag_motion(ball, 'DYNAMIC')
    support.tag_shape(ball, "collider", 'SPHERE', radius=0.5)

    rock = support.mesh_object("Rock", "ico", location=(0.0, -3.0, 1.0), size=1.5)
    support.tag_motion(rock, 'DYNAMIC')
    bpy.context.view_layer.update()  # the new objects get their view layer bases
    for obj in bpy.context.view_layer.objects:
        obj.select_set(obj == rock)
    bpy.context.view_layer.objects.active = rock
    assert bpy.ops.omi.fit_collider(shape_type='CONVEX', vertex_budget=8) == {'FINISHED'}
    assert rock.omi_physics.collider.shape.mesh_source == 'OBJECT'  # a generated collision mesh

    cone = support.mesh_object("Cone", "cone", location=(3.0, 3.0, 1.0))
    support.tag_motion(cone, 'STATIC')
    support.tag_shape(cone, "collider", 'CONVEX', mesh_source='SELF')

    cart = support.empty("Cart", location=(-3.0, 3.0, 1.0))
    support.tag_motion(cart, 'DYNAMIC', mass=2.0)
    cart.omi_physics.use_collider = True
    cart.omi_physics.collider.is_compound = True
    for index, x in enumerate((-0.5, 0.5)):
        wheel = support.empty(f"CartPart{index}", location=(x, 0.0, 0.0), parent=cart)
        support.tag_shape(wheel, "collider", 'BOX', size=(0.4, 0.4, 0.4))

    zone = support.empty("Zone", location=(6.0, 0.0, 1.0))
    zone.omi_physics.use_trigger = True
    zone.omi_physics.trigger.is_compound = True
    for index, y in enumerate((-1.0, 1.0)):
        part = support.empty(f"ZonePart{index}", location=(0.0, y, 0.0), parent=zone)
        support.tag_shape(part, "trigger", 'BOX', size=(1.0, 1.0, 2.0))
        part.omi_physics.trigger.collision_filter = "Ghosts"  # the schema has no filter on compound triggers
        zone.omi_physics.trigger.nodes.add().target = part
    sensor = support.empty("Sensor", location=(-6.0, 0.0, 1.0))
    support.tag_shape(sensor, "trigger", 'SPHERE', radius=1.5)

    anchor = support.empty("BarrelAnchor", location=(-3.0, 0.0, 0.0), parent=barrel)
    joint_obj = support.empty("CrateJoint", location=(0.0, 0.0, 0.0), parent=crate)
    joint = joint_obj.omi_physics.joint
    joint_obj.omi_physics.use_joint = True
    joint.connected_object = anchor
    joint.enable_collision = True
    slide = joint.limits.add()
    slide.kind, (slide.axis_x, slide.axis_y, slide.axis_z) = 'LINEAR', (True, False, False)
    slide.min_linear, slide.max_linear = -0.5, 0.5
    fixed = joint.limits.add()
    fixed.kind, (fixed.axis_x, fixed.axis_y, fixed.axis_z) = 'LINEAR', (False, True, True)
    soft = joint.limits.add()
    soft.kind, soft.use_min = 'ANGULAR', False
    soft.max_angular = math.radians(30.0)
    soft.use_stiffness, soft.stiffness, soft.damping = True, 50.0, 2.0
    motor = joint.drives.add()
    motor.drive_type, motor.axis, motor.mode = 'ANGULAR', 'X', 'ACCELERATION'
    motor.use_velocity_target, motor.velocity_target, motor.damping = True, 2.0, 5.0
    motor.use_max_force, motor.max_force = True, 40.0
    spring = joint.drives.add()
    spring.drive_type, spring.axis = 'LINEAR', 'X'
    spring.use_position_target, spring.position_target_linear, spring.stiffness = True, 0.25, 80.0

    plain = support.mesh_object("PlainRigidBody", location=(6.0, 3.0, 1.0))
    support.add_rigid_body(plain, 'ACTIVE', 'SPHERE', mass=4.0, friction=0.3)
