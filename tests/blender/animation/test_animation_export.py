"""Keyframed OMI settings export as KHR_animation_pointer channels and import back as the same keyframes."""

from __future__ import annotations

import math
from typing import Any

import addon_loader
import bpy
import omi_core.dialects.pointers
import pytest
from animation_support import (
    FRAMES,
    POINTER,
    animated_scene,
    channels,
    item_index,
    named_channels,
    pointer_of,
    set_interpolation,
)
from export_support import export
from import_support import import_gltf
from khronos_validator import validate as khronos_validator  # noqa: F401 - a fixture
from present import present

pytestmark = pytest.mark.usefixtures("omi_addon")


def fcurves(id_data):
    return addon_loader.module("io.blender.animation.curves").fcurves(id_data)


def omi_pointers():
    return omi_core.dialects.pointers


def close(a, b, tolerance: float = 1e-6) -> bool:
    a, b = (a if isinstance(a, list) else [a]), (b if isinstance(b, list) else [b])
    if len(a) != len(b):
        return False
    return all(math.isclose(x, y, rel_tol=tolerance, abs_tol=tolerance) for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize("fmt", ["GLTF_SEPARATE", "GLB"])
def test_every_object_model_value_exports_as_a_channel(clean_scene, tmp_path, omi, fmt):
    keyed = animated_scene()
    result = export(tmp_path, fmt=fmt)
    found = channels(result)
    fps = bpy.context.scene.render.fps * bpy.context.scene.render.fps_base
    assert POINTER in result.gltf["extensionsUsed"]
    assert len(found) == len(keyed), sorted(found)
    for key in keyed:
        pointer = pointer_of(result, key)
        assert pointer in found, (key, sorted(found))
        channel = found[pointer]
        assert channel["interpolation"] == "LINEAR"
        assert close(channel["times"], [frame / fps for frame in FRAMES]), pointer
        assert channel["input"]["min"] == [channel["times"][0]] and channel["input"]["max"] == [channel["times"][-1]]
        expected = [key.convert(value) for value in key.values]
        expected = [list(value) if isinstance(value, list | tuple) else value for value in expected]
        assert all(close(got, want) for got, want in zip(channel["values"], expected, strict=True)), \
            (pointer, channel["values"], expected)
    # animated items never share an entry with still ones that start equal
    assert item_index(result, "Body", "shapes") != item_index(result, "Twin", "shapes")
    assert item_index(result, "Ball", "shapes") != item_index(result, "Marble", "shapes")
    assert omi_core.dialects.pointers.check_animation(result.gltf) == []


@pytest.mark.slow
@pytest.mark.parametrize("interpolation", ['LINEAR', 'BEZIER', 'CONSTANT'])
def test_round_trip_keeps_the_animation_value_for_value(clean_scene, tmp_path, interpolation):
    animated_scene()
    set_interpolation(interpolation)
    first = export(tmp_path, "first")
    imported = import_gltf(first.path)
    assert imported.result == {'FINISHED'}
    assert not [text for text in imported.warnings if "channel" in text], imported.warnings
    second = export(tmp_path, "second")
    before, after = named_channels(first), named_channels(second)
    assert sorted(before) == sorted(after)
    for key, channel in before.items():
        other = after[key]
        assert channel["interpolation"] == other["interpolation"], key
        assert close(channel["times"], other["times"]), key
        assert all(close(a, b, 1e-5) for a, b in zip(channel["values"], other["values"], strict=True)), \
            (key, channel["values"], other["values"])


@pytest.mark.parametrize("interpolation", ['CONSTANT', 'BEZIER', 'BOUNCE'])
def test_sampler_interpolation_follows_the_keyframes(clean_scene, tmp_path, interpolation):
    """Constant keys are STEP; Bézier keys with handles at thirds (Blender's automatic ones) are CUBICSPLINE
    with the curve's own slopes; easing is sampled at every frame."""
    keyed = animated_scene()
    set_interpolation(interpolation)
    result = export(tmp_path)
    mass = next(key for key in keyed if key.path.endswith("/mass"))
    channel = channels(result)[pointer_of(result, mass)]
    fps = bpy.context.scene.render.fps * bpy.context.scene.render.fps_base
    curve = next(c for c in fcurves(bpy.data.objects["Body"]) if c.data_path == mass.data_path)
    if interpolation == 'CONSTANT':
        assert channel["interpolation"] == "STEP"
        assert close(channel["values"], list(mass.values))
    elif interpolation == 'BEZIER':
        assert channel["interpolation"] == "CUBICSPLINE"
        points = curve.keyframe_points
        values = channel["values"]  # in-tangent, value, out-tangent per key
        assert close([values[1], values[4]], list(mass.values))
        slope = (points[0].handle_right[1] - points[0].co[1]) / (points[0].handle_right[0] - points[0].co[0])
        assert close(values[2], slope * fps, 1e-4)
        assert close([values[0], values[5]], [0.0, 0.0])  # no slope outside the keys
    else:
        assert channel["interpolation"] == "LINEAR"
        frames = range(FRAMES[0], FRAMES[-1] + 1)
        assert close(channel["times"], [frame / fps for frame in frames])
        assert close(channel["values"], [curve.evaluate(frame) for frame in frames], 1e-5)
        assert result.warnings("sampled at every frame")
    assert omi_pointers().check_animation(result.gltf) == []


def test_boolean_and_structural_keyframes_are_named_not_exported(clean_scene, tmp_path):
    animated_scene()
    hinge = bpy.data.objects["Hinge"]
    hinge.keyframe_insert("omi_physics.joint.enable_collision", frame=1)
    body = bpy.data.objects["Body"]
    body.keyframe_insert("omi_physics.use_collider", frame=1)
    result = export(tmp_path)
    assert result.warnings("'Hinge'", "enable_collision", "not exported"), result.messages
    assert result.warnings("'Body'", "use_collider", "not exported")
    assert not any("enableCollision" in pointer for pointer in channels(result))


@pytest.mark.parametrize("fmt", ["GLTF_SEPARATE", "GLB"])
def test_animated_export_passes_the_khronos_validator(clean_scene, tmp_path, khronos_validator, fmt):  # noqa: F811
    animated_scene()
    set_interpolation('BEZIER')
    result = export(tmp_path, fmt=fmt)
    report = khronos_validator(result.path)
    assert report["issues"]["numErrors"] == 0, [m for m in report["issues"]["messages"] if m["severity"] == 0]
    assert len(channels(result)) > 20


@pytest.mark.parametrize("dialect", ['BOTH', 'KHR'])
def test_khr_export_animates_the_khr_spelling_too(clean_scene, tmp_path, omi, model, dialect):
    keyed = animated_scene()
    bpy.context.scene.omi_physics.export_dialect = dialect
    result = export(tmp_path, fmt="GLB")
    found = channels(result)
    khr = {pointer: channel for pointer, channel in found.items() if "KHR_" in pointer}
    omi_channels = {pointer: channel for pointer, channel in found.items() if "OMI_" in pointer}
    # OMI and KHR: both spellings animate; KHR only: every value has its KHR twin, so the OMI goes
    assert len(omi_channels) == (len(keyed) if dialect == 'BOTH' else 0)
    assert ("OMI_physics_body" in result.gltf["extensionsUsed"]) == (dialect == 'BOTH')
    assert len(khr) == len(keyed), (sorted(khr), result.messages)
    pointers = omi_core.dialects.pointers
    assert pointers.check_animation(result.gltf) == []
    for pointer, channel in khr.items():
        assert pointers.resolve(result.gltf, present(pointers.match(pointer)))[0]
        twins = [other for other in omi_channels.values() if other["input"] == channel["input"]]
        assert all(twin["values"] == channel["values"] for twin in twins), pointer
    assert not result.warnings("only the OMI channel animates it")
    # KHR merged the still twins with the animated shapes; the animated users got entries of their own
    khr_shapes = result.gltf["extensions"]["KHR_implicit_shapes"]["shapes"]
    for animated, still in (("Body", "Twin"), ("Ball", "Marble")):
        refs = [result.node(name)["extensions"]["KHR_physics_rigid_bodies"]["collider"]["geometry"]["shape"]
                for name in (animated, still)]
        assert refs[0] != refs[1] and khr_shapes[refs[0]] == khr_shapes[refs[1]]


@pytest.mark.parametrize("mode", ['ACTIONS', 'SCENE'])
def test_channels_join_the_animation_of_their_object(clean_scene, tmp_path, mode):
    animated_scene()
    body = bpy.data.objects["Body"]
    for frame, z in ((1, 2.0), (11, 3.0)):
        body.location.z = z
        body.keyframe_insert("location", frame=frame)
    # one animation for the scene
    options: dict[str, Any] = {"export_anim_scene_split_object": False} if mode == 'SCENE' else {}
    result = export(tmp_path, export_animation_mode=mode, **options)
    animations = result.gltf["animations"]
    body_index = result.index("Body")
    [moving] = [animation for animation in animations
                if any(channel["target"].get("node") == body_index for channel in animation["channels"])]
    pointers = [channel["target"]["extensions"][POINTER]["pointer"] for channel in moving["channels"]
                if channel["target"]["path"] == "pointer"]
    assert f"/nodes/{body_index}/extensions/OMI_physics_body/motion/mass" in pointers
    if mode == 'SCENE':
        assert len(animations) == 1 and len(pointers) == len(channels(result)), [a.get("name") for a in animations]
    else:
        assert {animation["name"] for animation in animations} >= {"Scene physics"}
