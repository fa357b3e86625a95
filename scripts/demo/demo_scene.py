"""The demo's physics scene, built the way an artist would: meshes first, then the add-on's operators.

A ball rolls down a ramp, through a trigger zone, and pushes open a hinged door; next to it a stack of
boxes stands still and a pendulum swings from a beam on a pin joint. Every OMI setting is made by a
`bpy.ops.omi.*` operator (fit collider, make body, library presets, assign material and filter,
create joint, validate), so the demo exercises the same code paths as the sidebar's buttons.

Blender axes (Z up, metres). The ball runs along +X at y = 0.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import bpy
from mathutils import Euler, Matrix, Vector

RAMP_SLOPE = math.radians(20.0)
RAMP_SIZE = (4.0, 1.2, 0.2)
RAMP_FOOT_X = -2.5  # where the ramp's top surface meets the floor
BALL_RADIUS = 0.25
TRIGGER_CENTER = (-1.0, 0.0, 0.5)
TRIGGER_SIZE = (1.0, 1.6, 1.0)
DOOR_X = 1.5
DOOR_SIZE = (0.1, 1.6, 1.8)  # thickness, width, height: opened to DOOR_SWING it clears the ball's path
DOOR_GAP = 0.05  # between the door's bottom and the floor
DOOR_SWING = math.radians(75.0)  # the hinge opens either way up to this angle
STACK_XY = (2.5, 2.2)
STACK_BOX = 0.5
STACK_COUNT = 4
PIVOT = Vector((-3.0, 2.4, 3.0))
PENDULUM_LENGTH = 1.8
PENDULUM_START = math.radians(50.0)  # from the vertical, in the XZ plane
BOB_RADIUS = 0.25
BACKSTOP_X = 4.6

# Base colours of the render materials (they travel through glTF as baseColorFactor).
COLOURS = {
    "Floor": (0.55, 0.56, 0.58, 1.0),
    "Ramp": (0.62, 0.42, 0.24, 1.0),
    "Ball": (0.85, 0.12, 0.10, 1.0),
    "Box": (0.90, 0.60, 0.15, 1.0),
    "BoxLight": (0.95, 0.85, 0.55, 1.0),
    "Door": (0.15, 0.35, 0.75, 1.0),
    "Frame": (0.20, 0.20, 0.22, 1.0),
    "Trigger": (0.90, 0.20, 0.80, 0.25),
    "Bob": (0.95, 0.85, 0.20, 1.0),
    "Backstop": (0.40, 0.40, 0.42, 1.0),
}


@dataclass(frozen=True)
class Roles:
    """Names of the demo's objects, by what they do (the import keeps node names)."""

    ball: str = "Ball"
    ramp: str = "Ramp"
    floor: str = "Floor"
    trigger: str = "TriggerZone"
    door: str = "Door"
    door_post: str = "DoorPost"
    door_joint: str = "Door.joint"
    door_anchor: str = "DoorPost.anchor"
    bob: str = "PendulumBob"
    beam: str = "Beam"
    pendulum_joint: str = "PendulumBob.joint"
    pendulum_anchor: str = "Beam.anchor"
    boxes: tuple[str, ...] = tuple(f"Box{index + 1}" for index in range(STACK_COUNT))


ROLES = Roles()


# --- geometry (plain Blender, no physics yet) ------------------------------------------------------


def _material(name: str) -> bpy.types.Material:
    material = bpy.data.materials.get(name)
    if material is None:
        material = bpy.data.materials.new(name)
        material.use_nodes = True
        colour = COLOURS[name]
        principled = material.node_tree.nodes.get("Principled BSDF")
        principled.inputs["Base Color"].default_value = colour
        principled.inputs["Roughness"].default_value = 0.6
        if colour[3] < 1.0:
            principled.inputs["Alpha"].default_value = colour[3]
            material.blend_method = 'BLEND'  # exported as alphaMode BLEND
        material.diffuse_color = colour
    return material


