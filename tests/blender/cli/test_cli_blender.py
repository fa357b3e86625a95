"""`omi_physics_cli.py import` and `export` in this process (main(argv) with `--in-process`, the path the crash
guard's child takes) with the real bpy: the physics survives glTF -> .blend -> GLB for spec examples and the
project's own fixture files, the dialog options work from flags, and bad input gives the documented exit
status. The .blend files written are opened to check what they hold; test_cli_smoke.py runs the guarded
subprocess path."""

from __future__ import annotations

import base64
import json
import struct
from pathlib import Path

import bpy
import omi_core.cli.guard
import pytest
import schema_check
from cli_support import REPO_ROOT, blender_cli, lines, run_cli, write_gltf

DATA = REPO_ROOT / "tests" / "data" / "cli"
SPEC_ROUND_TRIPS = ["OMI_physics_joint/examples/slider_ball.gltf",
                    "OMI_physics_body/examples/basic/compound_trigger.gltf",
                    "OMI_physics_shape/examples/convex/convex_hull.gltf",
                    # the add-on writes its grouping marker `"collider": {"extras": {}}`: no warning about it
                    "OMI_physics_body/examples/complex/static_compound_collider.gltf"]
DATA_ROUND_TRIPS = {"legacy_body_type.glb": "Crate", "current_scene.gltf": "Door"}  # file -> a dynamic body in it
BROKEN = DATA / "broken.gltf"
BROKEN_POINTERS = ("/nodes/1/extensions/OMI_physics_body/collider/shape",
                   "/nodes/2/extensions/OMI_physics_body/motion/mass",
                   "/nodes/2/extensions/OMI_physics_body/motion/type")
OMI_NAMES = ("OMI_physics_shape", "OMI_physics_body", "OMI_physics_joint")


@pytest.fixture
def opened(omi_addon):
    """Open a .blend in this process (the add-on enabled, so its settings are readable); empty scene after."""
    def open_file(path) -> bpy.types.Scene:
        bpy.ops.wm.open_mainfile(filepath=str(path))
        return bpy.context.scene

    yield open_file
    bpy.ops.wm.read_homefile(use_empty=True)


def _has_omi(gltf: dict) -> bool:
    holders = [gltf, *gltf.get("nodes", [])]
    return any(name in holder.get("extensions", {}) for holder in holders for name in OMI_NAMES)


def _round_trip(canonical, source, tmp_path) -> Path:
    """import -> .blend -> export, both clean; the physics unchanged. The .blend written."""
    blend, glb = tmp_path / "scene.blend", tmp_path / "scene.glb"
    imported = blender_cli("import", source, "--out", blend)
    assert imported.returncode == 0, imported.stdout + imported.stderr
    assert lines(imported.stdout)[-1].startswith(f"{source} -> {blend}: ")
    assert ", 0 errors, " in lines(imported.stdout)[-1]
    exported = blender_cli("export", blend, "--out", glb)
    assert exported.returncode == 0, exported.stdout + exported.stderr
    assert lines(exported.stdout)[-1] == f"{blend} -> {glb}: 0 errors, 0 warnings"
    assert glb.read_bytes()[:4] == b"glTF"
    written = schema_check.load_gltf(glb)
    assert schema_check.omi_schema_errors(written) == []
    assert canonical.diff_physics(schema_check.load_gltf(source), written) == []
    return blend


@pytest.mark.parametrize("name", SPEC_ROUND_TRIPS)
def test_spec_examples_keep_their_physics(spec_dir, canonical, tmp_path, name):
    _round_trip(canonical, spec_dir / name, tmp_path)


@pytest.mark.parametrize(("name", "dynamic"), DATA_ROUND_TRIPS.items())
def test_fixture_files_keep_their_physics(canonical, opened, tmp_path, name, dynamic):
    """The project's own legacy GLB and current-revision file."""
    blend = _round_trip(canonical, DATA / name, tmp_path)
    body = opened(blend).objects[dynamic]
    assert body.omi_physics.use_motion and body.omi_physics.motion.motion_type == 'DYNAMIC'
    assert body.rigid_body is not None and body.rigid_body.type == 'ACTIVE'


