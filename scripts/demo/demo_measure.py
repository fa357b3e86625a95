"""Record the simulated scene frame by frame and measure what the demo promises.

Everything is measured from object positions and orientations, as an engine's user would see them:
the stack stands still, the ball rolls down the ramp and through the trigger zone, the door turns about
its hinge within the hinge's limits, and the pendulum swings on its pin. Joint frames come from the
imported joint objects (the joint empty moves with its body, the anchor with the other one), limits
and shapes from the imported OMI settings, so the numbers also prove that the import kept them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import bpy
import numpy as np
from mathutils import Matrix, Quaternion, Vector

REST_SPEED = 0.05  # m/s: slower than this counts as at rest
STACK_TOLERANCE = 0.05  # m: a box still on the stack is within this of where it started
JOINT_TOLERANCE = 0.02  # m: how far a joint's two attachment points may drift apart under Bullet
ANGLE_TOLERANCE = math.radians(2.0)  # how far past a hinge limit Bullet's soft limit may go


@dataclass
class Track:
    """One object's world placement at every simulated frame (index 0 is the first frame)."""

    locations: np.ndarray  # (frames, 3)
    rotations: np.ndarray  # (frames, 4) quaternions w, x, y, z

    def location(self, index: int) -> Vector:
        return Vector(self.locations[index])

    def rotation(self, index: int) -> Quaternion:
        return Quaternion(self.rotations[index])

    def matrix(self, index: int) -> Matrix:
        return Matrix.LocRotScale(self.location(index), self.rotation(index), None)

    def speed(self, index: int, fps: float) -> float:
        """Speed in m/s between the frame before `index` and `index`."""
        return float(np.linalg.norm(self.locations[index] - self.locations[index - 1]) * fps)


@dataclass
class Recording:
    first_frame: int
    fps: float
    tracks: dict[str, Track]

    @property
    def count(self) -> int:
        return len(next(iter(self.tracks.values())).locations)

    def frame(self, index: int) -> int:
        return self.first_frame + index

    def seconds(self, index: int) -> float:
        return index / self.fps


def simulate(scene: bpy.types.Scene, frames: int) -> Recording:
    """Step the rigid body simulation frame after frame from the start; record every object."""
    scene.frame_start, scene.frame_end = 1, frames
    cache = scene.rigidbody_world.point_cache
    cache.frame_start, cache.frame_end = 1, frames
    objects = [obj for obj in scene.objects if obj.type in {'MESH', 'EMPTY'}]
    locations = {obj.name: np.empty((frames, 3)) for obj in objects}
    rotations = {obj.name: np.empty((frames, 4)) for obj in objects}
    for index in range(frames):
        scene.frame_set(1 + index)
        for obj in objects:
            location, rotation, _scale = obj.matrix_world.decompose()
            locations[obj.name][index] = location
            rotations[obj.name][index] = rotation
    fps = scene.render.fps / scene.render.fps_base
    return Recording(1, fps, {name: Track(locations[name], rotations[name]) for name in locations})


# --- what is measured ------------------------------------------------------------------------------


@dataclass
class Check:
    """One promise of the demo, kept or not, with the numbers that decide it."""

    name: str
    passed: bool
    detail: str


@dataclass
class Resting:
    name: str
    start: Vector
    end: Vector
    final_speed: float

    @property
    def at_rest(self) -> bool:
        return self.final_speed < REST_SPEED


def resting(recording: Recording, name: str) -> Resting:
    track = recording.tracks[name]
    return Resting(name, track.location(0), track.location(-1), track.speed(recording.count - 1, recording.fps))


def stack_check(recording: Recording, names: list[str]) -> tuple[Check, list[Resting]]:
    """Each box ends at rest where it started: the stack stood."""
    boxes = [resting(recording, name) for name in names]
    worst = max((box.end - box.start).length for box in boxes)
    fastest = max(box.final_speed for box in boxes)
    passed = worst < STACK_TOLERANCE and fastest < REST_SPEED
    return Check("stack stands and comes to rest", passed,
                 f"{len(boxes)} boxes; largest move {worst * 100:.1f} cm, fastest at the end {fastest:.3f} m/s"), boxes