def _finish(obj: bpy.types.Object, name: str, material: str) -> bpy.types.Object:
    obj.name = name
    obj.data.name = name
    obj.data.materials.append(_material(material))
    return obj


def box(name: str, size, location, rotation=(0.0, 0.0, 0.0), material: str = "Frame") -> bpy.types.Object:
    """A box mesh of `size` with unit object scale (shapes on scaled nodes are not portable)."""
    bpy.ops.mesh.primitive_cube_add(size=1.0, location=location, rotation=rotation)
    obj = bpy.context.active_object
    obj.data.transform(Matrix.Diagonal((*size, 1.0)))
    return _finish(obj, name, material)


def ball(name: str, radius: float, location, material: str) -> bpy.types.Object:
    bpy.ops.mesh.primitive_uv_sphere_add(radius=radius, segments=24, ring_count=12, location=location)
    obj = bpy.context.active_object
    obj.data.shade_smooth()
    return _finish(obj, name, material)


def rod(name: str, length: float, parent: bpy.types.Object, direction: Vector) -> bpy.types.Object:
    """A thin visual rod (no physics) from the parent's origin along `direction`, parented to it."""
    middle = parent.location + direction.normalized() * (length / 2)
    bpy.ops.mesh.primitive_cylinder_add(radius=0.025, depth=length, vertices=8, location=middle,
                                        rotation=direction.to_track_quat('Z', 'Y').to_euler())
    obj = _finish(bpy.context.active_object, name, "Frame")
    obj.parent = parent
    obj.matrix_parent_inverse = parent.matrix_basis.inverted()  # stays where it is (the parent is a root)
    return obj


def ramp_matrix() -> Matrix:
    """The ramp's world matrix: tilted about Y so its top surface runs down towards +X to RAMP_FOOT_X."""
    rotation = Euler((0.0, RAMP_SLOPE, 0.0)).to_matrix()
    foot_local = Vector((RAMP_SIZE[0] / 2, 0.0, RAMP_SIZE[2] / 2))  # the lower end of the top face
    center = Vector((RAMP_FOOT_X, 0.0, 0.0)) - rotation @ foot_local
    return Matrix.Translation(center) @ rotation.to_4x4()


def ball_start() -> Vector:
    """On the ramp's top surface, 0.4 m below its upper end."""
    local = Vector((-RAMP_SIZE[0] / 2 + 0.4, 0.0, RAMP_SIZE[2] / 2 + BALL_RADIUS + 0.01))
    return ramp_matrix() @ local


def bob_start() -> Vector:
    return PIVOT + Vector((math.sin(PENDULUM_START), 0.0, -math.cos(PENDULUM_START))) * PENDULUM_LENGTH


# --- physics through the add-on's operators --------------------------------------------------------


def select(*objects: bpy.types.Object, active: bpy.types.Object | None = None) -> None:
    view_layer = bpy.context.view_layer
    for obj in view_layer.objects:
        obj.select_set(False)
    for obj in objects:
        obj.select_set(True)
    view_layer.objects.active = active or (objects[-1] if objects else None)


def run(operator, **properties) -> None:
    """Call an operator and stop the demo when it refuses; what it did is checked on the exported file."""
    result = operator(**properties)
    if result != {'FINISHED'}:
        raise RuntimeError(f"{operator.idname_py()}({properties}) returned {result}")


def joint_at(host: bpy.types.Object, other: bpy.types.Object, where: Vector, **preset) -> None:
    """Create a joint between two bodies at `where` (the 3D cursor, world-aligned)."""
    cursor = bpy.context.scene.cursor
    cursor.location = where
    cursor.rotation_euler = (0.0, 0.0, 0.0)
    select(other, host, active=host)
    run(bpy.ops.omi.create_joint, location='CURSOR', **preset)