def test_import_of_the_broken_file_reports_errors_and_keeps_the_rest(opened, tmp_path):
    blend = tmp_path / "broken.blend"
    result = blender_cli("import", BROKEN, "--out", blend)
    assert result.returncode == 1, result.stdout + result.stderr
    errors = [line for line in lines(result.stdout) if line.startswith(f"{BROKEN}: error ")]
    assert len(errors) == 3 and all(any(pointer in line for line in errors) for pointer in BROKEN_POINTERS)
    assert lines(result.stdout)[-1].endswith(", 3 errors, 0 warnings")
    survivor = opened(blend).objects["Survivor"]
    assert survivor.omi_physics.use_motion and survivor.omi_physics.motion.mass == pytest.approx(3.0)
    assert survivor.rigid_body is not None and survivor.rigid_body.mass == pytest.approx(3.0)


def test_import_and_validate_give_the_same_verdict(tmp_path):
    """The same checks run in both (schemas included): a shape -1 on a collider and on a trigger is named by
    both, with the same counts."""
    document = {
        "asset": {"version": "2.0"}, "extensionsUsed": ["OMI_physics_shape", "OMI_physics_body"],
        "extensions": {"OMI_physics_shape": {"shapes": [{"type": "box", "box": {}}]}},
        "nodes": [{"name": "A", "extensions": {"OMI_physics_body": {"collider": {"shape": -1}}}},
                  {"name": "B", "extensions": {"OMI_physics_body": {"trigger": {"shape": -1}}}},
                  {"name": "C", "extensions": {"OMI_physics_body": {"collider": {"shape": 0}}}}],
        "scenes": [{"nodes": [0, 1, 2]}], "scene": 0,
    }
    source = write_gltf(tmp_path / "minus_one.gltf", document)
    for path in (source, BROKEN, DATA / "current_scene.gltf"):
        validated = run_cli("validate", path, "--no-progress")
        imported = blender_cli("import", path, "--out", tmp_path / "x.blend")
        assert validated.returncode == imported.returncode, validated.stdout + imported.stdout
        verdict = lines(validated.stdout)[-1].removeprefix("1 file, ")
        assert lines(imported.stdout)[-1].endswith(verdict), imported.stdout
        assert all(line in imported.stdout for line in lines(validated.stdout)[:-1]), imported.stdout
    minus_one = [line for line in lines(run_cli("validate", source).stdout) if "-1 is less than the minimum" in line]
    assert [line.split(" ")[2] for line in minus_one] == ["/nodes/0/extensions/OMI_physics_body/collider/shape:",
                                                         "/nodes/1/extensions/OMI_physics_body/trigger/shape:"]


def test_import_options(spec_dir, opened, tmp_path):
    source = spec_dir / "OMI_physics_body/examples/basic/dynamic_box.gltf"
    for flags, physics, rigid_bodies in (((), True, True), (("--no-blender-rigid-bodies",), True, False),
                                          (("--no-rigid-bodies",), True, False), (("--no-physics",), False, False)):
        blend = tmp_path / f"scene{''.join(flags)}.blend"
        result = blender_cli("import", source, "--out", blend, *flags)
        assert result.returncode == 0, result.stdout + result.stderr
        scene = opened(blend)
        tagged = [obj for obj in scene.objects if obj.omi_physics.use_motion or obj.omi_physics.use_collider]
        assert bool(tagged) == physics, flags
        assert any(obj.rigid_body is not None for obj in scene.objects) == rigid_bodies, flags
        assert f"{len(tagged)} with OMI physics" in result.stdout


