"""The build's record of each rigid body (built_values.record) is the JSON of what Blender holds, whatever the
values: the record is made once per set of values but the mass, so bodies that share all of them, or all but
the mass, must still each get their own values' text, and *Sync from Blender* must see no edit right after."""

from __future__ import annotations

import json

import bpy
import pytest

# (type, mass, collision shape, friction, restitution, collections switched on, damping, margin)
VALUES = [
    ('ACTIVE', 1.0, 'BOX', 0.5, 0.0, (0,), (0.0, 0.0), None),
    ('ACTIVE', 32.92805480957031, 'BOX', 0.5, 0.0, (0,), (0.0, 0.0), None),
    ('ACTIVE', 0.001, 'BOX', 0.5, 0.0, (0,), (0.0, 0.0), None),  # Blender's least mass
    ('ACTIVE', 3.0e38, 'SPHERE', 0.3, 0.25, (0,), (0.0, 0.0), None),
    ('ACTIVE', 7.5, 'SPHERE', 0.3, 0.25, (0, 3), (0.0, 0.0), None),  # one more collection: another text
    ('PASSIVE', 1.0, 'MESH', 0.8, 0.0, (1,), (0.04, 0.1), 0.0),
    ('PASSIVE', 7.5, 'CONVEX_HULL', 0.8, 0.0, (1,), (0.04, 0.1), 0.0),
    ('ACTIVE', 7.5, 'CONVEX_HULL', 0.8, 0.0, (1,), (0.04, 0.1), 0.0),  # as the one before but its type
]


@pytest.fixture
def bodies(clean_scene):
    bpy.ops.rigidbody.world_add()
    world = clean_scene.rigidbody_world
    world.collection = bpy.data.collections.new("RigidBodyWorld")
    made = []
    for index, (kind, mass, shape, friction, restitution, collections, damping, margin) in enumerate(VALUES):
        obj = bpy.data.objects.new(f"Body{index}", bpy.data.meshes.new(f"Body{index}"))
        clean_scene.collection.objects.link(obj)
        world.collection.objects.link(obj)
        rigid = obj.rigid_body
        rigid.type, rigid.mass, rigid.collision_shape = kind, mass, shape
        rigid.friction, rigid.restitution = friction, restitution
        rigid.collision_collections = [index in collections for index in range(20)]
        rigid.linear_damping, rigid.angular_damping = damping
        if margin is not None:
            rigid.use_margin, rigid.collision_margin = True, margin
        made.append(obj)
    return made


def test_each_record_is_the_json_of_its_own_rigid_body(omi, markers, bodies):
    built_values = omi("io.blender.builder.built_values")
    built_values.record(bodies)
    built_values.record(reversed(bodies))  # texts made earlier serve again
    for obj in bodies:
        assert obj[markers.BUILT] == json.dumps(built_values.current(obj)), obj.name
        assert built_values.changed(obj) == set(), obj.name
    bodies[1].rigid_body.mass = 2.0
    bodies[4].rigid_body.collision_collections[3] = False
    assert built_values.changed(bodies[1]) == {"mass"}
    assert built_values.changed(bodies[4]) == {"collision collections"}
