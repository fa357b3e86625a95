"""The main job on a built-in scene: author OMI physics, export it, import it back, simulate, show it.

1. build a small physics scene through the add-on's own operators (demo_scene.py), and key the door's
   motor so it swings the door open and closed (demo_animation.py);
2. export it as .glb and .gltf with OMI physics and as .glb with KHR physics, and check each file (schemas,
   the reader's rules, the same physics in all three);
3. import the .glb into a fresh scene, which builds Blender rigid bodies and constraints (and keys the motor);
4. simulate, and measure what should happen (demo_measure.py, the door's keys in demo_animation.py);
   simulate both .glb files (OMI, KHR) in a second physics engine, Rapier, read by tests/engine's own
   loader (demo_engine.py);
5. render a contact sheet of a few frames with Cycles on the CPU (contact_sheet.py) and write a
   short text summary (demo_summary.py).

    .venv/bin/python scripts/demo/demo.py [--out DIR] [--frames N] [--no-render] [--update-docs]

The console shows the summary and where the outputs are; everything Blender and its glTF add-on print
goes to `blender_log.txt` in the output folder. `contact_sheet_frames.json` lists the frames the contact
sheet shows (written with --no-render too); `--update-docs` copies the sheet and that list into docs/,
which tests/blender/scenarios/test_demo.py compares with what the demo renders now.

Exit status 0 when every check of the summary passed, 1 otherwise.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import shutil
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import bpy
from mathutils import Vector

SCRIPTS_DIR = Path(__file__).resolve().parent
REPO_ROOT = SCRIPTS_DIR.parents[1]
sys.path.insert(0, str(SCRIPTS_DIR))
sys.path.insert(0, str(REPO_ROOT / "tests"))  # schema_check (never the repo root: io/ would shadow io)

import addon_loader  # noqa: E402
import contact_sheet  # noqa: E402
import demo_animation  # noqa: E402
import demo_engine  # noqa: E402
import demo_frames  # noqa: E402
import demo_measure as measure  # noqa: E402
import demo_scene  # noqa: E402
import demo_summary  # noqa: E402
import schema_check  # noqa: E402
from demo_result import DemoResult, ExportCheck  # noqa: E402

OUT_DIR = REPO_ROOT / "out" / "demo"
DOCS_DIR = REPO_ROOT / "docs"
FRAMES_FILE = "contact_sheet_frames.json"  # the frames the contact sheet shows, beside it
LOG_FILE = "blender_log.txt"
FRAMES = 120
CAMERA_EYE = Vector((5.5, -7.5, 4.0))
CAMERA_TARGET = Vector((-0.6, 0.7, 1.0))
CAMERA_LENS = 26.0
LOG_NAMES = ("glTFImporter", "glTFImporter_errors")  # the glTF add-on logs exports here too
LOG_PREFIX = "OMI physics"


@contextlib.contextmanager
def timed(result: DemoResult, step: str) -> Iterator[None]:
    start = time.perf_counter()
    yield
    result.timings[step] = time.perf_counter() - start


@contextlib.contextmanager
def omi_log() -> Iterator[list[str]]:
    """The add-on's messages logged during an export or import (everything it drops or approximates)."""
    messages: list[str] = []
    handler = logging.Handler(level=logging.INFO)
    handler.emit = lambda record: messages.append(record.getMessage())  # type: ignore[method-assign]  # the handler collects instead
    loggers = [logging.getLogger(name) for name in LOG_NAMES]
    for logger in loggers:
        logger.addHandler(handler)
    try:
        yield messages
    finally:
        for logger in loggers:
            logger.removeHandler(handler)
        messages[:] = [message for message in messages if message.startswith(LOG_PREFIX)]


def export(out_dir: Path, result: DemoResult) -> None:
    """The authored scene as .glb and as .gltf (+ .bin), each checked."""
    reader = addon_loader.module("io.omi.read.reader")
    canonical = addon_loader.module("io.omi.checks.canonical")
    for name, file_format in (("demo.glb", 'GLB'), ("demo.gltf", 'GLTF_SEPARATE')):
        path = out_dir / name
        with omi_log() as messages:
            bpy.ops.export_scene.gltf(filepath=str(path), export_format=file_format)
        result.export_messages += messages
        gltf = schema_check.load_gltf(path)
        errors = schema_check.omi_schema_errors(gltf) if schema_check.schemas_available() else None
        issues = [f"{issue.pointer}: {issue.message}" for issue in reader.read_document(gltf).issues]
        result.exports.append(ExportCheck(path, gltf, errors, issues))
    result.same_physics = canonical.diff_physics(result.exports[0].gltf, result.exports[1].gltf)
    result.same_physics += export_khr(out_dir, result, reader)


