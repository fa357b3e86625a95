"""The demo (scripts/demo/demo.py): its scene, files and simulation checked in-process, without rendering;
the whole script once as a subprocess with --no-render; the contact sheet's composing and PNG writing.

The numbers are measured here again from the recorded positions and the imported settings, not taken
from the demo's own checks, and compared with what its summary says.
"""

from __future__ import annotations

import json
import math
import re
import subprocess
from pathlib import Path

import addon_loader
import bpy
import contact_sheet
import demo
import demo_animation
import demo_engine
import demo_frames
import demo_scene
import numpy as np
import omi_core.checks.canonical
import omi_core.checks.schema_khr
import omi_core.read.reader
import omi_core.write.dialect_convert
import pytest
import schema_check
from export_support import Exported
from mathutils import Vector
from present import present

pytestmark = pytest.mark.slow  # seconds per test (docs/development.md: the fast suite)

ROLES = demo_scene.ROLES
REST_SPEED = 0.05  # m/s
FRAMES = 120


@pytest.fixture(scope="module")
def outcome(omi_addon, tmp_path_factory) -> demo.DemoResult:
    """One run of the demo's pipeline without the render; the simulated scene stays loaded."""
    return demo.run(tmp_path_factory.mktemp("demo"), frames=FRAMES, render=False)


def track(outcome, name: str) -> np.ndarray:
    return outcome.recording.tracks[name].locations


def final_speed(outcome, name: str) -> float:
    locations = track(outcome, name)
    return float(np.linalg.norm(locations[-1] - locations[-2]) * outcome.recording.fps)


def test_both_files_are_valid_and_hold_the_same_physics(outcome, omi):
    canonical = omi_core.checks.canonical
    glb, gltf = (schema_check.load_gltf(outcome.out_dir / name) for name in ("demo.glb", "demo.gltf"))
    assert schema_check.omi_schema_errors(glb) == []
    assert schema_check.omi_schema_errors(gltf) == []
    assert omi_core.read.reader.read_document(glb).issues == []
    assert canonical.diff_physics(glb, gltf) == []
    assert (outcome.out_dir / "demo.bin").is_file()
    assert outcome.problems == []  # the Validate operator found nothing to complain about


def test_the_khr_file_is_valid_and_holds_the_same_physics(outcome, omi):
    reader, schema_khr = omi_core.read.reader, omi_core.checks.schema_khr
    khr = schema_check.load_gltf(outcome.out_dir / "demo_khr.glb")
    assert "KHR_physics_rigid_bodies" in khr["extensionsUsed"]
    if schema_khr.unavailable_reason() is None:
        assert [str(found) for found in schema_khr.khr_schema_errors(khr)] == []
    glb = schema_check.load_gltf(outcome.out_dir / "demo.glb")
    expected = omi_core.write.dialect_convert.convert(glb, "KHR").document
    assert reader.read_document(khr, "KHR").nodes == reader.read_document(expected, "KHR").nodes


def test_the_file_holds_what_the_operators_made(outcome, omi):
    doc = omi_core.read.reader.read_document(schema_check.load_gltf(outcome.out_dir / "demo.glb"))
    names = {index: node.get("name") for index, node in enumerate(outcome.exports[0].gltf["nodes"])}
    physics = {names[index]: node for index, node in doc.nodes.items()}
    dynamic = {name for name, node in physics.items() if node.motion and node.motion.type == "dynamic"}
    assert dynamic == {ROLES.ball, ROLES.door, ROLES.bob, *ROLES.boxes}
    assert {name for name, node in physics.items() if node.motion and node.motion.type == "static"} == \
        {ROLES.door_post, ROLES.beam}
    ball = present(physics[ROLES.ball].collider)
    assert present(ball.shape).type == "sphere"
    assert present(ball.shape).radius == pytest.approx(demo_scene.BALL_RADIUS, abs=1e-5)
    assert present(ball.physics_material).name == "Rubber"
    assert present(present(physics[ROLES.trigger].trigger).shape).size == pytest.approx(
        (demo_scene.TRIGGER_SIZE[0], demo_scene.TRIGGER_SIZE[2], demo_scene.TRIGGER_SIZE[1]))  # glTF axes
    assert physics[ROLES.trigger].collider is None
    hinge = present(physics[ROLES.door_joint].joint)
    assert names[hinge.connected_node] == ROLES.door_anchor
    ranged = [limit for limit in hinge.settings.limits if limit.min != limit.max]
    assert len(ranged) == 1 and ranged[0].angular_axes == (1,)  # Blender Z is glTF Y
    assert (ranged[0].min, ranged[0].max) == pytest.approx((-demo_scene.DOOR_SWING, demo_scene.DOOR_SWING))
    pin = present(physics[ROLES.pendulum_joint].joint)
    assert [(limit.linear_axes, limit.angular_axes, limit.min, limit.max) for limit in pin.settings.limits] == \
        [((0, 1, 2), (), 0.0, 0.0)]


