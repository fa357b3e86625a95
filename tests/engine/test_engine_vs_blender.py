"""Scenes authored in Blender, exported through the add-on, simulated twice: by Blender (Bullet, after an
import of the same .glb) and by a second engine (Rapier, reading the file with its own loader). Each
scene is also exported in the KHR dialect, and Rapier must simulate that file exactly as the OMI one.

Each test states its tolerance and why; where the engines legitimately differ (a feature Blender cannot
express, contact softness, restitution at Blender's substeps), the test compares each engine with the
analytic expectation instead and says so. Positions are in glTF axes (+Y up), metres.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import bpy
import export_support as build
import import_support
import pytest
from mathutils import Euler, Matrix, Quaternion, Vector

pytestmark = pytest.mark.usefixtures("omi_addon")

G = 9.81
FPS = 24  # the imported scene's frame rate (Blender's default); Rapier steps at 240 Hz like Bullet's 10 substeps
REST = 0.03  # a resting body's height: Bullet lets boxes sink up to ~2 cm (contact margin), Rapier ~1 mm
DRIFT = 0.01  # sideways creep of a body that should stay put
AGREE = 0.03  # the same resting outcome in both engines


@dataclass
class Outcome:
    """World matrices (glTF axes) per time in seconds, from both engines, and what each reported."""

    blender: dict[float, dict[str, Matrix]]
    rapier: dict[float, dict[str, Matrix]]
    import_warnings: list[str]
    engine_notes: list[str]
    triggers: dict[str, list[str]]

    def both(self, name: str, time: float) -> tuple[Vector, Vector]:
        """The node's position in Blender and in Rapier."""
        return self.blender[time][name].translation, self.rapier[time][name].translation

    def series(self, name: str, engine: str) -> list[Matrix]:
        frames = self.blender if engine == "blender" else self.rapier
        return [frames[time][name] for time in sorted(frames)]


def gltf_matrix(obj: bpy.types.Object) -> Matrix:
    return import_support.TO_BLENDER.inverted() @ obj.matrix_world.normalized() @ import_support.TO_BLENDER


def gltf_position(obj: bpy.types.Object) -> Vector:
    return gltf_matrix(obj).translation


def pose_matrix(pose) -> Matrix:
    x, y, z, w = pose.rotation
    return Matrix.LocRotScale(Vector(pose.translation), Quaternion((w, x, y, z)), None)


def frame_of(time: float) -> int:
    return 1 + round(time * FPS)


def export_khr(tmp_path: Path, name: str) -> Path:
    """The same scene in the KHR dialect (KHR_physics_rigid_bodies + KHR_implicit_shapes)."""
    options = bpy.context.scene.omi_physics
    options.export_dialect = 'KHR'
    try:
        return build.export(tmp_path, f"{name}_khr", 'GLB', check=False).path
    finally:
        options.export_dialect = 'OMI'


def rapier_run(engine, path: Path, times: list[float], names: list[str]) -> tuple[dict, list[str], dict]:
    result = engine.simulate(path, times, nodes=names)
    poses = {t: {n: pose_matrix(result.pose(n, t)) for n in names} for t in times}
    return poses, result.notes, result.triggers


def simulate_both(engine, tmp_path: Path, name: str, times: list[float], names: list[str], *,
                  substeps: int | None = None) -> Outcome:
    """Export the current scene as .glb in both dialects and simulate both files in Rapier: the KHR file
    must move exactly as the OMI one (same engine, same meaning: 1 mm, 0.01 rad). Then import the OMI
    file into Blender and step Bullet."""
    khr_path = export_khr(tmp_path, name)
    exported = build.export(tmp_path, name, 'GLB')
    rapier, notes, triggers = rapier_run(engine, exported.path, times, names)
    khr, _khr_notes, _ = rapier_run(engine, khr_path, times, names)
    for t in times:
        for n in names:
            assert (khr[t][n].translation - rapier[t][n].translation).length < 1e-3, (n, t)
            assert rapier[t][n].to_quaternion().rotation_difference(khr[t][n].to_quaternion()).angle < 0.01, (n, t)
    imported = import_support.import_gltf(exported.path)
    scene = bpy.context.scene
    assert scene.render.fps == FPS
    if substeps is not None:
        scene.rigidbody_world.substeps_per_frame = substeps
    last = frame_of(max(times))
    scene.frame_start, scene.frame_end = 1, last
    scene.rigidbody_world.point_cache.frame_end = last
    blender: dict[float, dict[str, Matrix]] = {}
    wanted = {frame_of(t): t for t in times}
    for frame in range(1, last + 1):
        scene.frame_set(frame)
        if frame in wanted:
            blender[wanted[frame]] = {n: gltf_matrix(imported.obj(n)) for n in names}
    return Outcome(blender, rapier, [*imported.warnings, *imported.notes], notes, triggers)


