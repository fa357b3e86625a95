"""The second engine's loader on hand-written KHR files: kinematic motion, collision filters with
notCollideWithSystems, compound triggers, joint limits and drives with the spec's sign, and the four
material combine modes. Each is checked against what the file means."""

from __future__ import annotations

import math

import pytest
from test_engine_khr import PLANE, UNIT_BOX, document, node, shape, write_gltf

G = 9.81
REST = 0.01


def test_kinematic_body_keeps_its_velocity(engine, tmp_path):
    """isKinematic: infinite mass, constant velocity (linear in node space, here unrotated), no gravity."""
    nodes = [node("Lift", (0.0, 1.0, 0.0), motion={"isKinematic": True, "linearVelocity": [1.0, 0.5, 0.0],
                                                   "angularVelocity": [0.0, 1.0, 0.0]}, collider=shape(0))]
    result = engine.simulate(write_gltf(tmp_path / "kinematic.gltf", *document(nodes, [UNIT_BOX])), (2.0,))
    assert result.position("Lift", 2.0) == pytest.approx((2.0, 2.0, 0.0), abs=1e-3)
    x, y, z, w = result.pose("Lift", 2.0).rotation
    assert 2 * math.atan2(y, w) == pytest.approx(2.0, abs=1e-3) and abs(x) + abs(z) < 1e-4


def test_not_collide_with_systems_lets_a_pair_pass(engine, tmp_path):
    """A ghost that does not collide with crates falls through one onto the ground; the same drop onto a
    crate of a system it does collide with stacks."""
    filters = [{"collisionSystems": ["crate"]}, {"collisionSystems": ["ghost"], "notCollideWithSystems": ["crate"]},
               {"collisionSystems": ["barrel"]}]
    nodes = [node("Ground", collider=shape(0)),
             node("Crate", (0.0, 0.5, 0.0), motion={}, collider={**shape(1), "collisionFilter": 0}),
             node("Ghost", (0.0, 2.5, 0.0), motion={}, collider={**shape(1), "collisionFilter": 1}),
             node("Barrel", (3.0, 0.5, 0.0), motion={}, collider={**shape(1), "collisionFilter": 2}),
             node("Stacked", (3.0, 2.5, 0.0), motion={}, collider={**shape(1), "collisionFilter": 1})]
    gltf, binary = document(nodes, [PLANE, UNIT_BOX], collisionFilters=filters)
    result = engine.simulate(write_gltf(tmp_path / "filters.gltf", gltf, binary), (3.0,))
    for name, height in (("Crate", 0.5), ("Ghost", 0.5), ("Barrel", 0.5), ("Stacked", 1.5)):
        assert result.position(name, 3.0)[1] == pytest.approx(height, abs=REST), name


def test_compound_trigger_reports_under_its_own_name(engine, tmp_path):
    """A compound trigger (`nodes`) of two boxes: a crate falling through one member is reported for the
    compound node; a separate trigger it misses reports nothing; triggers do not stop it."""
    zone = node("Zone", (0.0, 2.0, 0.0), trigger={"nodes": [2, 3]})
    zone["children"] = [2, 3]
    nodes = [node("Ground", collider=shape(0)), zone,
             node("Left", (-1.0, 0.0, 0.0), trigger=shape(1)), node("Right", (1.0, 0.0, 0.0), trigger=shape(1)),
             node("Elsewhere", (5.0, 2.0, 0.0), trigger=shape(1)),
             node("Crate", (1.0, 5.0, 0.0), motion={}, collider=shape(1))]
    result = engine.simulate(write_gltf(tmp_path / "triggers.gltf", *document(nodes, [PLANE, UNIT_BOX])), (3.0,))
    assert result.triggers == {"Zone": ["Crate"], "Elsewhere": []}
    assert result.position("Crate", 3.0)[1] == pytest.approx(0.5, abs=REST)


def _hinged_bar(tmp_path, name: str, limits: list[dict], drives: list[dict] | None = None):
    """A 1 m bar along X whose left end is jointed to the world at the origin (the connected node has no
    motion above it: the simulation's fixed frame)."""
    bar = node("Bar", (0.5, 0.0, 0.0), motion={"mass": 1.0}, collider=shape(0))
    bar["children"] = [1]
    joint = node("Joint", (-0.5, 0.0, 0.0))
    joint["extensions"] = {"KHR_physics_rigid_bodies": {"joint": {"connectedNode": 2, "joint": 0}}}
    bar_shape = {"type": "box", "box": {"size": [1.0, 0.1, 0.1]}}
    joints = [{"limits": limits, **({"drives": drives} if drives else {})}]
    gltf, binary = document([bar, joint, node("Anchor")], [bar_shape], physicsJoints=joints)
    return write_gltf(tmp_path / f"{name}.gltf", gltf, binary)