def test_the_import_builds_rigid_bodies_and_constraints(outcome):
    scene = bpy.context.scene
    active = {obj.name for obj in scene.objects if obj.rigid_body and obj.rigid_body.type == 'ACTIVE'}
    assert active == {ROLES.ball, ROLES.door, ROLES.bob, *ROLES.boxes}
    assert scene.objects[ROLES.trigger].rigid_body is None  # triggers never collide
    kinds = sorted(obj.rigid_body_constraint.type for obj in scene.objects if obj.rigid_body_constraint)
    assert kinds == ['HINGE', 'MOTOR', 'POINT']  # the door's hinge has a motor
    assert outcome.blender["hinge constraints"] == outcome.blender["motor constraints"] == 1
    assert outcome.blender["point constraints"] == 1


def test_the_stack_stands_and_comes_to_rest(outcome):
    for below, above in zip(ROLES.boxes, ROLES.boxes[1:], strict=False):
        gap = track(outcome, above)[-1] - track(outcome, below)[-1]
        assert gap[2] == pytest.approx(demo_scene.STACK_BOX, abs=0.01)
        assert np.hypot(gap[0], gap[1]) < 0.02
    for name in ROLES.boxes:
        assert np.linalg.norm(track(outcome, name)[-1] - track(outcome, name)[0]) < 0.05
        assert final_speed(outcome, name) < REST_SPEED


def test_the_ball_rolls_down_the_ramp_through_the_door(outcome):
    ball = track(outcome, ROLES.ball)
    start, end = ball[0], ball[-1]
    assert start[2] > 1.0 and start[0] < demo_scene.RAMP_FOOT_X
    assert end[0] > demo_scene.DOOR_X + 1.0  # past the door it pushed open
    assert end[2] == pytest.approx(demo_scene.BALL_RADIUS, abs=0.02)  # on the floor
    assert np.all(np.diff(ball[:40, 2]) <= 1e-3)  # down the slope, never up
    turned = outcome.measurements.ball.turned
    travelled = float(np.sum(np.linalg.norm(np.diff(ball, axis=0), axis=1)))
    assert turned * demo_scene.BALL_RADIUS == pytest.approx(travelled, rel=0.2)  # rolling, not sliding


def test_the_trigger_zone_overlaps_the_ball_on_its_way(outcome):
    trigger = bpy.context.scene.objects[ROLES.trigger]
    half = np.array(trigger.omi_physics.trigger.shape.size) / 2
    center = np.array(trigger.matrix_world.translation)
    ball = track(outcome, ROLES.ball)
    closest = np.clip(ball - center, -half, half)
    overlapping = np.flatnonzero(np.linalg.norm(ball - center - closest, axis=1) <= demo_scene.BALL_RADIUS)
    assert overlapping.size >= 3
    assert np.all(np.diff(overlapping) == 1)  # one pass through
    assert list(overlapping) == outcome.measurements.trigger_overlaps
    summary = outcome.summary.read_text()
    assert f"overlap from frame {overlapping[0] + 1} to {overlapping[-1] + 1}" in summary


def hinge_angles(outcome) -> np.ndarray:
    """The door joint frame's turn about the vertical relative to the post's anchor frame, per frame."""
    joint, anchor = outcome.recording.tracks[ROLES.door_joint], outcome.recording.tracks[ROLES.door_anchor]
    angles = []
    for index in range(outcome.recording.count):
        relative = anchor.rotation(index).inverted() @ joint.rotation(index)
        axis_turned = relative @ Vector((1.0, 0.0, 0.0))
        assert (relative @ Vector((0.0, 0.0, 1.0))).z > math.cos(math.radians(2.0))  # stays on its axis
        angles.append(math.atan2(axis_turned.y, axis_turned.x))
    return np.array(angles)


