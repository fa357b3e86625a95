"""KHR_animation_pointer channels of a file become keyframes on the physics settings; pointers to physics
values the file lacks are warned about with the channel's JSON pointer; other channels stay Blender's."""

from __future__ import annotations

import addon_loader
import bpy
import pytest
from animation_support import with_channels
from import_support import BODY, document, import_gltf, write_gltf

pytestmark = pytest.mark.usefixtures("omi_addon")
POINTER = "KHR_animation_pointer"


def fcurves(id_data):
    return addon_loader.module("io.blender.animation.curves").fcurves(id_data)


def test_channels_become_keyframes_and_bad_pointers_are_named(clean_scene, tmp_path):
    nodes = [{"name": "Crate", "translation": [0, 1, 0],
              "extensions": {BODY: {"motion": {"type": "dynamic", "mass": 2.0}, "collider": {"shape": 0}}}}]
    gltf = document(nodes, [{"type": "box", "box": {"size": [1, 2, 3]}}])
    fps = bpy.context.scene.render.fps
    missing = "/nodes/0/extensions/OMI_physics_body/motion/nothing"
    absent = "/extensions/OMI_physics_shape/shapes/4/box/size"
    gltf = with_channels(gltf, [
        ("/nodes/0/extensions/OMI_physics_body/motion/mass", [1 / fps, 11 / fps], [2.0, 8.0], "SCALAR"),
        ("/extensions/OMI_physics_shape/shapes/0/box/size", [1 / fps, 11 / fps], [1, 2, 3, 3, 2, 1], "VEC3"),
        ("/nodes/0/extensions/OMI_physics_body/motion/gravityFactor", [1 / fps], [0.5], "SCALAR"),
        (missing, [0.0], [1.0], "SCALAR"),
        (absent, [0.0], [1, 1, 1], "VEC3"),
        ("translation", [1 / fps, 11 / fps], [0, 1, 0, 0, 3, 0], "VEC3"),
    ])
    imported = import_gltf(write_gltf(tmp_path, "animated", gltf))
    crate = imported.obj("Crate")
    curves = {(curve.data_path, curve.array_index): curve for curve in fcurves(crate)}
    mass = curves[("omi_physics.motion.mass", 0)]
    assert [tuple(point.co) for point in mass.keyframe_points] == [(1.0, 2.0), (11.0, 8.0)]
    assert {point.interpolation for point in mass.keyframe_points} == {'LINEAR'}
    # glTF (x, y, z) is Blender's (x, z, y) for a box's extents
    size = [curves[("omi_physics.collider.shape.size", axis)] for axis in range(3)]
    assert [[tuple(point.co) for point in curve.keyframe_points] for curve in size] == \
        [[(1.0, 1.0), (11.0, 3.0)], [(1.0, 3.0), (11.0, 1.0)], [(1.0, 2.0), (11.0, 2.0)]]
    assert [tuple(p.co) for p in curves[("omi_physics.motion.gravity_factor", 0)].keyframe_points] == [(1.0, 0.5)]
    assert ("location", 1) in curves  # Blender's importer still animates the node
    problems = "\n".join(imported.warnings)
    assert "/animations/0/channels/3/target/extensions/KHR_animation_pointer/pointer" in problems
    assert missing in problems and absent in problems and "no such physics value" in problems
    assert "channels/5" not in problems


def test_khr_channel_keys_the_settings(clean_scene, tmp_path):
    gltf = {
        "asset": {"version": "2.0"},
        "extensionsUsed": ["KHR_physics_rigid_bodies", "KHR_implicit_shapes"],
        "extensions": {"KHR_implicit_shapes": {"shapes": [{"type": "sphere", "sphere": {"radius": 0.5}}]},
                       "KHR_physics_rigid_bodies": {"physicsMaterials": [{"dynamicFriction": 0.4}]}},
        "nodes": [{"name": "Ball", "extensions": {"KHR_physics_rigid_bodies": {
            "motion": {"mass": 3.0}, "collider": {"geometry": {"shape": 0}, "physicsMaterial": 0}}}}],
        "scenes": [{"nodes": [0]}], "scene": 0,
    }
    fps = bpy.context.scene.render.fps
    gltf = with_channels(gltf, [
        ("/nodes/0/extensions/KHR_physics_rigid_bodies/motion/mass", [1 / fps, 5 / fps], [3.0, 1.0], "SCALAR"),
        ("/extensions/KHR_implicit_shapes/shapes/0/sphere/radius", [1 / fps, 5 / fps], [0.5, 2.0], "SCALAR"),
        ("/extensions/KHR_physics_rigid_bodies/physicsMaterials/0/dynamicFriction", [1 / fps, 5 / fps],
         [0.4, 0.1], "SCALAR"),
    ])
    imported = import_gltf(write_gltf(tmp_path, "khr", gltf))
    ball = imported.obj("Ball")
    curves = {curve.data_path: curve for curve in fcurves(ball)}
    assert [tuple(p.co) for p in curves["omi_physics.motion.mass"].keyframe_points] == [(1.0, 3.0), (5.0, 1.0)]
    assert [tuple(p.co) for p in curves["omi_physics.collider.shape.radius"].keyframe_points] == \
        [(1.0, 0.5), (5.0, 2.0)]
    material = ball.omi_physics.collider.physics_material
    entry = bpy.context.scene.omi_physics.physics_materials[material]
    scene_curves = {curve.data_path: curve for curve in fcurves(bpy.context.scene)}
    friction = scene_curves[entry.path_from_id("dynamic_friction")]
    assert [round(p.co[1], 6) for p in friction.keyframe_points] == [0.4, 0.1]


def test_channels_of_several_animations_are_merged_with_a_warning(clean_scene, tmp_path):
    nodes = [{"name": "Crate", "extensions": {BODY: {"motion": {"type": "dynamic"}}}}]
    gltf = with_channels(document(nodes), [
        ("/nodes/0/extensions/OMI_physics_body/motion/mass", [0.0, 1.0], [1.0, 2.0], "SCALAR"),
        ("/nodes/0/extensions/OMI_physics_body/motion/gravityFactor", [0.0, 1.0], [1.0, 0.0], "SCALAR"),
    ])
    first = gltf["animations"][0]
    gltf["animations"] = [{"name": "Heavier", "channels": [first["channels"][0]], "samplers": first["samplers"]},
                          {"name": "Floating", "channels": [{**first["channels"][1], "sampler": 0}],
                           "samplers": [first["samplers"][1]]}]
    imported = import_gltf(write_gltf(tmp_path, "two", gltf))
    curves = {curve.data_path for curve in fcurves(imported.obj("Crate"))}
    assert {"omi_physics.motion.mass", "omi_physics.motion.gravity_factor"} <= curves
    assert any("Heavier, Floating" in text and "one animation" in text for text in imported.warnings), \
        imported.warnings
