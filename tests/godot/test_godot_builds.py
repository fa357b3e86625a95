"""Scenes made in Blender, exported by the add-on, loaded by Godot 4's own glTF importer (headless): with
the `godot` target Godot builds what the artist made (a mesh instance at every node that had a mesh, the
right body class and mass, shapes of the same sizes at the same places, 1e-4 m); with `omi` it loses the
render meshes of physics nodes, with `khr` all physics, which is why the target exists."""

from __future__ import annotations

import json
from pathlib import Path

import bpy
import export_support as build
import godot_checks
import godot_scenes
import omi_core.model
import omi_core.read.reader
import omi_core.write.dialect_convert
import pytest
import reference_exports
import tutorial_scene
from godot_runner import GodotScene

pytestmark = pytest.mark.usefixtures("omi_addon")

SCENES = {"shapes_and_bodies": godot_scenes.build_shapes_and_bodies, "transformed": godot_scenes.build_transformed,
          "readme_tutorial": tutorial_scene.build,  # the README's crate on a floor
          **reference_exports.scenes()}  # the demo, the every-setting scene, constraints, the spec examples


def export(tmp_path: Path, name: str, target: str) -> build.Exported:
    options = bpy.context.scene.omi_physics
    options.export_dialect = target
    try:
        return build.export(tmp_path, f"{name}_{target.lower()}", 'GLB', check=target == 'OMI')
    finally:
        options.export_dialect = 'OMI'


@pytest.fixture(scope="module")
def core(omi):
    return omi_core.read.reader, omi_core.model


@pytest.mark.parametrize("name", sorted(SCENES))
def test_godot_builds_the_scene(godot, core, tmp_path, name):
    reader, model = core
    SCENES[name]()
    omi_file = export(tmp_path, name, 'OMI')
    godot_file = export(tmp_path, name, 'GODOT')
    doc = reader.read_document(omi_file.gltf)
    built = GodotScene(godot.run(godot_file.path))
    assert godot_checks.problems(omi_file.gltf, doc, built, model.default_height) == []
    for node in built.nodes.values():  # Godot core reads no collision filters
        assert node.data.get("layer", 1) == 1 and node.data.get("mask", 1) == 1


@pytest.mark.parametrize("example", reference_exports.spec_examples())
def test_godot_builds_every_spec_example_converted_by_the_command_line(godot, core, omi, tmp_path, example):
    """The pure core's `convert --to godot` (no Blender) on each spec example: Godot builds its physics."""
    reader, model = core
    source = reference_exports.SPEC_DIR / example
    gltf = json.loads(source.read_text())
    converted = omi_core.write.dialect_convert.convert(gltf, "GODOT").document
    path = tmp_path / source.name
    path.write_text(json.dumps(converted))
    beside = tuple(source.parent / buffer["uri"] for buffer in gltf.get("buffers", [])
                   if "uri" in buffer and not buffer["uri"].startswith("data:"))
    built = GodotScene(godot.run(path, beside=beside))
    doc = reader.read_document(gltf)
    assert godot_checks.problems(gltf, doc, built, model.default_height) == []


def test_without_the_godot_target_godot_loses_meshes_and_sizes(godot, core, tmp_path):
    reader, model = core
    godot_scenes.build_shapes_and_bodies()
    omi_file = export(tmp_path, "shapes", 'OMI')
    doc = reader.read_document(omi_file.gltf)
    found = godot_checks.problems(omi_file.gltf, doc, GodotScene(godot.run(omi_file.path)), model.default_height)
    lost = {problem.split("'")[1] for problem in found if "no MeshInstance3D" in problem}
    assert lost == {"Floor", "Box", "Sphere", "Capsule", "Cylinder", "Cone", "Hull", "Static", "Kinematic", "TriMesh",
                    "Trigger"}
    wrong = [problem for problem in found if "no {'class': 'CapsuleShape3D'" in problem]
    assert len(wrong) == 1 and "'Capsule'" in wrong[0]  # read as radius 0.5, height 1.4
    khr_file = export(tmp_path, "shapes", 'KHR')
    khr = GodotScene(godot.run(khr_file.path))
    assert not [node for node in khr.nodes.values() if "Body3D" in node.data["class"] or node.data["class"] == "Area3D"]