def test_the_door_turns_within_its_hinge_limits(outcome):
    angles = hinge_angles(outcome)
    joint = bpy.context.scene.objects[ROLES.door_joint].omi_physics.joint
    (limit,) = [limit for limit in joint.limits if limit.kind == 'ANGULAR' and limit.min_angular != limit.max_angular]
    tolerance = math.radians(2.0)
    assert limit.min_angular - tolerance <= angles.min() and angles.max() <= limit.max_angular + tolerance
    assert np.max(np.abs(angles)) > math.radians(30.0)  # its motor swung it open
    hinge_points = track(outcome, ROLES.door_joint) - track(outcome, ROLES.door_anchor)
    assert np.max(np.linalg.norm(hinge_points, axis=1)) < 0.02
    assert np.allclose(outcome.measurements.door.angles, angles, atol=1e-4)
    reported = f"angle {math.degrees(angles.min()):.1f} to {math.degrees(angles.max()):.1f} deg"
    assert reported in outcome.summary.read_text()


def test_the_door_motor_is_keyed_in_every_file_and_plays(outcome):
    """The keyed target velocity: a STEP pointer channel in the .glb, the .gltf and the KHR .glb, keyframes
    on the imported setting and on Blender's motor, and the door's turn following the held velocities."""
    keys = demo_animation.DOOR_KEYS
    fps = outcome.recording.fps
    for name, extension in (("demo.glb", "OMI_physics_joint"), ("demo.gltf", "OMI_physics_joint"),
                            ("demo_khr.glb", "KHR_physics_rigid_bodies")):
        exported = Exported(outcome.out_dir / name, [])
        [animation] = exported.gltf["animations"]
        [channel] = animation["channels"]
        pointer = channel["target"]["extensions"]["KHR_animation_pointer"]["pointer"]
        assert pointer == f"/extensions/{extension}/physicsJoints/0/drives/0/velocityTarget"
        assert exported.gltf["extensions"][extension]["physicsJoints"][0]["drives"][0]["velocityTarget"] == keys[0][1]
        sampler = animation["samplers"][channel["sampler"]]
        assert sampler["interpolation"] == "STEP"
        assert exported.accessor(sampler["input"]) == pytest.approx([frame / fps for frame, _ in keys], abs=1e-5)
        assert exported.accessor(sampler["output"]) == pytest.approx([velocity for _, velocity in keys])

    curves = addon_loader.module("io.blender.animation.curves")
    scene = bpy.context.scene
    joint = scene.objects[ROLES.door_joint]
    [setting] = curves.fcurves(joint)
    assert setting.data_path == "omi_physics.joint.drives[0].velocity_target"
    assert [value for point in setting.keyframe_points for value in point.co] == \
        pytest.approx([value for key in keys for value in key])
    [motor] = [obj for obj in scene.objects if obj.rigid_body_constraint and obj.rigid_body_constraint.type == 'MOTOR']
    [blender] = curves.fcurves(motor)
    assert blender.data_path == "rigid_body_constraint.motor_ang_target_velocity"
    assert [point.co[0] for point in blender.keyframe_points] == [frame for frame, _ in keys]
    assert [abs(point.co[1]) for point in blender.keyframe_points] == pytest.approx([abs(v) for _, v in keys])

    # The drive turns the post's anchor relative to the door's joint: the joint turns the other way.
    angles = hinge_angles(outcome)
    assert angles[11 - 1] == pytest.approx(-keys[0][1] * 10 / fps, abs=math.radians(5.0))  # opening
    assert angles[41 - 1] == pytest.approx(-demo_scene.DOOR_SWING, abs=math.radians(3.0))  # open at its limit
    assert angles[100 - 1] == pytest.approx(-demo_scene.DOOR_SWING - keys[2][1] * 10 / fps,
                                            abs=math.radians(5.0))  # closing
    assert angles[-1] == pytest.approx(0.0, abs=math.radians(2.0))  # closed again behind the ball
    assert "[PASS] door motor plays its keyed target velocity" in outcome.summary.read_text()


def test_the_pendulum_swings_on_its_pin(outcome):
    pivot = track(outcome, ROLES.pendulum_anchor)
    offsets = track(outcome, ROLES.bob) - pivot
    lengths = np.linalg.norm(offsets, axis=1)
    assert lengths.max() - lengths.min() < 0.02
    assert lengths.mean() == pytest.approx(demo_scene.PENDULUM_LENGTH, abs=0.02)
    swing = np.degrees(np.arctan2(offsets[:, 0], -offsets[:, 2]))
    start = math.degrees(demo_scene.PENDULUM_START)
    assert swing[0] == pytest.approx(start, abs=0.5)
    assert swing.min() < -0.8 * start  # over to the other side
    assert np.abs(swing).max() < start + 2.0  # never higher than it started
    assert np.all(np.abs(offsets[:, 1]) < 0.02)  # in its plane
    assert np.max(np.linalg.norm(track(outcome, ROLES.pendulum_joint) - pivot, axis=1)) < 0.02


