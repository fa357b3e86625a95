"""A pendulum's period after the real importer, in Blender (Bullet) and in the second engine (Rapier), against
the physical pendulum's: a 1 kg ball of radius 0.1 m on a 2 m pin joint (KHR: three linear axes locked, the
joint frame held by the fixed reference frame), let go at 10 degrees, undamped.

T = 2 pi sqrt(I / (m g L)) with I = m L^2 + 2/5 m r^2, times 1 + theta0^2 / 16 for the amplitude: 2.844 s.
The period is timed from downward zero crossings over three swings, interpolated between frames. Measured:
Rapier 2.84 s; Blender at its world's defaults (10 solver iterations, 10 substeps) 2.887 s, 1.5 % slow, with
1.4 % of the amplitude lost (the joint is solved softly); with 50 iterations 2.847 s, with 40 substeps
2.847 s (0.1 %). So: Rapier 1 %, Blender at its defaults 2 % (the measured 1.5 % plus the interpolation),
Blender with 50 solver iterations 0.5 %. Amplitudes within 5 % (Blender's default damping, which the import
no longer sets, loses 20 % in these three swings).
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import import_support as support
import pytest

pytestmark = pytest.mark.usefixtures("omi_addon")

KHR_BODY = "KHR_physics_rigid_bodies"
KHR_SHAPES = "KHR_implicit_shapes"
ENGINE_DIR = Path(__file__).resolve().parents[2] / "engine"
LENGTH, RADIUS, G = 2.0, 0.1, 9.81
START = math.radians(10.0)
PIVOT = (0.0, 5.0, 0.0)
PERIOD = 2 * math.pi * math.sqrt((LENGTH ** 2 + 0.4 * RADIUS ** 2) / (G * LENGTH)) * (1 + START ** 2 / 16)
FPS = 24
SWINGS = 3


def pendulum(tmp_path: Path) -> Path:
    bob = [PIVOT[0] + LENGTH * math.sin(START), PIVOT[1] - LENGTH * math.cos(START), 0.0]
    nodes = [{"name": "Bob", "translation": bob, "children": [1], "extensions": {KHR_BODY: {
                 "motion": {"mass": 1}, "collider": {"geometry": {"shape": 0}}}}},
             {"name": "Pin", "translation": [PIVOT[i] - bob[i] for i in range(3)],
              "extensions": {KHR_BODY: {"joint": {"connectedNode": 2, "joint": 0}}}},
             {"name": "Pivot", "translation": list(PIVOT)}]
    doc = {"asset": {"version": "2.0"}, "extensionsUsed": [KHR_BODY, KHR_SHAPES],
           "extensions": {KHR_SHAPES: {"shapes": [{"type": "sphere", "sphere": {"radius": RADIUS}}]},
                          KHR_BODY: {"physicsJoints": [{"limits": [{"linearAxes": [0, 1, 2], "min": 0, "max": 0}]}]}},
           "nodes": nodes, "scenes": [{"nodes": [0, 2]}], "scene": 0}
    path = tmp_path / "pendulum.gltf"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def period_of(xs: list[float], step: float) -> tuple[float, float]:
    """(mean period from downward zero crossings, largest |x| in the last swing) of a sampled swing."""
    crossings = [i - 1 + xs[i - 1] / (xs[i - 1] - xs[i]) for i in range(1, len(xs)) if xs[i - 1] > 0 >= xs[i]]
    assert len(crossings) > SWINGS, crossings
    return (crossings[SWINGS] - crossings[0]) * step / SWINGS, max(abs(x) for x in xs[-int(PERIOD / step):])


@pytest.mark.parametrize(("iterations", "tolerance"), [(None, 0.02), (50, 0.005)])
def test_blender_swings_with_the_pendulum_period(tmp_path, iterations, tolerance):
    imported = support.import_gltf(pendulum(tmp_path))
    bob = imported.obj("Bob")
    if iterations is not None:
        support.bpy.context.scene.rigidbody_world.solver_iterations = iterations
    frames = int((SWINGS + 1.2) * PERIOD * FPS)
    support.step(1)
    scene = support.bpy.context.scene
    scene.frame_end = frames
    scene.rigidbody_world.point_cache.frame_end = frames
    xs = []
    for frame in range(1, frames + 1):
        scene.frame_set(frame)
        xs.append(bob.matrix_world.translation.x)
    period, amplitude = period_of(xs, 1 / FPS)
    assert period == pytest.approx(PERIOD, rel=tolerance), (period, PERIOD)
    assert amplitude == pytest.approx(LENGTH * math.sin(START), rel=0.05)


@pytest.mark.slow  # runs Rapier under Node.js (seconds)
def test_the_second_engine_swings_alike(tmp_path):
    sys.path.insert(0, str(ENGINE_DIR))
    import second_engine  # the engine helper lives beside the engine tests

    if second_engine.node_executable() is None or second_engine.install() is not None:
        pytest.skip(second_engine.unavailable_reason() or "no second engine")
    step = 1 / FPS
    times = [i * step for i in range(int((SWINGS + 1.2) * PERIOD * FPS))]
    result = second_engine.simulate(pendulum(tmp_path), times)
    xs = [result.position("Bob", t)[0] for t in times]
    period, amplitude = period_of(xs, step)
    assert period == pytest.approx(PERIOD, rel=0.01), (period, PERIOD)
    assert amplitude == pytest.approx(LENGTH * math.sin(START), rel=0.05)