def select(*objects: bpy.types.Object) -> None:
    for obj in bpy.context.view_layer.objects:
        obj.select_set(False)
    for obj in objects:
        obj.select_set(True)
    bpy.context.view_layer.objects.active = objects[-1]


def fit(objects: list[bpy.types.Object], shape: str = 'BOX', role: str = 'COLLIDER') -> None:
    select(*objects)
    assert bpy.ops.omi.fit_collider(shape_type=shape, role=role) == {'FINISHED'}


def make_body(objects: list[bpy.types.Object], motion: str = 'DYNAMIC') -> None:
    select(*objects)
    assert bpy.ops.omi.make_body(motion_type=motion) == {'FINISHED'}


def floor(name: str = "Floor", size: float = 10.0) -> bpy.types.Object:
    """A static box whose top face is at height 0."""
    obj = build.mesh_object(name, location=(0.0, 0.0, -0.5))
    obj.data.transform(Matrix.Diagonal((size, size, 1.0, 1.0)))
    fit([obj])
    return obj


def material(name: str, friction: float, restitution: float, combine: str = 'MULTIPLY') -> str:
    library = bpy.context.scene.omi_physics.physics_materials
    entry = library.add()
    entry.name = name
    entry.static_friction = entry.dynamic_friction = friction
    entry.restitution = restitution
    entry.friction_combine = entry.restitution_combine = combine
    return name


def fresh_scene() -> None:
    bpy.ops.wm.read_homefile(use_empty=True)


# --- free fall with a gravity factor ---------------------------------------------------------------


def test_free_fall_with_a_gravity_factor(engine, tmp_path):
    """Two boxes fall freely for 1 s, one with gravityFactor 0.5. Without contacts both engines integrate
    gravity alike: the plain box falls g t^2 / 2 in both (2 %: the integrators' step error). Blender cannot
    express a gravity factor (the import says so): its half-gravity box falls like the plain one, while
    Rapier's falls half as far, the analytic expectation for the file."""
    fresh_scene()
    plain = build.mesh_object("Plain", location=(0.0, 0.0, 10.0))
    floaty = build.mesh_object("Floaty", location=(3.0, 0.0, 10.0))
    fit([plain, floaty])
    make_body([plain, floaty])
    floaty.omi_physics.motion.gravity_factor = 0.5
    outcome = simulate_both(engine, tmp_path, "free_fall", [1.0], ["Plain", "Floaty"])
    fall = G / 2
    for name, factor in (("Plain", 1.0), ("Floaty", 0.5)):
        blender, rapier = outcome.both(name, 1.0)
        assert 10.0 - rapier.y == pytest.approx(factor * fall, rel=0.02)
        assert 10.0 - blender.y == pytest.approx(fall, rel=0.02)  # Blender: gravity factor 1 always
    assert any("gravity factor" in w and "Floaty" in w for w in outcome.import_warnings)


# --- a stack at rest -------------------------------------------------------------------------------