def test_the_summary_reports_every_check(outcome):
    summary = outcome.summary.read_text()
    assert summary.count("[PASS]") == len(outcome.measurements.checks) == 6
    assert "[FAIL]" not in summary and "every check passed" in summary
    schemas = "schema-valid" if schema_check.schemas_available() else "schemas not checked (no jsonschema)"
    assert summary.count(f"): {schemas}, 0 reader issues") == 3  # the .glb, the .gltf and the KHR .glb line
    assert "same physics in every file: yes" in summary
    for name in (*ROLES.boxes, ROLES.ball, ROLES.door):
        assert f"  {name}: (" in summary
    assert outcome.sheet is None and not (outcome.out_dir / "contact_sheet.png").exists()


def test_the_script_runs_and_says_where_its_outputs_are(tmp_path):
    script = Path(demo.__file__)
    completed = subprocess.run(addon_loader.script_command(script, "--no-render", "--out", tmp_path),
                               check=False, capture_output=True, text=True, timeout=300)
    assert completed.returncode == 0, completed.stdout[-3000:] + completed.stderr[-3000:]
    for name in ("summary.txt", "demo.glb", "demo.gltf", demo.LOG_FILE):
        assert (tmp_path / name).is_file()
        assert str(tmp_path / name) in completed.stdout
    assert "every check passed" in (tmp_path / "summary.txt").read_text()
    # the console holds what the user needs: the summary and where things are; the glTF log goes to a file
    summary = (tmp_path / "summary.txt").read_text(encoding="utf-8").strip().splitlines()
    assert "| INFO:" not in completed.stdout + completed.stderr and completed.stderr == ""
    assert len(completed.stdout.strip().splitlines()) <= len(summary) + 12
    assert "| INFO: " in (tmp_path / demo.LOG_FILE).read_text(encoding="utf-8")


def test_the_readme_contact_sheet_shows_the_frames_the_demo_renders(outcome):
    """docs/contact_sheet.png is the demo's sheet, copied with its frame list (scripts/demo/demo.py --update-docs);
    when the demo's key frames move, this fails until the picture is rendered and copied again."""
    written = json.loads((outcome.out_dir / demo.FRAMES_FILE).read_text(encoding="utf-8"))
    committed = json.loads((demo.DOCS_DIR / demo.FRAMES_FILE).read_text(encoding="utf-8"))
    assert written == committed
    assert len(written["frames"]) == demo_frames.SHEET_FRAMES
    sheet = (demo.DOCS_DIR / "contact_sheet.png").stat()
    assert sheet.st_size > 0


def test_the_contact_sheet_puts_frames_in_reading_order(omi_addon, tmp_path):
    height, width = 6, 8
    tiles = [np.full((height, width, 4), (index / 10, 0.5, 1.0 - index / 10, 1.0), np.float32) for index in range(5)]
    sheet = contact_sheet.compose(tiles, columns=3, gap=2)
    assert sheet.shape == (2 * height + 3 * 2, 3 * width + 4 * 2, 4)
    top = sheet.shape[0] - 2  # rows run bottom to top, as in Blender
    assert np.allclose(sheet[top - 1, 2], tiles[0][0, 0])  # first frame: top left
    assert np.allclose(sheet[top - 1, 2 + 2 * (width + 2)], tiles[2][0, 0])  # third: top right
    assert np.allclose(sheet[2, 2 + width + 2], tiles[4][0, 0])  # fifth: bottom middle
    assert np.allclose(sheet[2, 2 + 2 * (width + 2)], contact_sheet.GAP_COLOUR)  # no sixth frame

    path = tmp_path / "sheet.png"
    contact_sheet.save_png(sheet, path)
    image = bpy.data.images.load(str(path))
    try:
        assert tuple(image.size) == (sheet.shape[1], sheet.shape[0])
        pixels = np.empty(sheet.size, np.float32)
        image.pixels.foreach_get(pixels)
        assert np.allclose(pixels.reshape(sheet.shape), sheet, atol=1 / 255)
    finally:
        bpy.data.images.remove(image)