def test_godot_plays_the_physics_values_it_has_and_the_export_names_the_rest(godot, tmp_path):
    """A keyframed mass and gravity factor with Blender's default Bezier keys: Godot 4.6.3 rejects CUBICSPLINE
    samplers and has no gravity factor, so the target writes the physics channels LINEAR (Godot builds the mass
    track beside the location track) and names only the gravity factor."""
    bpy.ops.wm.read_homefile(use_empty=True)
    crate = build.mesh_object("Crate", location=(0.0, 0.0, 2.0))
    build.tag_motion(crate, 'DYNAMIC', mass=2.0)
    build.tag_shape(crate, "collider", 'BOX', size=(1.0, 1.0, 1.0))
    motion = crate.omi_physics.motion
    for frame, mass, factor, height in ((1, 2.0, 0.5, 2.0), (24, 6.0, 1.0, 4.0)):
        motion.mass, motion.gravity_factor, crate.location.z = mass, factor, height
        motion.keyframe_insert("mass", frame=frame)
        motion.keyframe_insert("gravity_factor", frame=frame)
        crate.keyframe_insert("location", frame=frame)
    exported = export(tmp_path, "animated", 'GODOT')
    channels = [(channel["target"]["extensions"]["KHR_animation_pointer"]["pointer"].rsplit("/", 1)[1],
                 animation["samplers"][channel["sampler"]]["interpolation"])
                for animation in exported.gltf["animations"] for channel in animation["channels"]
                if channel["target"]["path"] == "pointer"]
    assert sorted(channels) == [("gravityFactor", "LINEAR"), ("mass", "LINEAR")], channels
    warned = [message for message in exported.messages if "Godot 4 ignores" in message and "Crate:" in message]
    assert warned == ["OMI physics: Godot 4 ignores animated physics values it has no property for: "
                      "'Crate: motion/gravityFactor'"], warned
    assert not [message for message in exported.messages if "sampled at every frame" in message]
    built = GodotScene(godot.run(exported.path))
    tracks = sorted(track for player in built.of_class("AnimationPlayer") for track in player.tracks)
    assert tracks == ["CrateAction: Crate", "CrateAction: Crate:mass"], tracks


def test_godot_plays_animated_capsule_and_cylinder_sizes(godot, tmp_path):
    """Measured in Godot 4.6.3: animated capsule and cylinder sizes become tracks on the shapes, played in
    Godot's form (one radius, a capsule's full height): the export writes the channels so (before, the
    capsule's mid-height channel played two radii short); an animated inertia orientation does not."""
    import math

    bpy.ops.wm.read_homefile(use_empty=True)
    shapes = {}
    for name, kind, x in (("Pill", 'CAPSULE', 0.0), ("Can", 'CYLINDER', 3.0)):
        obj = build.mesh_object(name, location=(x, 0.0, 2.0))
        build.tag_motion(obj, 'DYNAMIC', mass=2.0)
        shapes[name] = build.tag_shape(obj, "collider", kind, height=1.0, radius_top=0.3, radius_bottom=0.3)
    motion = bpy.data.objects["Can"].omi_physics.motion
    for frame, factor in ((1, 1.0), (24, 2.0)):
        motion.inertia_orientation = (math.cos(0.15 * factor), 0.0, 0.0, math.sin(0.15 * factor))
        motion.keyframe_insert("inertia_orientation", frame=frame)
        for shape in shapes.values():
            shape.height, shape.radius_top, shape.radius_bottom = factor, 0.3 * factor, 0.3 * factor
            for key in ("height", "radius_top", "radius_bottom"):
                shape.keyframe_insert(key, frame=frame)
    exported = export(tmp_path, "sizes", 'GODOT')
    named = sorted(message for message in exported.messages if "Godot 4 ignores" in message and "animated" in message)
    assert named == ["OMI physics: Godot 4 ignores animated physics values it has no property for: "
                     "'Can: motion/inertiaOrientation'"], named
    assert not [message for message in exported.messages if "not in Godot's form" in message], exported.messages
    # the channels in Godot's form: one radius, the capsule's full height (mid-height + both radii), written
    keyed = {}
    for animation in exported.gltf["animations"]:
        for channel in animation["channels"]:
            pointer = channel["target"].get("extensions", {}).get("KHR_animation_pointer", {}).get("pointer", "")
            if "/shapes/" in pointer:
                keyed[pointer.split("/", 5)[5]] = exported.accessor(animation["samplers"][channel["sampler"]]["output"])
    assert sorted(keyed) == ["capsule/height", "capsule/radius", "cylinder/height", "cylinder/radius"], keyed
    ends = {key: [float(values[0]), float(values[-1])] for key, values in keyed.items()}  # frames 1 and 24
    assert ends["capsule/height"] == pytest.approx([1.6, 3.2], abs=1e-5)
    assert ends["capsule/radius"] == pytest.approx([0.3, 0.6], abs=1e-5)
    assert ends["cylinder/height"] == pytest.approx([1.0, 2.0], abs=1e-5)
    built = GodotScene(godot.run(exported.path))
    tracks = {track.split(": ", 1)[1] for player in built.of_class("AnimationPlayer") for track in player.tracks}
    assert tracks == {"Pill/PillShape:shape:height", "Pill/PillShape:shape:radius", "Can/CanShape:shape:height",
                      "Can/CanShape:shape:radius"}, tracks