def export_khr(out_dir: Path, result: DemoResult, reader: Any) -> list[str]:
    """The scene once more in the KHR dialect (KHR_physics_rigid_bodies + KHR_implicit_shapes), checked against
    the KHR schemas; its physics must be the .glb's re-spelled (what KHR cannot hold is in the export log)."""
    convert = addon_loader.module("io.omi.write.dialect_convert")
    schema_khr = addon_loader.module("io.omi.checks.schema_khr")
    options = bpy.context.scene.omi_physics
    path = out_dir / "demo_khr.glb"
    options.export_dialect = 'KHR'
    try:
        with omi_log() as messages:
            bpy.ops.export_scene.gltf(filepath=str(path), export_format='GLB')
    finally:
        options.export_dialect = 'OMI'
    result.export_messages += messages
    gltf = schema_check.load_gltf(path)
    errors = None if schema_khr.unavailable_reason() else [str(found) for found in schema_khr.khr_schema_errors(gltf)]
    read = reader.read_document(gltf, "KHR")
    issues = [f"{issue.pointer}: {issue.message}" for issue in read.issues if issue.severity != "info"]
    result.exports.append(ExportCheck(path, gltf, errors, issues))
    expected = reader.read_document(convert.convert(result.exports[0].gltf, "KHR").document, "KHR").nodes
    return [] if read.nodes == expected else [f"{path.name}: not the physics of {result.exports[0].path.name}"]


def import_fresh(path: Path, result: DemoResult) -> bpy.types.Scene:
    """A fresh, empty scene with the file imported: settings, Blender rigid bodies and constraints."""
    bpy.ops.wm.read_homefile(use_empty=True)
    with omi_log() as messages:
        bpy.ops.import_scene.gltf(filepath=str(path))
    result.import_messages = messages
    scene = bpy.context.scene
    objects = list(scene.objects)
    markers = addon_loader.module("io.blender.tables.markers")
    result.generated = {obj.name: "constraint object" if obj.rigid_body_constraint and not obj.rigid_body
                        else "rigid body" if obj.rigid_body else "helper object"
                        for obj in sorted(objects, key=lambda obj: obj.name) if markers.is_generated(obj)}
    result.blender = {
        "objects": len(objects),
        "active rigid bodies": sum(obj.rigid_body is not None and obj.rigid_body.type == 'ACTIVE' for obj in objects),
        "passive rigid bodies": sum(obj.rigid_body is not None and obj.rigid_body.type == 'PASSIVE'
                                    for obj in objects),
        **{f"{kind.lower()} constraints": sum(obj.rigid_body_constraint is not None
                                             and obj.rigid_body_constraint.type == kind for obj in objects)
           for kind in sorted({obj.rigid_body_constraint.type for obj in objects if obj.rigid_body_constraint})},
    }
    return scene


def trigger_detects_ball(scene: bpy.types.Scene) -> bool:
    """Whether the imported trigger's collision filter and the ball's accept each other (OMI's rule)."""
    library = addon_loader.module("properties.library")
    filters = addon_loader.module("io.blender.builder.collision_filters")
    roles = demo_scene.ROLES

    def filter_of(part) -> object:
        entry = library.find_filter(scene, part.collision_filter)
        return library.filter_to_model(entry) if entry is not None else None

    ball, trigger = scene.objects[roles.ball].omi_physics, scene.objects[roles.trigger].omi_physics
    return filters.collide(filter_of(ball.collider), filter_of(trigger.trigger))


def measure_scene(scene: bpy.types.Scene, recording: measure.Recording,
                  exports: list[ExportCheck]) -> measure.Measurements:
    """Every promise of the demo, measured on the imported, simulated scene."""
    roles = demo_scene.ROLES
    found = measure.Measurements()
    stack, found.resting = measure.stack_check(recording, list(roles.boxes))
    radius = scene.objects[roles.ball].omi_physics.collider.shape.radius
    found.ball = measure.ball_run(recording, roles.ball, radius)
    found.resting.append(measure.resting(recording, roles.ball))
    found.trigger_overlaps = measure.trigger_frames(recording, roles.ball, radius, scene.objects[roles.trigger])
    found.door = measure.hinge_run(recording, scene.objects[roles.door_joint], roles.door_anchor, axis=2)
    found.resting.append(measure.resting(recording, roles.door))
    found.pendulum = measure.pendulum_run(recording, roles.bob, roles.pendulum_joint, roles.pendulum_anchor)
    files = [check.path for check in exports]
    found.door_animation = demo_animation.door_animation(files, scene, found.door, recording.fps)
    found.checks = [
        stack,
        measure.ball_check(found.ball, demo_scene.RAMP_FOOT_X),
        measure.trigger_check(recording, found.trigger_overlaps, trigger_detects_ball(scene)),
        measure.hinge_check(found.door),
        measure.pendulum_check(found.pendulum),
        demo_animation.door_animation_check(found.door_animation),
    ]
    return found