@dataclass
class BallRun:
    start: Vector
    end: Vector
    path_length: float  # metres travelled
    turned: float  # radians turned in all
    radius: float
    final_speed: float

    @property
    def rolled_length(self) -> float:
        """Distance a ball of this radius covers by rolling through `turned` without slipping."""
        return self.turned * self.radius


def _angle(rotation: Quaternion) -> float:
    """The smallest angle of a rotation, 0 to pi (a quaternion's angle runs to 2 pi)."""
    return min(rotation.angle, 2 * math.pi - rotation.angle)


def ball_run(recording: Recording, name: str, radius: float) -> BallRun:
    track = recording.tracks[name]
    steps = np.linalg.norm(np.diff(track.locations, axis=0), axis=1)
    turned = sum(_angle(track.rotation(index - 1).rotation_difference(track.rotation(index)))
                 for index in range(1, recording.count))
    return BallRun(track.location(0), track.location(-1), float(steps.sum()), turned, radius,
                   track.speed(recording.count - 1, recording.fps))


def ball_check(run: BallRun, ramp_foot_x: float) -> Check:
    """Down the ramp, onto the floor beyond its foot, rolling (turning about as much as it travels)."""
    on_floor = abs(run.end.z - run.radius) < 0.02
    rolled = run.rolled_length > 0.7 * run.path_length
    passed = run.end.x > ramp_foot_x and run.start.z > run.end.z + 0.5 and on_floor and rolled
    return Check("ball rolls down the ramp", passed,
                 f"from z={run.start.z:.2f} m to x={run.end.x:.2f} m on the floor (z={run.end.z:.2f} m); "
                 f"travelled {run.path_length:.2f} m, turned {math.degrees(run.turned):.0f} deg "
                 f"(rolling covers {run.rolled_length:.2f} m)")


def trigger_frames(recording: Recording, ball: str, radius: float, trigger: bpy.types.Object) -> list[int]:
    """Indices of the frames where the ball's sphere overlaps the trigger's box."""
    shape = trigger.omi_physics.trigger.shape
    box = trigger.matrix_world.normalized()
    if shape.use_offset:
        box = box @ Matrix.LocRotScale(Vector(shape.offset_location), shape.offset_rotation.to_quaternion(), None)
    inverse = box.inverted()
    half = np.array(shape.size) / 2
    inside = []
    for index, location in enumerate(recording.tracks[ball].locations):
        local = np.array(inverse @ Vector(location))
        if np.linalg.norm(local - np.clip(local, -half, half)) <= radius:
            inside.append(index)
    return inside


def trigger_check(recording: Recording, overlaps: list[int], detects: bool) -> Check:
    if not overlaps:
        return Check("trigger zone sees the ball", False, "the ball never overlaps the trigger zone")
    first, last = overlaps[0], overlaps[-1]
    return Check("trigger zone sees the ball", detects,
                 f"overlap from frame {recording.frame(first)} to {recording.frame(last)} "
                 f"({recording.seconds(first):.2f}-{recording.seconds(last):.2f} s, {len(overlaps)} frames); "
                 f"the trigger's filter {'detects' if detects else 'ignores'} the ball's")


def twist(rotation: Quaternion, axis: int) -> tuple[float, float]:
    """(angle about the local `axis`, angle of what is left around the other axes), radians."""
    component = (rotation.x, rotation.y, rotation.z)[axis]
    angle = 2.0 * math.atan2(component, rotation.w)
    angle = (angle + math.pi) % (2 * math.pi) - math.pi
    about = Vector((0.0, 0.0, 0.0))
    about[axis] = 1.0
    rest = rotation @ Quaternion(about, angle).inverted()
    return angle, _angle(rest)


@dataclass
class HingeRun:
    angles: np.ndarray  # radians about the hinge axis, per frame
    off_axis: float  # largest turn about the other axes, radians
    drift: float  # largest distance between the joint's two attachment points, metres
    limits: tuple[float, float]


