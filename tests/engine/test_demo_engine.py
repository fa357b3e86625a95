"""The demo's second-engine report (scripts/demo/demo_engine.py) on the demo's own scene: every body gets a
row with both engines' final positions, the resting stack ends where Blender's does, the keyed door swings
in both, and every gap over 5 cm comes with its measured reason."""

from __future__ import annotations

import math

import bpy
import demo_engine
import demo_measure
import demo_scene
import import_support
import pytest

pytestmark = pytest.mark.usefixtures("omi_addon")


def test_demo_scene_in_both_engines(engine, tmp_path):
    demo_scene.build_scene()
    path = tmp_path / "demo.glb"
    assert bpy.ops.export_scene.gltf(filepath=str(path), export_format='GLB') == {'FINISHED'}
    import_support.import_gltf(path)
    recording = demo_measure.simulate(bpy.context.scene, 72)
    roles = demo_scene.ROLES
    bodies = [roles.ball, roles.door, *roles.boxes]
    (run,) = demo_engine.compare([path], recording, bodies)
    assert run.unavailable is None and run.engine.startswith("rapier")
    assert run.seconds == pytest.approx(71 / 24)
    assert [row[0] for row in run.rows] == bodies
    for name, blender, other in run.rows:
        if name in roles.boxes:  # a stack at rest: the same place in both (3 cm, as test_engine_vs_blender)
            assert math.dist(blender, other) < 0.03, name
    assert run.triggers == {roles.trigger: [roles.ball]}  # the ball rolls through the trigger zone in Rapier too
    rows = {name: math.dist(blender, other) for name, blender, other in run.rows}
    assert rows[roles.door] < demo_engine.GAP  # Rapier plays the door's keyed motor as Blender does
    assert set(run.reasons) == {name for name, apart in rows.items() if apart > demo_engine.GAP}
    text = "\n".join(demo_engine.summary_lines([run]))
    assert "demo.glb in rapier3d-compat" in text and f"{roles.ball}:" in text