def test_importing_the_clean_demo_file_reports_notes_but_no_problem(outcome, monkeypatch):
    """What the import dialog reports (the glTF log's popup buffer, read before the importer flushes it):
    the note about what Blender's rigid bodies cannot express is info, and no 'N problem(s)' pops up."""
    try:  # the glTF add-on is importable once bpy is
        from io_scene_gltf2.io.com import debug
    except ImportError:  # Blender 4.2's name for the module
        from io_scene_gltf2.io.com import gltf2_io_debug as debug

    reported: list[tuple[str, str]] = []
    flush = debug.Log.flush

    def record_then_flush(log) -> None:
        reported.extend(log.messages())
        flush(log)

    monkeypatch.setattr(debug.Log, "flush", record_then_flush)
    bpy.ops.wm.read_homefile(use_empty=True)
    assert bpy.ops.import_scene.gltf(filepath=str(outcome.exports[0].path)) == {'FINISHED'}
    ours = [(kind, text) for kind, text in reported if text.startswith("OMI physics: ")]
    assert [kind for kind, text in ours if "cannot express" in text] == ['INFO']
    assert [text for kind, text in ours if kind != 'INFO'] == []


def test_the_demo_files_convert_with_their_door_channel(outcome, tmp_path):
    """convert moves the door motor's KHR_animation_pointer channel with the value (issue 25): the converted
    files validate clean in both directions, and each channel points at its dialect's drive."""
    from cli_support import run_cli

    for source, dialect in (("demo.glb", "KHR"), ("demo_khr.glb", "OMI")):
        out = tmp_path / f"{dialect}.glb"
        assert run_cli("convert", outcome.out_dir / source, "--to", dialect, "--out", out).returncode == 0
        checked = run_cli("validate", out, "--no-progress")
        assert checked.returncode == 0 and "does not exist" not in checked.stdout, checked.stdout
        channels = [channel["target"]["extensions"]["KHR_animation_pointer"]["pointer"]
                    for animation in schema_check.load_gltf(out)["animations"] for channel in animation["channels"]
                    if channel["target"].get("path") == "pointer"]
        extension = "KHR_physics_rigid_bodies" if dialect == "KHR" else "OMI_physics_joint"
        assert channels and all(pointer.startswith(f"/extensions/{extension}/physicsJoints/") for pointer in channels)


def test_the_summary_says_each_outcome_once_in_words_that_fit(outcome):
    """No count with the wrong number ("1 hinge constraints"), no negative zero, the objects the import made
    beyond the file's nodes explained, and each second-engine outcome once: the KHR file that ends as the
    OMI file does gets one line, and every gap over 5 cm is named accepted or not explained."""
    summary = outcome.summary.read_text(encoding="utf-8")
    assert "-0.00" not in summary
    assert not re.search(r"\b1 [\w ]+?(constraints|bodies|objects|nodes)\b", summary)
    nodes, made = len(outcome.exports[0].gltf["nodes"]), len(outcome.generated)
    assert outcome.blender["objects"] == nodes + made
    if made:
        explained = f"{nodes + made} objects for {nodes} nodes: one per node, and {made} the rigid-body build made"
        assert explained in summary
    runs = [run for run in outcome.engine_runs if run.unavailable is None]
    if not runs:
        pytest.skip("no second engine here (Node.js)")
    assert summary.count("final position, Blender's beside it") == 1
    assert "demo_khr.glb in rapier" in summary and "ends as demo.glb does (every body within 1 mm)" in summary
    gaps = {name for run in runs for name in run.reasons}
    labelled = re.findall(r"^      (accepted|not explained): ", summary, re.M)
    assert len(labelled) == len(runs[0].reasons)
    assert demo_engine.verdict(outcome.engine_runs) in summary.splitlines()[-1]
    assert gaps <= {name for run in runs for name in run.accepted}  # the scene leaves no unexplained gap


def test_each_contact_sheet_frame_names_what_happens_in_it(outcome):
    listed = json.loads((outcome.out_dir / demo.FRAMES_FILE).read_text(encoding="utf-8"))
    recording, found = outcome.recording, outcome.measurements
    indices = [frame - recording.first_frame for frame in listed["frames"]]
    captions = dict(zip(indices, listed["captions"], strict=True))
    assert len(captions) == demo_frames.SHEET_FRAMES
    for index, caption in captions.items():
        assert caption.startswith(f"{recording.seconds(index):.1f} s: "), caption
        assert len(caption) <= 64, caption  # one line on a 640-pixel frame (16 px type wraps at about 66)
    ball = track(outcome, ROLES.ball)
    (inside,) = [index for index, caption in captions.items() if "trigger" in caption]
    assert inside in found.trigger_overlaps
    (leaving,) = [index for index, caption in captions.items() if "leaves the ramp" in caption]
    assert ball[leaving - 1][0] <= demo_scene.RAMP_FOOT_X < ball[leaving][0]
    (opening,) = [index for index, caption in captions.items() if "swings the door open" in caption]
    assert abs(found.door.angles[opening]) > demo_frames.DOOR_OPENING >= abs(found.door.angles[opening - 1])
