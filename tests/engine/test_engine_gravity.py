"""The second engine applies OMI_physics_gravity (tests/engine/gravity_volumes.mjs): a file's world gravity, and
each step the acceleration of every dynamic body from the volumes it overlaps, combined by priority, replace
and stop. A scene built in Blender with the add-on's settings (a point-gravity planet and a directional pad) is
exported and simulated: a body beside the planet falls towards its centre with the inverse-square strength,
one on the pad accelerates along the pad's direction.

Accelerations are measured from positions. Rapier 0.21 integrates each step in 4 substeps of semi-implicit
Euler (its default solver iterations), so after n steps from rest under a constant a a body has moved
a dt^2 (n^2 / 2 + n / 8): measured (0.625, 2.25, 4.875, 8.5 x a dt^2 after 1 to 4 steps), and checked by the
first case below against the plain world gravity to 1e-3 m/s^2.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

RATE = 240
STEPS = 12  # 0.05 s: a body at 3 m or more from a planet's centre moves < 0.5% of that distance
TIME = STEPS / RATE
TABLE_STEPS = 48  # 0.2 s: 4 cm at 2 m/s^2, which float32 positions 400 m out hold to 0.1%
GRAVITY = "OMI_physics_gravity"


def measured(start, end, steps: int = STEPS) -> tuple[float, float, float]:
    """The constant acceleration that moves a body from rest from `start` to `end` in `steps` steps."""
    factor = 1.0 / ((1.0 / RATE) ** 2 * (steps * steps / 2 + steps / 8))
    return tuple(factor * (b - a) for a, b in zip(start, end, strict=True))


SPACING = 100.0  # cases share one file, on a grid of this spacing in the XZ plane (volumes reach 30 m)
ROW = 5


def _document(cases: list[tuple[list[dict], tuple[float, float, float]]], world: dict | None = None) -> dict:
    """One file for several cases, each a small dynamic ball "Ball<k>" at its position and one big sphere
    trigger per volume, with its gravity (and the volume's own `translation` and `rotation`), the cases on a
    grid in the XZ plane (positions stay small: Rapier's are float32)."""
    nodes: list[dict] = []
    for case, (volumes, body_at) in enumerate(cases):
        offset = (SPACING * (case % ROW), 0.0, SPACING * (case // ROW))
        nodes.append({"name": f"Ball{case}", "translation": [a + b for a, b in zip(body_at, offset, strict=True)],
                      "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic"}, "collider": {"shape": 0}}}})
        for position, given in enumerate(volumes):
            volume = dict(given)
            at = volume.pop("translation", (0.0, 0.0, 0.0))
            node = {"name": f"Volume{case}.{position}", "translation": [a + b for a, b in zip(at, offset, strict=True)],
                    "extensions": {"OMI_physics_body": {"trigger": {"shape": 1}}}}
            if "rotation" in volume:
                node["rotation"] = volume.pop("rotation")
            node["extensions"][GRAVITY] = volume
            nodes.append(node)
    extensions = {"OMI_physics_shape": {"shapes": [{"type": "sphere", "sphere": {"radius": 0.05}},
                                                   {"type": "sphere", "sphere": {"radius": 30.0}},
                                                   {"type": "box", "box": {"size": [2.0, 2.0, 2.0]}}]}}
    if world is not None:
        extensions[GRAVITY] = world
    return {"asset": {"version": "2.0"}, "extensionsUsed": ["OMI_physics_shape", "OMI_physics_body", GRAVITY],
            "extensions": extensions, "nodes": nodes, "scenes": [{"nodes": list(range(len(nodes)))}], "scene": 0}


def _accelerations(engine, folder: Path, cases: list[tuple[list[dict], tuple[float, float, float]]],
                   world: dict | None) -> list[tuple[float, float, float]]:
    """The measured acceleration of each case's ball, all cases simulated in one file."""
    path = folder / "gravity.gltf"
    path.write_text(json.dumps(_document(cases, world)), encoding="utf-8")
    end = TABLE_STEPS / RATE
    result = engine.simulate(path, (0.0, end), rate=RATE)
    return [measured(result.position(f"Ball{case}", 0.0), result.position(f"Ball{case}", end), TABLE_STEPS)
            for case in range(len(cases))]


def _table(engine, folder: Path, table: dict) -> dict[str, tuple[float, float, float]]:
    """name -> measured acceleration for a table of name -> (volumes, world, ball position, expected); one
    simulation per world gravity."""
    found: dict[str, tuple[float, float, float]] = {}
    worlds: dict[str, list[str]] = {}
    for name, (_volumes, world, _at, _expected) in table.items():
        worlds.setdefault(json.dumps(world), []).append(name)
    for position, (world_text, names) in enumerate(worlds.items()):
        (folder / str(position)).mkdir()
        measured_here = _accelerations(engine, folder / str(position),
                                       [(table[name][0], table[name][2]) for name in names], json.loads(world_text))
        found.update(zip(names, measured_here, strict=True))
    return found


def _down(strength: float, **more) -> dict:
    return {"type": "directional", "gravity": strength, "directional": {"direction": [0.0, -1.0, 0.0]}, **more}


def _east(strength: float, **more) -> dict:
    return {"type": "directional", "gravity": strength, "directional": {"direction": [1.0, 0.0, 0.0]}, **more}


ORIGIN = (0.0, 0.0, 0.0)
# name -> (volumes, world gravity, ball position, expected acceleration): the spec's priority / replace / stop
COMBINATIONS = {
    "no volume: the world gravity": ([], {"gravity": 9.81}, ORIGIN, (0.0, -9.81, 0.0)),
    "one volume adds to the world gravity": ([_east(2.0)], {"gravity": 9.81}, ORIGIN, (2.0, -9.81, 0.0)),
    "two volumes and the world add up": ([_east(2.0), _east(3.0)], {"gravity": 1.0}, ORIGIN, (5.0, -1.0, 0.0)),
    "stop ignores the world gravity": ([_east(2.0, stop=True)], {"gravity": 9.81}, ORIGIN, (2.0, 0.0, 0.0)),
    "stop ignores lower priorities": ([_east(2.0, priority=10, stop=True), _down(4.0)], {"gravity": 9.81}, ORIGIN,
                                      (2.0, 0.0, 0.0)),
    "a lower priority's stop comes after": ([_east(2.0, priority=10), _down(4.0, stop=True)], {"gravity": 9.81},
                                            ORIGIN, (2.0, -4.0, 0.0)),
    "replace discards higher priorities": ([_east(2.0, priority=10), _down(4.0, replace=True)], {"gravity": 1.0},
                                           ORIGIN, (0.0, -5.0, 0.0)),
    "replace with stop is that volume alone": ([_east(2.0, priority=10), _down(4.0, replace=True, stop=True),
                                                _east(7.0, priority=-10)], {"gravity": 1.0}, ORIGIN, (0.0, -4.0, 0.0)),
    "replace at the top changes nothing": ([_east(2.0, priority=10, replace=True), _down(4.0)], {"gravity": 1.0},
                                           ORIGIN, (2.0, -5.0, 0.0)),
    "outside every volume: the world only": ([_east(2.0, stop=True, translation=[0.0, 40.0, 0.0])],
                                             {"gravity": 1.0}, ORIGIN, (0.0, -1.0, 0.0)),
    "negative gravity pushes the other way": ([_east(-2.0, stop=True)], None, ORIGIN, (-2.0, 0.0, 0.0)),
    "a rotated volume turns its direction": ([_down(3.0, stop=True, rotation=[0.0, 0.0, math.sin(math.pi / 4),
                                                                               math.cos(math.pi / 4)])], None,
                                             ORIGIN, (3.0, 0.0, 0.0)),
    "zero world gravity": ([], {"gravity": 0.0}, ORIGIN, (0.0, 0.0, 0.0)),
    # each type pulls towards its nearest point (stop: no world gravity)
    "point, constant": ([{"type": "point", "gravity": 5.0, "point": {}, "translation": [0.0, 0.0, 4.0],
                          "stop": True}], None, ORIGIN, (0.0, 0.0, 5.0)),
    "point, inverse square": ([{"type": "point", "gravity": 8.0, "point": {"unitDistance": 10.0}, "stop": True}],
                              None, (20.0, 0.0, 0.0), (-2.0, 0.0, 0.0)),
    "disc, above the disc": ([{"type": "disc", "gravity": 3.0, "disc": {"radius": 5.0}, "stop": True}], None,
                             (1.0, 2.0, 1.0), (0.0, -3.0, 0.0)),
    "disc, beyond its rim": ([{"type": "disc", "gravity": 3.0, "disc": {"radius": 1.0}, "stop": True}], None,
                             (4.0, 0.0, 0.0), (-3.0, 0.0, 0.0)),
    "torus, inside the ring": ([{"type": "torus", "gravity": 3.0, "torus": {"radius": 5.0}, "stop": True}], None,
                               (1.0, 0.0, 0.0), (3.0, 0.0, 0.0)),
    "line": ([{"type": "line", "gravity": 2.0, "line": {"points": [0, -5, 0, 0, 5, 0]}, "stop": True}], None,
             (0.0, 1.0, 3.0), (0.0, 0.0, -2.0)),
    "shaped: towards the box's surface": ([{"type": "shaped", "gravity": 4.0, "shaped": {"shape": 2}, "stop": True}],
                                          None, (0.0, 3.0, 0.0), (0.0, -4.0, 0.0)),
}


@pytest.fixture(scope="module")
def combined(engine, tmp_path_factory) -> dict[str, tuple[float, float, float]]:
    return _table(engine, tmp_path_factory.mktemp("combinations"), COMBINATIONS)


@pytest.mark.parametrize("case", COMBINATIONS)
def test_overlapping_volumes_combine_as_the_spec_says(combined, case):
    expected = COMBINATIONS[case][3]
    assert combined[case] == pytest.approx(expected, rel=0.01, abs=1e-3), combined[case]


# --- a scene built in Blender: a planet and a pad ---------------------------------------------------------

PLANET_STRENGTH = 9.80665
PLANET_RADIUS = 2.0  # the unit distance: the gravity at the surface is PLANET_STRENGTH
DISTANCES = (3.0, 6.0)  # where the probes start, from the planet's centre
PAD_STRENGTH = 4.0


@pytest.fixture(scope="module")
def planet_scene(engine, omi_addon, tmp_path_factory):
    """Built with the add-on's settings in Blender and exported: planet at (30, 0, 0) Blender, probes on its +X
    side, a directional pad at the origin pulling along Blender +Y, a probe on the pad; no world gravity."""
    import bpy
    import export_support

    bpy.ops.wm.read_homefile(use_empty=True)
    scene = bpy.context.scene
    scene.gravity = (0.0, 0.0, 0.0)

    def ball(name: str, location) -> None:
        bpy.ops.mesh.primitive_uv_sphere_add(radius=0.05, location=location)
        obj = bpy.context.active_object
        obj.name = name
        settings = obj.omi_physics
        settings.use_motion, settings.use_collider = True, True
        settings.collider.shape.shape_type = 'SPHERE'
        settings.collider.shape.radius = 0.05

    def volume(name: str, location, radius: float) -> bpy.types.Object:
        bpy.ops.object.empty_add(location=location)
        obj = bpy.context.active_object
        obj.name = name
        settings = obj.omi_physics
        settings.use_trigger, settings.use_gravity = True, True
        settings.trigger.shape.shape_type = 'SPHERE'
        settings.trigger.shape.radius = radius
        return obj

    planet = volume("Planet", (30.0, 0.0, 0.0), 20.0)
    planet.omi_physics.gravity.gravity_type = 'POINT'
    planet.omi_physics.gravity.strength = PLANET_STRENGTH
    planet.omi_physics.gravity.unit_distance = PLANET_RADIUS
    pad = volume("Pad", (0.0, 0.0, 0.0), 2.0)
    pad.omi_physics.gravity.gravity_type = 'DIRECTIONAL'
    pad.omi_physics.gravity.strength = PAD_STRENGTH
    pad.omi_physics.gravity.direction = (0.0, 1.0, 0.0)
    for position, distance in enumerate(DISTANCES):
        ball(f"Probe{position}", (30.0 + distance, 0.0, 0.0))
    ball("PadProbe", (0.0, 0.0, 0.5))
    exported = export_support.export(tmp_path_factory.mktemp("planet"), "planet", "GLB")
    return exported, engine.simulate(exported.path, (0.0, TIME), rate=RATE)


def test_the_exported_scene_has_the_volumes_and_zero_world_gravity(planet_scene):
    exported, _result = planet_scene
    assert exported.gltf["extensions"][GRAVITY] == {"gravity": 0.0}
    volumes = {node["name"]: node["extensions"][GRAVITY] for node in exported.gltf["nodes"]
               if GRAVITY in node.get("extensions", {})}
    assert volumes == {
        "Planet": {"type": "point", "gravity": PLANET_STRENGTH, "point": {"unitDistance": PLANET_RADIUS}},
        "Pad": {"type": "directional", "gravity": PAD_STRENGTH, "directional": {"direction": [0.0, 0.0, -1.0]}}}


@pytest.mark.parametrize("position", range(len(DISTANCES)))
def test_a_body_beside_the_planet_falls_to_its_centre_with_inverse_square_strength(planet_scene, position):
    _exported, result = planet_scene
    start = result.position(f"Probe{position}", 0.0)
    acceleration = measured(start, result.position(f"Probe{position}", TIME))
    centre = (30.0, 0.0, 0.0)  # glTF: Blender (30, 0, 0)
    toward = [c - s for c, s in zip(centre, start, strict=True)]
    distance = math.dist(centre, start)
    strength = math.sqrt(sum(value * value for value in acceleration))
    expected = PLANET_STRENGTH * (PLANET_RADIUS / DISTANCES[position]) ** 2
    assert distance == pytest.approx(DISTANCES[position])
    assert strength == pytest.approx(expected, rel=0.01)  # within 1%
    cosine = sum(a * t for a, t in zip(acceleration, toward, strict=True)) / (strength * distance)
    assert cosine > 0.9999  # towards the centre


def test_a_body_on_the_pad_accelerates_along_the_pads_direction(planet_scene):
    _exported, result = planet_scene
    acceleration = measured(result.position("PadProbe", 0.0), result.position("PadProbe", TIME))
    assert acceleration == pytest.approx((0.0, 0.0, -PAD_STRENGTH), abs=0.01)  # Blender +Y is glTF -Z