def test_export_options(omi_addon, clean_scene, tmp_path):
    """A cube with only a Blender rigid body is exported unless --no-untagged-rigid-bodies; --no-physics and
    --format work from the command line."""
    bpy.ops.mesh.primitive_cube_add()
    cube = bpy.context.active_object
    cube.name = "Crate"
    bpy.ops.rigidbody.world_add()
    bpy.context.scene.rigidbody_world.collection = bpy.data.collections.new("RigidBodies")
    bpy.context.scene.rigidbody_world.collection.objects.link(cube)
    bpy.context.view_layer.update()
    assert cube.rigid_body is not None and not cube.omi_physics.use_motion
    blend = tmp_path / "rigid.blend"
    bpy.ops.wm.save_as_mainfile(filepath=str(blend), copy=True)

    def export(*flags: str, out: str = "out.glb") -> dict:
        result = blender_cli("export", blend, "--out", tmp_path / out, *flags)
        assert result.returncode == 0, result.stdout + result.stderr
        return schema_check.load_gltf(tmp_path / out)

    default = export()
    crate = next(node for node in default["nodes"] if node.get("name") == "Crate")
    assert crate["extensions"]["OMI_physics_body"]["motion"]["type"] == "dynamic"
    assert not _has_omi(export("--no-untagged-rigid-bodies", out="untagged.glb"))
    assert not _has_omi(export("--no-rigid-bodies", out="old_name.glb"))  # the old name still works
    assert not _has_omi(export("--no-physics", out="none.glb"))
    as_text = export("--format", "gltf", "--gltf-option", "export_extras=true", out="text.gltf")
    assert _has_omi(as_text) and (tmp_path / "text.gltf").read_bytes().startswith(b"{")


def test_import_of_a_file_with_errors_exits_1(opened, tmp_path):
    document = {
        "asset": {"version": "2.0"}, "extensionsUsed": ["OMI_physics_shape", "OMI_physics_body"],
        "extensions": {"OMI_physics_shape": {"shapes": [{"type": "sphere", "sphere": {"radius": 0.5}}]}},
        "nodes": [{"name": "Ball", "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic"},
                                                                      "collider": {"shape": 3}}}}],
        "scenes": [{"nodes": [0]}], "scene": 0,
    }
    source, blend = write_gltf(tmp_path / "dangling.gltf", document), tmp_path / "dangling.blend"
    result = blender_cli("import", source, "--out", blend)
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"{source}: error /nodes/0/extensions/OMI_physics_body/collider/shape: shape 3 is out of range" \
        in result.stdout  # as `validate` says it
    assert "body has no collider shape" in result.stdout  # what the import itself noticed
    assert lines(result.stdout)[-1].endswith("1 error, 1 warning")
    scene = opened(blend)  # the rest of the file was still imported and saved
    assert scene.objects["Ball"].omi_physics.use_motion


def test_a_file_blender_refuses_exits_1(tmp_path):
    source = write_gltf(tmp_path / "version1.gltf", {"asset": {"version": "1.0"}})
    result = blender_cli("import", source, "--out", tmp_path / "x.blend")
    assert result.returncode == 1
    assert f"{source}: error: Blender could not import it: glTF version must be 2.0; got 1.0" in result.stdout
    assert "Traceback" not in result.stdout + result.stderr  # one sentence, not the importer's traceback
    assert not (tmp_path / "x.blend").exists()


def test_bad_input_exits_2(tmp_path):
    missing = blender_cli("import", tmp_path / "missing.gltf", "--out", tmp_path / "x.blend")
    assert missing.returncode == 2 and "cannot read: No such file or directory" in missing.stderr
    broken = tmp_path / "broken.gltf"
    broken.write_text('{"asset": ', encoding="utf-8")
    unreadable = blender_cli("import", broken, "--out", tmp_path / "x.blend")
    assert unreadable.returncode == 2 and "not valid JSON" in unreadable.stderr
    wrong_out = blender_cli("import", broken, "--out", tmp_path / "x.glb")
    assert wrong_out.returncode == 2 and "must name a .blend file" in wrong_out.stderr
    assert not (tmp_path / "x.blend").exists()

    no_blend = blender_cli("export", tmp_path / "missing.blend", "--out", tmp_path / "x.glb")
    assert no_blend.returncode == 2 and "cannot read" in no_blend.stderr
    garbage = tmp_path / "garbage.blend"
    garbage.write_bytes(b"not a blend file" * 10)
    not_blend = blender_cli("export", garbage, "--out", tmp_path / "x.glb")
    assert not_blend.returncode == 2 and f"{garbage}: error: cannot read" in not_blend.stderr
    mismatch = blender_cli("export", garbage, "--out", tmp_path / "x.glb", "--format", "gltf")
    assert mismatch.returncode == 2 and "does not fit --format gltf" in mismatch.stderr
    option = blender_cli("export", garbage, "--out", tmp_path / "x.glb", "--gltf-option", "no_equals_sign")
    assert option.returncode == 2 and "is not KEY=VALUE" in option.stderr
    assert not (tmp_path / "x.glb").exists()