def test_stack_stays_at_rest(engine, tmp_path):
    """Three 1 m boxes stacked on a static floor stay where they are for 3 s in both engines."""
    fresh_scene()
    floor()
    boxes = [build.mesh_object(f"Box{i}", location=(0.0, 0.0, 0.5 + i)) for i in range(3)]
    fit(boxes)
    make_body(boxes)
    names = [box.name for box in boxes]
    outcome = simulate_both(engine, tmp_path, "stack", [3.0], names)
    for i, name in enumerate(names):
        blender, rapier = outcome.both(name, 3.0)
        for where in (blender, rapier):
            assert where.y == pytest.approx(0.5 + i, abs=REST)
            assert math.hypot(where.x, where.z) < DRIFT
        assert (blender - rapier).length < AGREE


# --- a box sliding down a ramp with friction -------------------------------------------------------

SLOPE = math.radians(30.0)


def test_box_slides_down_a_ramp_with_friction(engine, tmp_path):
    """A box on a 30 degree ramp, friction 0.5 x 0.6 combined by multiplication (Blender's Bullet
    multiplies; Rapier is told to by the file): 0.3 < tan 30, so it slides with a = g (sin - 0.3 cos).
    After 1 s both engines match the analytic distance within 10 % (Bullet's friction is a pyramid
    approximation of Coulomb's cone, Rapier's contacts are soft) and each other within 10 %."""
    fresh_scene()
    tilt = Euler((0.0, SLOPE, 0.0)).to_matrix().to_4x4()  # +X runs downhill
    ramp = build.mesh_object("Ramp")
    ramp.data.transform(Matrix.Diagonal((6.0, 2.0, 0.2, 1.0)))
    ramp.matrix_world = tilt
    crate = build.mesh_object("Crate")
    crate.matrix_world = tilt @ Matrix.Translation((-2.0, 0.0, 0.1 + 0.5 + 0.002))
    fit([ramp, crate])
    make_body([crate])
    ramp.omi_physics.collider.physics_material = material("Ramp", 0.6, 0.0)
    crate.omi_physics.collider.physics_material = material("Crate", 0.5, 0.0)
    start = gltf_position(crate)
    outcome = simulate_both(engine, tmp_path, "ramp", [1.0], ["Crate"])
    expected = 0.5 * G * (math.sin(SLOPE) - 0.3 * math.cos(SLOPE)) * 1.0**2
    blender, rapier = outcome.both("Crate", 1.0)
    downhill = Vector((math.cos(SLOPE), -math.sin(SLOPE), 0.0))  # glTF axes: +X and down
    for where in (blender, rapier):
        moved = where - start
        assert moved.dot(downhill) == pytest.approx(expected, rel=0.10)
        assert (moved - moved.dot(downhill) * downhill).length < 0.02  # along the slope, on its surface
    assert (blender - start).length == pytest.approx((rapier - start).length, rel=0.10)


# --- a ball bouncing with restitution --------------------------------------------------------------


def _rebound(heights: list[float]) -> float:
    """The highest point after the first bounce, from a series of heights."""
    landed = next(i for i in range(1, len(heights)) if heights[i] > heights[i - 1])
    return max(heights[landed:])


def test_ball_bounces_with_restitution(engine, tmp_path):
    """A ball dropped from 1 m onto the floor, restitution 0.8 x 1.0 (multiply): the analytic rebound is
    e^2 h = 0.64 m, and Rapier at 240 Hz gets within 0.04 m of it.

    Bullet's rebound depends on its step: measured for this scene with Blender's default damping, 0.83 m
    at 1 substep per frame (the ball sinks 12 cm into the floor first), 0.88 at 2, 0.48 at 3, 0.68 at 5
    and 0.36 at Blender's default 10; undamped, as the import builds it (the file has no damping), 0.00 at
    10, whatever the collision margin (0 to 0.04). Bullet gives no restitution to a contact older than two
    substeps, and its contacts start within the margin before the impact, so when the bounce happens is a
    knife-edge. That is Blender's restitution, not the file's: the test only asks that Blender's ball lose
    height (below the 1 m drop)."""
    fresh_scene()
    ground = floor()
    ball = build.mesh_object("Ball", 'ico', location=(0.0, 0.0, 1.5))
    fit([ball], 'SPHERE')
    ball.omi_physics.collider.shape.radius = 0.5
    make_body([ball])
    ground.omi_physics.collider.physics_material = material("Ground", 0.5, 1.0)
    ball.omi_physics.collider.physics_material = material("Rubber", 0.5, 0.8)
    times = [i / FPS for i in range(1, 2 * FPS)]
    outcome = simulate_both(engine, tmp_path, "bounce", times, ["Ball"])
    rapier = _rebound([m.translation.y - 0.5 for m in outcome.series("Ball", "rapier")])
    heights = [m.translation.y - 0.5 for m in outcome.series("Ball", "blender")]
    blender = max(heights[heights.index(min(heights)):])  # no bounce at all: the resting height
    assert rapier == pytest.approx(0.8**2 * 1.0, abs=0.04)
    assert blender < 1.0


