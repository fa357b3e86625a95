"""Scenes for the Godot tests, built in Blender: every Blender collision shape and body type, scaled and
rotated objects, a compound body, over a floor (the physics run drops them onto it)."""

from __future__ import annotations

import math

import bpy
import export_support as support
from mathutils import Matrix


def floor() -> bpy.types.Object:
    obj = support.mesh_object("Floor", location=(0.0, 0.0, -0.5))
    obj.data.transform(Matrix.Diagonal((30.0, 30.0, 1.0, 1.0)))
    support.add_rigid_body(obj, 'PASSIVE', 'BOX')
    return obj


def _shaped(name: str, kind: str, x: float, stretch: tuple[float, float, float], shape: str, *,
            z: float = 1.5, body: str = 'ACTIVE', **values) -> bpy.types.Object:
    obj = support.mesh_object(name, kind, location=(x, 0.0, z))
    obj.data.transform(Matrix.Diagonal((*stretch, 1.0)))
    support.add_rigid_body(obj, body, shape, **values)
    return obj


def build_shapes_and_bodies() -> None:
    """One body per Blender collision shape, side by side 3 m apart, each dropped from 1.5 m (or resting)."""
    bpy.ops.wm.read_homefile(use_empty=True)
    floor()
    _shaped("Box", "cube", -12.0, (1.0, 0.6, 0.4), 'BOX', mass=2.0)
    _shaped("Sphere", "ico", -9.0, (0.8, 0.8, 0.8), 'SPHERE', mass=1.5)
    _shaped("Capsule", "cylinder", -6.0, (0.6, 0.6, 2.0), 'CAPSULE', z=1.0)  # radius 0.3, full height 2
    _shaped("Cylinder", "cylinder", -3.0, (0.6, 0.6, 1.0), 'CYLINDER', mass=3.0)
    _shaped("Cone", "cone", 0.0, (1.0, 1.0, 1.0), 'CONE', z=0.5)
    _shaped("Hull", "ico", 3.0, (1.0, 1.0, 1.0), 'CONVEX_HULL', mass=0.5)
    _shaped("Static", "cube", 6.0, (1.0, 1.0, 1.0), 'BOX', z=0.5, body='PASSIVE')
    _shaped("Kinematic", "cube", 9.0, (1.0, 1.0, 1.0), 'BOX', z=2.0, body='PASSIVE', kinematic=True)
    _shaped("TriMesh", "cube", 12.0, (2.0, 2.0, 0.2), 'MESH', z=0.1, body='PASSIVE')
    trigger = support.mesh_object("Trigger", location=(0.0, 4.0, 1.0))
    support.tag_shape(trigger, "trigger", 'BOX', size=(2.0, 2.0, 2.0))


def build_transformed() -> None:
    """Scaled and rotated bodies (the scale on the object, not the mesh) and a compound body."""
    bpy.ops.wm.read_homefile(use_empty=True)
    floor()
    box = support.mesh_object("ScaledBox", location=(-4.0, 0.0, 2.0), rotation=(0.3, 0.2, 0.5), scale=(2.0, 1.0, 0.5))
    support.add_rigid_body(box, 'ACTIVE', 'BOX', mass=4.0)
    ball = support.mesh_object("ScaledBall", "ico", location=(0.0, 0.0, 2.0), scale=(1.5, 1.5, 1.5))
    support.add_rigid_body(ball, 'ACTIVE', 'SPHERE')
    hull = support.mesh_object("ScaledHull", "ico", location=(-4.0, -4.0, 2.0), scale=(1.5, 1.5, 1.5))
    support.add_rigid_body(hull, 'ACTIVE', 'CONVEX_HULL')  # Godot scales a hull only on its shape's node
    tilted = support.mesh_object("Tilted", location=(4.0, 0.0, 0.5), rotation=(0.0, 0.0, math.radians(30.0)))
    support.add_rigid_body(tilted, 'PASSIVE', 'BOX')
    cart = support.mesh_object("Cart", location=(0.0, 4.0, 1.5))
    support.add_rigid_body(cart, 'ACTIVE', 'COMPOUND', mass=5.0)
    for index, x in enumerate((-1.0, 1.0)):
        wheel = support.mesh_object(f"Wheel{index}", "ico", location=(x, 0.0, -0.5))
        wheel.parent = cart
        support.add_rigid_body(wheel, 'ACTIVE', 'SPHERE')