def test_unknown_gltf_option_is_reported(spec_dir, tmp_path):
    source = spec_dir / "OMI_physics_body/examples/basic/dynamic_box.gltf"
    result = blender_cli("import", source, "--out", tmp_path / "x.blend", "--gltf-option", "no_such_option=1")
    assert result.returncode == 2 and "no_such_option" in result.stderr
    assert "Traceback" not in result.stdout + result.stderr and not (tmp_path / "x.blend").exists()


def test_a_failed_operator_is_said_in_one_sentence():
    """Blender's RuntimeError holds the importer's whole traceback and a Location line: the exception line
    is the sentence (Python's own exception types named, the importer's messages as they are)."""

    one_sentence = omi_core.cli.guard.one_sentence
    traceback = ("Error: Python: Traceback (most recent call last):\n  File \"mesh.py\", line 603, in f\n"
                 "    tris = np.empty((len(indices) - 2) * 3)\nValueError: negative dimensions are not allowed\n"
                 "Location: /x/bpy/ops.py:109\n")
    assert one_sentence(traceback) == \
        "negative dimensions are not allowed (ValueError)"
    assert one_sentence("Error: Python: Traceback...\nOSError: [Errno 28] No space left on device\n") == \
        "[Errno 28] No space left on device (OSError)"  # an export's failure: no word of an importer
    assert one_sentence("Error: Python: Traceback...\nImportError: Missing resource, 'a.bin'.\n") \
        == "Missing resource, 'a.bin'."
    assert one_sentence("Error: glTF version must be 2.0; got 1.0\n") == \
        "glTF version must be 2.0; got 1.0"


def test_files_of_the_omi_physics_engine_import_as_it_meant(opened, tmp_path):
    """tests/data/omi_physics, written by the PyPI engine omi_physics 0.4.0 (its make_files.py): the 1 m
    capsule of radius 0.5 stays a capsule, the joints in its body extension become joints, nothing warns;
    the export writes them in the spec's form with the same physics."""
    folder = REPO_ROOT / "tests" / "data" / "omi_physics"
    shapes, joints = folder / "omi_physics_shapes.gltf", folder / "omi_physics_joints.gltf"
    for source in (shapes, joints):
        result = blender_cli("import", source, "--out", tmp_path / f"{source.stem}.blend")
        assert result.returncode == 0 and lines(result.stdout)[-1].endswith("0 errors, 0 warnings"), result.stdout
    capsule = opened(tmp_path / "omi_physics_shapes.blend").objects["Capsule"].omi_physics.collider
    assert capsule.shape.shape_type == 'CAPSULE'
    assert (capsule.shape.height, capsule.shape.radius_top, capsule.shape.radius_bottom) == pytest.approx(
        (1.0, 0.5, 0.5))
    scene = opened(tmp_path / "omi_physics_joints.blend")
    constraints = [obj.rigid_body_constraint for obj in scene.objects if obj.rigid_body_constraint is not None]
    assert len(constraints) == 2
    assert {(c.object1.name, c.object2.name) for c in constraints} in (
        {("Door", "Frame"), ("Carriage", "Frame")}, {("Frame", "Door"), ("Frame", "Carriage")})
    exported = blender_cli("export", tmp_path / "omi_physics_joints.blend", "--out", tmp_path / "joints.glb")
    assert exported.returncode == 0 and lines(exported.stdout)[-1].endswith("0 errors, 0 warnings")
    written = schema_check.load_gltf(tmp_path / "joints.glb")
    assert schema_check.omi_schema_errors(written) == []
    source_limits = [[{key: value if key.endswith("Axes") else int(value) if value == int(value) else value
                       for key, value in limit.items() if value != []} for limit in joint["limits"]]
                     for joint in schema_check.load_gltf(joints)["extensions"]["OMI_physics_joint"]["physicsJoints"]]
    written_limits = [joint["limits"] for joint in written["extensions"]["OMI_physics_joint"]["physicsJoints"]]
    assert sorted(map(json.dumps, written_limits)) == sorted(map(json.dumps, source_limits))  # in any order
    # the empty axis lists read as none; the joint itself moves to a node of its own