def _bar_angle(result, time: float, axis: int) -> float:
    """The bar's turn about a glTF axis (its rotation is about that axis only)."""
    q = result.pose("Bar", time).rotation
    return 2 * math.atan2(q[axis], q[3])


def test_hinge_limit_holds_the_files_sign(engine, tmp_path):
    """Limits measure the connected node seen from the joint node: the bar falling clockwise (about -Z)
    turns the anchor counter-clockwise in the bar's frame, so the angular range [-0.5, 1.0] about Z stops
    the bar at -1.0 rad, its end still on the pivot."""
    limits = [{"linearAxes": [0, 1, 2], "min": 0.0, "max": 0.0}, {"angularAxes": [0, 1], "min": 0.0, "max": 0.0},
              {"angularAxes": [2], "min": -0.5, "max": 1.0}]
    result = engine.simulate(_hinged_bar(tmp_path, "hinge", limits), (3.0,), nodes=["Joint"])
    assert _bar_angle(result, 3.0, 2) == pytest.approx(-1.0, abs=0.02)
    assert math.hypot(*result.position("Joint", 3.0)) < 5e-3


def test_velocity_drive_turns_with_the_files_sign(engine, tmp_path):
    """A hinge about the vertical Y with an angular velocity drive of +1 rad/s (the connected node's turn
    seen from the joint node): the bar turns at -1 rad/s about +Y; after 1 s it is at -1.0 rad."""
    limits = [{"linearAxes": [0, 1, 2], "min": 0.0, "max": 0.0}, {"angularAxes": [0, 2], "min": 0.0, "max": 0.0}]
    drives = [{"type": "angular", "mode": "force", "axis": 1, "velocityTarget": 1.0, "damping": 1000.0,
               "maxForce": 1000.0}]
    result = engine.simulate(_hinged_bar(tmp_path, "motor", limits, drives), (1.0,))
    assert _bar_angle(result, 1.0, 1) == pytest.approx(-1.0, abs=0.05)


SLOPE = math.radians(30.0)


@pytest.mark.parametrize(("mode", "combined"), [("average", 0.65), ("minimum", 0.3), ("maximum", 1.0),
                                                ("multiply", 0.3)])
def test_combine_modes_decide_whether_a_box_slides(engine, tmp_path, mode, combined):
    """A box (friction 0.3) on a 30 degree ramp (friction 1.0), both with the same combine mode: the
    combined friction holds it (above tan 30 = 0.577) or lets it slide g (sin - mu cos) t^2 / 2 in 1 s."""
    turn = [0.0, 0.0, math.sin(-SLOPE / 2), math.cos(-SLOPE / 2)]  # +X runs downhill
    ramp = node("Ramp", collider={**shape(0), "physicsMaterial": 0})
    ramp["rotation"] = turn
    on_ramp = (-1.0 * math.cos(SLOPE) - 0.601 * math.sin(-SLOPE), -1.0 * math.sin(-SLOPE) + 0.601 * math.cos(SLOPE))
    box = node("Box", (on_ramp[0], on_ramp[1], 0.0), motion={}, collider={**shape(1), "physicsMaterial": 1})
    box["rotation"] = turn
    materials = [{"staticFriction": f, "dynamicFriction": f, "frictionCombine": mode} for f in (1.0, 0.3)]
    shapes = [{"type": "box", "box": {"size": [6.0, 0.2, 2.0]}}, UNIT_BOX]
    gltf, binary = document([ramp, box], shapes, physicsMaterials=materials)
    result = engine.simulate(write_gltf(tmp_path / f"{mode}.gltf", gltf, binary), (0.0, 1.0))
    moved = math.dist(result.position("Box", 0.0), result.position("Box", 1.0))
    if combined > math.tan(SLOPE):
        assert moved < 0.01
    else:
        assert moved == pytest.approx(0.5 * G * (math.sin(SLOPE) - combined * math.cos(SLOPE)), rel=0.10)
