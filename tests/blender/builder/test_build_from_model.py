"""The rigid-body build is fed model values only (issue #20, item 3): a document read by the pure reader builds
Blender rigid bodies and constraints on objects that hold no settings at all, and stays so."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import bpy
import pytest

DOCUMENT: dict[str, Any] = {
    "asset": {"version": "2.0"},
    "extensionsUsed": ["OMI_physics_body", "OMI_physics_shape", "OMI_physics_joint"],
    "extensions": {
        "OMI_physics_shape": {"shapes": [
            {"type": "box", "box": {"size": [1.0, 2.0, 3.0]}},
            {"type": "box", "box": {"size": [10.0, 0.2, 10.0]}},
            {"type": "sphere", "sphere": {"radius": 0.25}},
        ]},
        "OMI_physics_body": {"physicsMaterials": [{"dynamicFriction": 0.25, "staticFriction": 0.25,
                                                   "restitution": 0.75}]},
        "OMI_physics_joint": {"physicsJoints": [{"limits": [{"linearAxes": [0, 1, 2], "min": 0, "max": 0},
                                                            {"angularAxes": [0, 2], "min": 0, "max": 0}]}]},
    },
    "nodes": [
        {"name": "Crate", "translation": [0.0, 3.0, 0.0], "extensions": {"OMI_physics_body": {
            "motion": {"type": "dynamic", "mass": 7.5},
            "collider": {"shape": 0, "physicsMaterial": 0}}}},
        {"name": "Floor", "extensions": {"OMI_physics_body": {"collider": {"shape": 1}}}},
        {"name": "Ball", "translation": [2.0, 3.0, 0.0], "extensions": {"OMI_physics_body": {
            "motion": {"type": "kinematic"}, "collider": {"shape": 2}}}},
        {"name": "Hinge", "translation": [2.0, 3.0, 0.0], "extensions": {"OMI_physics_joint": {
            "joint": 0, "connectedNode": 2}}},
    ],
    "scenes": [{"nodes": [0, 1, 2, 3]}],
}


def _objects(markers) -> list[bpy.types.Object]:
    """One object per node at the node's place (glTF Y-up -> Blender Z-up), none with settings; bodies are
    stand-in meshes as the import makes them (the build gives them their shape's mesh)."""
    made = []
    for node in DOCUMENT["nodes"]:
        is_body = "OMI_physics_body" in node["extensions"]
        obj = bpy.data.objects.new(node["name"], bpy.data.meshes.new(node["name"]) if is_body else None)
        x, y, z = node.get("translation", (0.0, 0.0, 0.0))
        obj.location = (x, -z, y)
        bpy.context.scene.collection.objects.link(obj)
        if is_body:
            markers.mark_shape_mesh(obj)
        made.append(obj)
    made[3].parent = made[0]  # the hinge frame sits in the crate's body
    made[3].location = (2.0, 0.0, 0.0)
    return made


def _no_settings(objects) -> bool:
    return not any(obj.omi_physics.has_physics for obj in bpy.data.objects) and \
        not bpy.context.scene.omi_physics.physics_materials and not objects[3].omi_physics.joint.limits


@pytest.fixture
def built(omi, reader, markers, clean_scene):
    inputs = omi("io.blender.builder.inputs")
    doc = reader.read_document(DOCUMENT)
    objects = _objects(markers)
    physics = {}
    for index, node in doc.nodes.items():
        joint = node.joint
        if joint is not None:
            joint = replace(joint, connected_node=objects[joint.connected_node])
        physics[objects[index]] = inputs.ObjectPhysics(replace(node, joint=joint))
    issues: list[Any] = []
    assert _no_settings(objects)
    omi("io.blender.builder.rigid_body").build_rigid_bodies(clean_scene, objects, physics.get, issues)
    return objects, issues


def test_rigid_bodies_are_built_from_a_read_document_without_settings(built):
    (crate, floor, ball, hinge), issues = built
    assert _no_settings((crate, floor, ball, hinge))  # the build wrote no settings either
    assert (crate.rigid_body.type, crate.rigid_body.kinematic) == ('ACTIVE', False)
    assert crate.rigid_body.mass == pytest.approx(7.5)
    assert crate.rigid_body.collision_shape == 'BOX'
    assert tuple(crate.dimensions) == pytest.approx((1.0, 3.0, 2.0))  # glTF (x, y, z) size as Blender (x, z, y)
    assert crate.rigid_body.friction == pytest.approx(0.25) and crate.rigid_body.restitution == pytest.approx(0.75)
    assert floor.rigid_body.type == 'PASSIVE' and tuple(floor.dimensions) == pytest.approx((10.0, 10.0, 0.2))
    assert (ball.rigid_body.type, ball.rigid_body.kinematic, ball.rigid_body.collision_shape) == \
        ('ACTIVE', True, 'SPHERE')
    assert max(ball.dimensions) == pytest.approx(0.5)
    notes = [issue.message for issue in issues if issue.severity == "info"]
    assert any("friction combine" in note for note in notes), issues  # the material's values reached the build


def test_a_joint_of_the_document_becomes_a_hinge_about_the_gltf_axis(built, markers):
    (crate, _floor, ball, hinge), _issues = built
    [empty] = [obj for obj in bpy.data.objects if obj.rigid_body_constraint is not None]
    constraint = empty.rigid_body_constraint
    assert (constraint.type, constraint.object1, constraint.object2) == ('HINGE', crate, ball)
    assert empty.get(markers.OWNER) == hinge
    # free about glTF Y (Blender Z): the hinge's working axis, Blender's local Z, stays on the joint's Z
    z_axis = empty.matrix_world.to_3x3().col[2]
    assert math.isclose(abs(z_axis.z), 1.0, abs_tol=1e-6)