def _keyed_friction_scene() -> dict:
    """A floor, a door and a post with three equal physics materials; the floor's friction is keyed."""
    data = struct.pack("<4f", 0.0, 1.0, 0.5, 0.9)
    uri = "data:application/octet-stream;base64," + base64.b64encode(data).decode()
    collider = [{"OMI_physics_body": {"collider": {"shape": 0, "physicsMaterial": index}}} for index in range(3)]
    pointer = "/extensions/OMI_physics_body/physicsMaterials/0/staticFriction"
    target = {"path": "pointer", "extensions": {"KHR_animation_pointer": {"pointer": pointer}}}
    return {
        "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0, 1, 2]}],
        "extensionsUsed": ["OMI_physics_shape", "OMI_physics_body", "KHR_animation_pointer"],
        "nodes": [{"name": name, "translation": [2.0 * index, 0.0, 0.0], "extensions": collider[index]}
                  for index, name in enumerate(("Floor", "Door", "Post"))],
        "extensions": {"OMI_physics_shape": {"shapes": [{"type": "box", "box": {"size": [1.0, 1.0, 1.0]}}]},
                       "OMI_physics_body": {"physicsMaterials": [{"staticFriction": 0.5, "dynamicFriction": 0.5}
                                                                 for _ in range(3)]}},
        "buffers": [{"byteLength": 16, "uri": uri}],
        "bufferViews": [{"buffer": 0, "byteOffset": offset, "byteLength": 8} for offset in (0, 8)],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 2, "type": "SCALAR", "min": [0.0],
                       "max": [1.0]}, {"bufferView": 1, "componentType": 5126, "count": 2, "type": "SCALAR"}],
        "animations": [{"name": "friction", "samplers": [{"input": 0, "output": 1}],
                        "channels": [{"sampler": 0, "target": target}]}],
    }


def test_reexport_keeps_an_animated_material_apart_from_equal_still_ones(tmp_path):
    source = write_gltf(tmp_path / "keyed_friction.gltf", _keyed_friction_scene())
    for round_trip in range(2):  # the file, then the add-on's own export of it
        blend, out = tmp_path / f"scene{round_trip}.blend", tmp_path / f"scene{round_trip}.gltf"
        assert blender_cli("import", source, "--out", blend).returncode == 0
        assert blender_cli("export", blend, "--out", out).returncode == 0
        written = schema_check.load_gltf(out)
        used = {node["name"]: node["extensions"]["OMI_physics_body"]["collider"].get("physicsMaterial")
                for node in written["nodes"]}
        [channel] = written["animations"][0]["channels"]
        animated = int(channel["target"]["extensions"]["KHR_animation_pointer"]["pointer"].split("/")[4])
        assert used["Floor"] == animated and animated not in (used["Door"], used["Post"]), used
        source = out


def test_export_for_both_dialects_does_not_warn_about_its_own_copies(tmp_path):
    """A static post holding a hinge (OMI's bare static motion, KHR's collider alone) and a cylinder of default
    height, exported with `--target both`: the two copies agree, so the export and `validate --strict` pass."""
    blend, out = tmp_path / "scene.blend", tmp_path / "both.glb"
    assert blender_cli("import", DATA / "current_scene.gltf", "--out", blend).returncode == 0
    exported = blender_cli("export", blend, "--out", out, "--target", "BOTH")
    assert exported.returncode == 0, exported.stdout + exported.stderr
    assert "carries both" not in exported.stdout + exported.stderr
    assert {"OMI_physics_body", "KHR_physics_rigid_bodies"} <= set(schema_check.load_gltf(out)["extensionsUsed"])
    validated = run_cli("validate", "--strict", out)
    assert validated.returncode == 0, validated.stdout