# --- a hinge and a slider within their limits ------------------------------------------------------


def joint_between(host: bpy.types.Object, other: bpy.types.Object, where, rotation=(0.0, 0.0, 0.0), **preset) -> None:
    """The add-on's Create Joint at the 3D cursor (placed at `where`, turned by `rotation`)."""
    cursor = bpy.context.scene.cursor
    cursor.location, cursor.rotation_euler = where, rotation
    select(other, host)
    assert bpy.ops.omi.create_joint(location='CURSOR', **preset) == {'FINISHED'}


def turned(matrices: list[Matrix]) -> list[float]:
    """Each matrix's rotation angle from the first one."""
    start = matrices[0].to_quaternion()
    return [start.rotation_difference(m.to_quaternion()).angle for m in matrices]


HINGE_RANGE = (-0.5, 1.0)


def test_hinge_swings_to_its_limit(engine, tmp_path):
    """A bar hinged at one end about a horizontal axis falls and stops at one end of the hinge's range
    [-0.5, 1.0] rad. Both engines: never beyond the range's larger bound (0.03 rad: Bullet's and
    Rapier's limits are solved, not exact), the same final angle within 0.03 rad (the file's sign
    read alike), and the hinged end still on the post (5 mm)."""
    fresh_scene()
    post = build.mesh_object("Post", size=0.2)
    bar = build.mesh_object("Bar", location=(0.6, 0.0, 0.0))
    bar.data.transform(Matrix.Diagonal((1.0, 0.1, 0.1, 1.0)))
    fit([post, bar])
    make_body([post], 'STATIC')
    make_body([bar])
    joint_between(bar, post, (0.1, 0.0, 0.0), preset='HINGE', axis='Y', angle_min=HINGE_RANGE[0],
                  angle_max=HINGE_RANGE[1])
    times = [i / FPS for i in range(0, 3 * FPS + 1, 2)]
    outcome = simulate_both(engine, tmp_path, "hinge", times, ["Bar"])
    finals = {}
    for engine_name in ("blender", "rapier"):
        bars = outcome.series("Bar", engine_name)
        angles = turned(bars)
        assert max(angles) < max(map(abs, HINGE_RANGE)) + 0.03, (engine_name, max(angles))
        assert min(abs(angles[-1] - abs(bound)) for bound in HINGE_RANGE) < 0.03, (engine_name, angles[-1])
        assert (bars[-1] @ Vector((-0.5, 0.0, 0.0)) - Vector((0.1, 0.0, 0.0))).length < 0.005
        finals[engine_name] = bars[-1].to_quaternion()
    assert finals["blender"].rotation_difference(finals["rapier"]).angle < 0.03


SLIDER_RANGE = (-0.5, 0.25)