def hinge_run(recording: Recording, joint: bpy.types.Object, anchor: str, axis: int) -> HingeRun:
    """The joint frame's turn relative to the anchor frame (both start together) about `axis`."""
    joint_track, anchor_track = recording.tracks[joint.name], recording.tracks[anchor]
    angles, off_axis, drift = [], 0.0, 0.0
    for index in range(recording.count):
        relative = anchor_track.rotation(index).inverted() @ joint_track.rotation(index)
        angle, rest = twist(relative, axis)
        angles.append(angle)
        off_axis = max(off_axis, rest)
        drift = max(drift, (joint_track.location(index) - anchor_track.location(index)).length)
    return HingeRun(np.array(angles), off_axis, drift, angular_range(joint, axis))


def angular_range(joint: bpy.types.Object, axis: int) -> tuple[float, float]:
    """The imported joint's (min, max) angle about its local `axis` (free: +-pi)."""
    for limit in joint.omi_physics.joint.limits:
        if limit.kind == 'ANGULAR' and list(limit.axes) == [axis]:
            low = limit.min_angular if limit.use_min else -math.pi
            high = limit.max_angular if limit.use_max else math.pi
            return low, high
    return -math.pi, math.pi


def hinge_check(run: HingeRun) -> Check:
    low, high = run.limits
    opened = float(np.max(np.abs(run.angles)))
    within = low - ANGLE_TOLERANCE <= run.angles.min() and run.angles.max() <= high + ANGLE_TOLERANCE
    passed = within and opened > math.radians(10.0) and run.drift < JOINT_TOLERANCE \
        and run.off_axis < ANGLE_TOLERANCE
    return Check("door turns on its hinge within its limits", passed,
                 f"angle {math.degrees(run.angles.min()):.1f} to {math.degrees(run.angles.max()):.1f} deg "
                 f"(limits {math.degrees(low):.0f} to {math.degrees(high):.0f}), "
                 f"{math.degrees(run.angles[-1]):.1f} deg at the end; hinge points {run.drift * 100:.2f} cm apart "
                 f"at most, {math.degrees(run.off_axis):.2f} deg off the axis")


@dataclass
class PendulumRun:
    angles: np.ndarray  # radians from the vertical, signed by the swing's direction along world X
    lengths: np.ndarray  # metres from the pivot to the bob's centre
    drift: float  # largest distance between the pin's two attachment points, metres
    crossings: int  # times the bob passed under the pivot


def pendulum_run(recording: Recording, bob: str, joint: str, anchor: str) -> PendulumRun:
    pivot = recording.tracks[anchor].locations
    offsets = recording.tracks[bob].locations - pivot
    angles = np.arctan2(offsets[:, 0], -offsets[:, 2])
    drift = float(np.max(np.linalg.norm(recording.tracks[joint].locations - pivot, axis=1)))
    crossings = int(np.count_nonzero(np.diff(np.sign(angles)) != 0))
    return PendulumRun(angles, np.linalg.norm(offsets, axis=1), drift, crossings)


def pendulum_check(run: PendulumRun) -> Check:
    """On its pin: constant length, pin points together, swings both ways, never higher than it started."""
    start = abs(run.angles[0])
    stretch = float(run.lengths.max() - run.lengths.min())
    passed = run.drift < JOINT_TOLERANCE and stretch < JOINT_TOLERANCE and run.crossings >= 2 \
        and run.angles.min() < -0.5 * start and np.abs(run.angles).max() <= start + ANGLE_TOLERANCE
    return Check("pendulum swings on its pin", passed,
                 f"from {math.degrees(run.angles[0]):.0f} deg, swings {math.degrees(run.angles.min()):.0f} to "
                 f"{math.degrees(run.angles.max()):.0f} deg, under the pivot {run.crossings} times; length "
                 f"{run.lengths.mean():.3f} m +- {stretch * 50:.2f} cm, pin points {run.drift * 100:.2f} cm apart "
                 "at most")


@dataclass
class Measurements:
    checks: list[Check] = field(default_factory=list)
    resting: list[Resting] = field(default_factory=list)
    ball: BallRun | None = None
    trigger_overlaps: list[int] = field(default_factory=list)
    door: HingeRun | None = None
    pendulum: PendulumRun | None = None
    door_animation: object = None  # demo_animation.DoorAnimation: the keyed motor, in the files and played