def build_scene(*, fresh: bool = True) -> None:
    """The demo's meshes and OMI settings, in a fresh file (or, `fresh=False`, in the current scene)."""
    if fresh:
        bpy.ops.wm.read_homefile(use_empty=True)
    scene = bpy.context.scene
    scene.frame_start, scene.frame_end = 1, 120

    floor = box(ROLES.floor, (12.5, 6.0, 0.2), (-1.0, 0.8, -0.1), material="Floor")
    backstop = box("Backstop", (0.3, 2.0, 0.6), (BACKSTOP_X, 0.0, 0.3), material="Backstop")
    ramp = box(ROLES.ramp, RAMP_SIZE, (0.0, 0.0, 0.0), material="Ramp")
    ramp.matrix_world = ramp_matrix()
    the_ball = ball(ROLES.ball, BALL_RADIUS, ball_start(), "Ball")
    trigger = box(ROLES.trigger, TRIGGER_SIZE, TRIGGER_CENTER, material="Trigger")
    door_z = DOOR_GAP + DOOR_SIZE[2] / 2
    door = box(ROLES.door, DOOR_SIZE, (DOOR_X, 0.0, door_z), material="Door")
    post = box(ROLES.door_post, (0.2, 0.2, 2.0), (DOOR_X, -DOOR_SIZE[1] / 2 - 0.1, 1.0))
    shades = ("Box", "BoxLight")
    boxes = [box(name, (STACK_BOX,) * 3, (*STACK_XY, STACK_BOX * (index + 0.5)), material=shades[index % 2])
             for index, name in enumerate(ROLES.boxes)]
    beam = box(ROLES.beam, (0.2, 1.0, 0.2), PIVOT + Vector((0.0, 0.4, 0.1)))
    beam_post = box("BeamPost", (0.2, 0.2, PIVOT.z + 0.2), (PIVOT.x, PIVOT.y + 1.0, (PIVOT.z + 0.2) / 2))
    bob = ball(ROLES.bob, BOB_RADIUS, bob_start(), "Bob")
    rod("PendulumRod", PENDULUM_LENGTH - BOB_RADIUS, bob, PIVOT - bob.location)

    # Libraries: two physics materials and two collision layers from the presets.
    for kind, preset in (('MATERIAL', "Rubber"), ('MATERIAL', "Wood"), ('FILTER', "Player"), ('FILTER', "Trigger")):
        run(bpy.ops.omi.library_add_preset, kind=kind, preset=preset)

    # Colliders: boxes fitted to the boxes, spheres to the balls; the trigger zone as a trigger.
    select(floor, backstop, ramp, door, post, beam, beam_post, *boxes)
    run(bpy.ops.omi.fit_collider, shape_type='BOX')
    select(the_ball, bob)
    run(bpy.ops.omi.fit_collider, shape_type='SPHERE')
    select(trigger)
    run(bpy.ops.omi.fit_collider, shape_type='BOX', role='TRIGGER')

    # Bodies: what moves is dynamic, the door's post and the beam are static bodies to hold joints.
    select(the_ball, door, bob, *boxes)
    run(bpy.ops.omi.make_body, motion_type='DYNAMIC')
    select(post, beam)
    run(bpy.ops.omi.make_body, motion_type='STATIC')
    the_ball.omi_physics.motion.mass = 2.0

    select(the_ball)
    run(bpy.ops.omi.assign_material, material="Rubber")
    run(bpy.ops.omi.assign_filter, collision_filter="Player")
    select(*boxes, ramp)
    run(bpy.ops.omi.assign_material, material="Wood")
    select(trigger)
    run(bpy.ops.omi.assign_filter, collision_filter="Trigger")

    # Joints: the door turns about the vertical at its edge; the pendulum hangs from the beam on a pin.
    hinge_at = Vector((DOOR_X, -DOOR_SIZE[1] / 2, door_z))
    joint_at(door, post, hinge_at, preset='HINGE', axis='Z', angle_min=-DOOR_SWING, angle_max=DOOR_SWING)
    joint_at(bob, beam, PIVOT, preset='PIN')

    run(bpy.ops.omi.validate_scene)


def validation_problems() -> list[tuple[str, str, str]]:
    """(severity, object, message) of each problem the Validate operator listed."""
    state = bpy.context.window_manager.omi_authoring
    return [(problem.severity, problem.name, problem.message) for problem in state.problems]