def test_slider_slides_to_its_limit_on_its_axis(engine, tmp_path):
    """A block on a rail tilted 30 degrees slides down to one end of the slider's range [-0.5, 0.25] m.
    Both engines: on the rail's axis (5 mm), within the range's larger bound (1 cm), at one of its ends,
    and at the same place (2 cm)."""
    fresh_scene()
    tilt = (0.0, SLOPE, 0.0)
    rail = build.mesh_object("Rail", rotation=tilt)
    rail.data.transform(Matrix.Diagonal((3.0, 0.1, 0.1, 1.0)))
    block = build.mesh_object("Block", rotation=tilt, size=0.2)
    fit([rail, block])
    make_body([rail], 'STATIC')
    make_body([block])
    joint_between(block, rail, (0.0, 0.0, 0.0), tilt, preset='SLIDER', axis='X', distance_min=SLIDER_RANGE[0],
                  distance_max=SLIDER_RANGE[1])
    times = [i / FPS for i in range(0, 2 * FPS + 1, 2)]
    outcome = simulate_both(engine, tmp_path, "slider", times, ["Block"])
    axis = Vector((math.cos(SLOPE), -math.sin(SLOPE), 0.0))  # the rail's X in glTF axes
    finals = {}
    for engine_name in ("blender", "rapier"):
        offsets = [m.translation for m in outcome.series("Block", engine_name)]
        for offset in offsets:
            along = offset.dot(axis)
            assert (offset - along * axis).length < 0.005
            assert abs(along) < max(map(abs, SLIDER_RANGE)) + 0.01
        assert min(abs(abs(offsets[-1].dot(axis)) - abs(bound)) for bound in SLIDER_RANGE) < 0.01
        finals[engine_name] = offsets[-1]
    assert (finals["blender"] - finals["rapier"]).length < 0.02


# --- a kinematic body with a velocity --------------------------------------------------------------


def test_kinematic_body_moves_at_its_velocity(engine, tmp_path):
    """A kinematic platform with a linear velocity of 1 m/s along X and an angular velocity of 1 rad/s
    about the vertical. KHR: "its velocity will be constant"; Rapier moves it 2 m and turns it 2 rad in
    2 s. Blender's kinematic body has no velocity: the import drives its delta transforms with the frame
    (builder/kinematic_drive), and Bullet moves it the same way. Gravity moves neither."""
    fresh_scene()
    platform = build.mesh_object("Platform", location=(0.0, 0.0, 1.0))
    fit([platform])
    make_body([platform], 'KINEMATIC')
    platform.omi_physics.motion.linear_velocity = (1.0, 0.0, 0.0)
    platform.omi_physics.motion.angular_velocity = (0.0, 0.0, 1.0)  # Blender's Z: glTF's Y, up
    outcome = simulate_both(engine, tmp_path, "kinematic", [1.0, 2.0], ["Platform"])
    for seconds in (1.0, 2.0):
        blender, rapier = outcome.both("Platform", seconds)
        assert (rapier - Vector((seconds, 1.0, 0.0))).length < 1e-3
        assert (blender - rapier).length < 1e-4, seconds
        turned = outcome.rapier[seconds]["Platform"].to_quaternion()
        assert turned.angle == pytest.approx(seconds, abs=1e-3)
        assert outcome.blender[seconds]["Platform"].to_quaternion().rotation_difference(turned).angle < 1e-3
    assert any("constant velocity" in w and "Platform" in w for w in outcome.import_warnings)


# --- a filtered pair passes through each other -----------------------------------------------------


def collision_filter(name: str, systems: list[str], mode: str = 'ALL', listed: tuple[str, ...] = ()) -> str:
    entry = bpy.context.scene.omi_physics.collision_filters.add()
    entry.name = name
    for system in systems:
        entry.collision_systems.add().name = system
    entry.mode = mode
    for system in listed:
        entry.listed_systems.add().name = system
    return name


