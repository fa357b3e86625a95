"""Joint scenes made as an artist makes them with the add-on (OMI bodies, joints by its Create Joint
operator at the 3D cursor), side by side 3 m apart: each starts out of balance, so gravity moves it."""

from __future__ import annotations

import bpy
import export_support as support
from mathutils import Matrix


def body(name: str, location: tuple[float, float, float], size: tuple[float, float, float], motion: str = 'DYNAMIC',
         mass: float = 1.0) -> bpy.types.Object:
    obj = support.mesh_object(name, location=location)
    obj.data.transform(Matrix.Diagonal((*size, 1.0)))
    support.tag_motion(obj, motion, **({"mass": mass} if motion == 'DYNAMIC' else {}))
    support.tag_shape(obj, "collider", 'BOX', size=size)
    return obj


def joint(active: bpy.types.Object, other: bpy.types.Object, where: tuple[float, float, float], **options) -> None:
    """The add-on's Create Joint between two bodies, its frame at `where` in world axes."""
    bpy.context.scene.cursor.location = where
    bpy.context.scene.cursor.rotation_euler = (0.0, 0.0, 0.0)
    bpy.context.view_layer.update()
    support.select(active, other, active=active)
    assert bpy.ops.omi.create_joint(location='CURSOR', **options) == {'FINISHED'}


def build_joints() -> list[str]:
    """A hinge, a slider, a pin, a weld and a 6-link chain; the names of the moving bodies."""
    bpy.ops.wm.read_homefile(use_empty=True)
    # A hinge about Blender's Y (glTF -Z) with an uneven range: the arm falls from level onto one end of it.
    post = body("Post", (0.0, 0.0, 2.0), (0.2, 0.2, 0.2), 'STATIC')
    arm = body("Arm", (0.6, 0.0, 2.0), (1.0, 0.1, 0.1))
    joint(post, arm, (0.0, 0.0, 2.0), preset='HINGE', axis='Y', angle_min=-0.4, angle_max=1.2)
    # The same hinge about Blender's X (glTF X), the flap along Y.
    hanger = body("Hanger", (16.0, 0.0, 2.0), (0.2, 0.2, 0.2), 'STATIC')
    flap = body("Flap", (16.0, 0.6, 2.0), (0.1, 1.0, 0.1))
    joint(hanger, flap, (16.0, 0.0, 2.0), preset='HINGE', axis='X', angle_min=-0.4, angle_max=1.2)
    # A slider along Blender's Z (glTF Y) with an uneven range: the carriage drops to one end of it.
    rail = body("Rail", (3.0, 0.0, 2.0), (0.1, 0.1, 2.0), 'STATIC')
    carriage = body("Carriage", (3.2, 0.0, 2.0), (0.3, 0.3, 0.3))
    joint(rail, carriage, (3.2, 0.0, 2.0), preset='SLIDER', axis='Z', distance_min=-0.6, distance_max=0.2)
    # A pin: a pendulum released level.
    hook = body("Hook", (6.0, 0.0, 3.0), (0.1, 0.1, 0.1), 'STATIC')
    bob = body("Bob", (7.0, 0.0, 3.0), (0.2, 0.2, 0.2), mass=2.0)
    joint(hook, bob, (6.0, 0.0, 3.0), preset='PIN')
    # A weld: a shelf held level by a wall.
    wall = body("Wall", (9.0, 0.0, 2.0), (0.2, 1.0, 1.0), 'STATIC')
    shelf = body("Shelf", (9.6, 0.0, 2.0), (1.0, 0.6, 0.05))
    joint(wall, shelf, (9.1, 0.0, 2.0), preset='FIXED')
    # A chain of six links, pinned end to end, released level from an anchor.
    previous = body("Anchor", (12.0, 0.0, 4.0), (0.1, 0.1, 0.1), 'STATIC')
    moving = [arm.name, flap.name, carriage.name, bob.name, shelf.name]
    for index in range(6):
        link = body(f"Link{index}", (12.2 + 0.4 * index, 0.0, 4.0), (0.36, 0.08, 0.08), mass=0.5)
        joint(previous, link, (12.0 + 0.4 * index, 0.0, 4.0), preset='PIN')
        previous = link
        moving.append(link.name)
    return moving




def build_motor(axis: str = 'Y') -> str:
    """A bar turning on a hinge about its middle (gravity gives it no torque), driven by the add-on's motor
    (Add Joint Drive: 1 rad/s); the bar's name."""
    bpy.ops.wm.read_homefile(use_empty=True)
    post = body("Axle", (0.0, 0.0, 2.0), (0.1, 0.1, 0.1), 'STATIC')
    size = {'X': (0.1, 1.0, 0.1), 'Y': (1.0, 0.1, 0.1), 'Z': (1.0, 0.1, 0.1)}[axis]
    bar = body("Bar", (0.0, 0.0, 2.0), size)
    joint(post, bar, (0.0, 0.0, 2.0), preset='HINGE', axis=axis, angle_min=-3.0, angle_max=3.0)
    hinge = next(obj for obj in bar.children if obj.omi_physics.use_joint)
    support.select(hinge, active=hinge)
    assert bpy.ops.omi.joint_drive_add(kind='MOTOR') == {'FINISHED'}
    return bar.name