def test_godot_plays_the_morph_weights_of_a_body(godot, tmp_path):
    """The `godot` target moves a body's mesh to a MeshInstance3D child: the channel of its shape-key weights
    goes with it, so Godot builds a blend-shape track on that mesh (before, the channel targeted the body,
    which has no mesh)."""
    bpy.ops.wm.read_homefile(use_empty=True)
    blob = build.mesh_object("Blob", location=(0.0, 0.0, 2.0))
    blob.shape_key_add(name="Basis")
    key = blob.shape_key_add(name="Squash")
    for frame, value in ((1, 0.0), (24, 1.0)):
        key.value = value
        key.keyframe_insert("value", frame=frame)
    build.tag_motion(blob)
    build.tag_shape(blob, "collider", 'BOX')
    built = GodotScene(godot.run(export(tmp_path, "morph", 'GODOT').path))
    tracks = {track.split(": ", 1)[1] for player in built.of_class("AnimationPlayer") for track in player.tracks}
    meshes = {node.path for node in built.of_class("MeshInstance3D")}
    assert {track.rsplit(":", 1)[0] for track in tracks if track.endswith(":Squash")} <= meshes, (tracks, meshes)
    assert [track for track in tracks if track.endswith(":Squash")], tracks


def test_godot_plays_a_converted_capsules_channels(godot, tmp_path):
    """`convert --to godot` of an OMI file with an animated capsule writes its channels in Godot's form, the
    new keys in a data: URI buffer beside the GLB's own: Godot loads it and builds the shape's radius and
    height tracks (before, the radiusTop/radiusBottom channels named keys the converted shape lacks and the
    height played two radii short)."""
    from animation_support import set_interpolation
    from cli_support import run_cli

    bpy.ops.wm.read_homefile(use_empty=True)
    pill = build.mesh_object("Pill", location=(0.0, 0.0, 2.0))
    build.tag_motion(pill, 'DYNAMIC', mass=2.0)
    shape = build.tag_shape(pill, "collider", 'CAPSULE', height=1.0, radius_top=0.3, radius_bottom=0.3)
    for frame, factor in ((1, 1.0), (24, 2.0)):
        shape.height, shape.radius_top, shape.radius_bottom = factor, 0.3 * factor, 0.3 * factor
        for key in ("height", "radius_top", "radius_bottom"):
            shape.keyframe_insert(key, frame=frame)
    set_interpolation('LINEAR')
    omi = export(tmp_path, "pill", 'OMI')
    converted = tmp_path / "pill_converted.glb"
    result = run_cli("convert", omi.path, "--to", "godot", "--out", converted)
    assert result.returncode == 0, result.stdout + result.stderr
    written = build.schema_check.load_gltf(converted)
    pointers = sorted(channel["target"]["extensions"]["KHR_animation_pointer"]["pointer"].rsplit("/", 2)[1:]
                      for animation in written["animations"] for channel in animation["channels"]
                      if channel["target"]["path"] == "pointer")
    assert pointers == [["capsule", "height"], ["capsule", "radius"]], pointers
    built = GodotScene(godot.run(converted))
    tracks = {track.split(": ", 1)[1] for player in built.of_class("AnimationPlayer") for track in player.tracks}
    assert {"Pill/PillShape:shape:height", "Pill/PillShape:shape:radius"} <= tracks, tracks


def test_godot_plays_a_converted_files_cubicspline_mass(godot, tmp_path):
    """`convert --to godot` of an OMI file whose mass is keyed CUBICSPLINE (Blender's Bézier keys, exported for
    OMI): the targets' form samples the curve into LINEAR keys, and Godot builds the mass track (before, the
    channel stayed CUBICSPLINE, which Godot 4.6.3 rejects, and convert said so)."""
    from cli_support import run_cli

    bpy.ops.wm.read_homefile(use_empty=True)
    crate = build.mesh_object("Crate", location=(0.0, 0.0, 2.0))
    build.tag_motion(crate, 'DYNAMIC', mass=2.0)
    build.tag_shape(crate, "collider", 'BOX', size=(1.0, 1.0, 1.0))
    for frame, mass in ((1, 2.0), (24, 6.0)):
        crate.omi_physics.motion.mass = mass
        crate.omi_physics.motion.keyframe_insert("mass", frame=frame)
    omi = export(tmp_path, "cubic", 'OMI')
    [sampler] = [animation["samplers"][channel["sampler"]] for animation in omi.gltf["animations"]
                 for channel in animation["channels"] if channel["target"]["path"] == "pointer"]
    assert sampler["interpolation"] == "CUBICSPLINE"
    converted = tmp_path / "cubic_converted.glb"
    result = run_cli("convert", omi.path, "--to", "godot", "--out", converted)
    assert result.returncode == 0, result.stdout + result.stderr
    written = build.schema_check.load_gltf(converted)
    assert {sampler["interpolation"] for animation in written["animations"]
            for sampler in animation["samplers"]} == {"LINEAR"}
    built = GodotScene(godot.run(converted))
    tracks = sorted(track for player in built.of_class("AnimationPlayer") for track in player.tracks)
    assert any(track.endswith("Crate:mass") for track in tracks), tracks