def test_filtered_pair_passes_through_each_other(engine, tmp_path):
    """Crates that collide only with the ground: the upper one falls through the lower one and both rest
    on the floor. Beside them an unfiltered pair stacks, so the filter is what makes the difference."""
    fresh_scene()
    ground = floor()
    ground.omi_physics.collider.collision_filter = collision_filter("Ground", ["ground"])
    crates = collision_filter("Crates", ["crate"], 'ONLY', ("ground",))
    boxes = {name: build.mesh_object(name, location=(x, 0.0, z)) for name, x, z in (
        ("Lower", 0.0, 0.5), ("Upper", 0.0, 2.5), ("StackLower", 3.0, 0.5), ("StackUpper", 3.0, 2.5))}
    fit(list(boxes.values()))
    make_body(list(boxes.values()))
    boxes["Lower"].omi_physics.collider.collision_filter = crates
    boxes["Upper"].omi_physics.collider.collision_filter = crates
    outcome = simulate_both(engine, tmp_path, "filters", [3.0], list(boxes))
    for name, height in (("Lower", 0.5), ("Upper", 0.5), ("StackLower", 0.5), ("StackUpper", 1.5)):
        blender, rapier = outcome.both(name, 3.0)
        assert blender.y == pytest.approx(height, abs=REST), name
        assert rapier.y == pytest.approx(height, abs=REST), name
        assert (blender - rapier).length < AGREE


# --- a compound body -------------------------------------------------------------------------------


def test_compound_body_rests_on_its_lowest_collider(engine, tmp_path):
    """An empty with three box colliders below it (left, right, and a leg 1 m lower) is one body of
    3 kg; it lands on its leg: body origin 1.5 m above the floor in both engines.

    Measured difference: Bullet lands the leg flat and stays still; Rapier's sequential contact solver
    tips the T up to 0.19 rad after the landing and it rocks back to rest by about 5 s. So the outcome
    is compared at 6 s, not earlier."""
    fresh_scene()
    floor()
    table = build.empty("Table", (0.0, 0.0, 4.0))
    parts = [build.mesh_object(name, location=where) for name, where in (
        ("Left", (-1.0, 0.0, 0.0)), ("Right", (1.0, 0.0, 0.0)), ("Leg", (0.0, 0.0, -1.0)))]
    for part in parts:
        part.parent = table
    fit(parts)
    make_body([table])
    table.omi_physics.motion.mass = 3.0
    outcome = simulate_both(engine, tmp_path, "compound", [6.0], ["Table", "Leg"])
    blender, rapier = outcome.both("Table", 6.0)
    for where in (blender, rapier):
        assert where.y == pytest.approx(1.5, abs=REST)
        assert math.hypot(where.x, where.z) < DRIFT
    assert (blender - rapier).length < AGREE
    for engine_name in ("blender", "rapier"):
        assert outcome.series("Leg", engine_name)[-1].translation.y == pytest.approx(0.5, abs=REST)


# --- a convex hull on a triangle-mesh floor --------------------------------------------------------


DROP = 0.1


def test_convex_hull_rests_on_a_triangle_mesh_floor(engine, tmp_path):
    """A cone (convex hull of its mesh, exported as accessors) falls onto a floor that is a triangle mesh
    of a subdivided grid and stands on its base: its centre 0.5 m up in both engines.

    Measured: dropped from 1.5 m, Rapier's cone bounces and tips on landing and ends 9 cm aside (Bullet's
    0.1 mm); the test drops it from DROP = 0.1 m (Rapier: 7 mm aside), as the landing is not what is
    being compared."""
    import bmesh  # importable only once bpy is

    fresh_scene()
    mesh = bpy.data.meshes.new("Terrain")
    grid = bmesh.new()
    bmesh.ops.create_grid(grid, x_segments=8, y_segments=8, size=4.0)
    grid.to_mesh(mesh)
    grid.free()
    terrain = bpy.data.objects.new("Terrain", mesh)
    bpy.context.scene.collection.objects.link(terrain)
    fit([terrain], 'TRIMESH')
    cone = build.mesh_object("Cone", 'cone', location=(0.3, -0.2, DROP + 0.5))
    fit([cone], 'CONVEX')
    make_body([cone])
    outcome = simulate_both(engine, tmp_path, "hull", [3.0], ["Cone"])
    blender, rapier = outcome.both("Cone", 3.0)
    for where in (blender, rapier):
        assert where.y == pytest.approx(0.5, abs=REST)
        assert (where.xz - Vector((0.3, 0.2))).length < DRIFT
    assert (blender - rapier).length < AGREE