def run(out_dir: Path = OUT_DIR, *, frames: int = FRAMES, render: bool = True) -> DemoResult:
    """The whole demo; the add-on must be enabled. Writes into `out_dir`."""
    out_dir.mkdir(parents=True, exist_ok=True)
    result = DemoResult(out_dir)
    with timed(result, "build the scene with the add-on's operators"):
        demo_scene.build_scene()
        demo_animation.animate_door()
        result.problems = demo_scene.validation_problems()
    with timed(result, "export .glb and .gltf (OMI) and .glb (KHR), check each"):
        export(out_dir, result)
    with timed(result, "import the .glb into a fresh scene"):
        scene = import_fresh(out_dir / "demo.glb", result)
    if render:
        # Before simulating: adding objects later would reset the rigid body cache.
        contact_sheet.stage(scene, CAMERA_TARGET, CAMERA_EYE, CAMERA_LENS)
    with timed(result, f"simulate {frames} frames"):
        result.recording = measure.simulate(scene, frames)
    with timed(result, "measure"):
        result.measurements = measure_scene(scene, result.recording, result.exports)
    with timed(result, "simulate the .glb files in a second engine (Rapier)"):
        roles = demo_scene.ROLES
        files = [check.path for check in result.exports if check.path.suffix == ".glb"]
        bodies = [roles.ball, roles.door, roles.bob, *roles.boxes]
        result.engine_runs = demo_engine.compare(files, result.recording, bodies)
    shown = demo_frames.key_frames(result)
    listed = {"frames": [key.frame for key in shown], "captions": [key.caption for key in shown]}
    (out_dir / FRAMES_FILE).write_text(json.dumps(listed, indent=1) + "\n", encoding="utf-8")
    if render:
        with timed(result, "render the contact sheet (Cycles, CPU)"):
            result.sheet = contact_sheet.contact_sheet(
                scene, listed["frames"], out_dir / "contact_sheet.png", captions=listed["captions"],
                before_render=demo_frames.trigger_glow(scene, result))
    result.summary = out_dir / "summary.txt"
    result.summary.write_text(demo_summary.text(result), encoding="utf-8")
    return result


@contextlib.contextmanager
def console_to(log_path: Path) -> Iterator[None]:
    """Everything printed meanwhile (Blender's C code, the glTF add-on's INFO log) goes to `log_path`, at
    the file-descriptor level; if the demo fails, the end of that log is shown before the error."""
    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(1), os.dup(2)]
    with open(log_path, "wb") as log:
        os.dup2(log.fileno(), 1)
        os.dup2(log.fileno(), 2)
        failed = True
        try:
            yield
            failed = False
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            for descriptor, copy in zip((1, 2), saved, strict=True):
                os.dup2(copy, descriptor)
                os.close(copy)
            if failed:
                tail = log_path.read_text(encoding="utf-8", errors="replace").splitlines()[-40:]
                print("\n".join(["the demo failed; the end of its log:", *tail]), file=sys.stderr)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT_DIR, help="output folder (default: out/demo)")
    parser.add_argument("--frames", type=int, default=FRAMES, help="frames to simulate (24 per second)")
    parser.add_argument("--no-render", action="store_true", help="skip the Cycles contact sheet")
    parser.add_argument("--update-docs", action="store_true",
                        help="copy the contact sheet and its frame list into docs/ (the README's picture)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    out_dir = args.out.resolve()
    out_dir.mkdir(parents=True, exist_ok=True)
    with console_to(out_dir / LOG_FILE):
        addon_loader.enable()
        result = run(out_dir, frames=args.frames, render=not args.no_render)
    print(result.summary.read_text(encoding="utf-8"))
    if args.update_docs and result.sheet is not None:
        shutil.copyfile(result.sheet, DOCS_DIR / "contact_sheet.png")
        shutil.copyfile(out_dir / FRAMES_FILE, DOCS_DIR / FRAMES_FILE)
        print(f"updated {DOCS_DIR / 'contact_sheet.png'} and {DOCS_DIR / FRAMES_FILE}")
    print(f"demo finished in {time.perf_counter() - started:.1f} s (Blender {bpy.app.version_string}); outputs:")
    for path in (result.sheet, result.summary, *(check.path for check in result.exports), out_dir / LOG_FILE):
        if path is not None:
            print(f"  {path}")
    return 0 if result.passed else 1


if __name__ == "__main__":
    status = main(sys.argv[1:])
    # bpy 4.2 crashes at interpreter exit after a glTF export with an add-on enabled: leave directly.
    addon_loader.remove_repository_dirs()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)
