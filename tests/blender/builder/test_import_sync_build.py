"""`build_rigid_bodies` on objects authored in Blender (what the "settings -> Blender" operator calls):
bodies that are empties get a generated mesh object that carries their rigid body."""

from __future__ import annotations

from typing import Any

import bpy
import import_support as support
import pytest
from present import present


def cube(name: str, size, location=(0.0, 0.0, 0.0), parent=None) -> bpy.types.Object:
    import bmesh  # a module of bpy's: importable only once bpy is (the file then runs alone too)

    mesh = bpy.data.meshes.new(name)
    bm = bmesh.new()
    bmesh.ops.create_cube(bm, size=1.0)
    bmesh.ops.scale(bm, vec=size, verts=bm.verts[:])
    bm.to_mesh(mesh)
    bm.free()
    obj = bpy.data.objects.new(name, mesh)
    obj.location = location
    obj.parent = parent
    bpy.context.scene.collection.objects.link(obj)
    return obj


def collider(obj: bpy.types.Object, size) -> None:
    obj.omi_physics.use_collider = True
    obj.omi_physics.collider.shape.shape_type = 'BOX'
    obj.omi_physics.collider.shape.size = size


def authored_scene(motion: str = 'DYNAMIC'):
    bpy.ops.wm.read_homefile(use_empty=True)
    cart = bpy.data.objects.new("Cart", None)
    cart.location = (0.0, 0.0, 3.0)
    bpy.context.scene.collection.objects.link(cart)
    cart.omi_physics.use_motion = True
    cart.omi_physics.motion.motion_type = motion
    crate = cube("Crate", (2.0, 2.0, 2.0), parent=cart)
    collider(crate, (2.0, 2.0, 2.0))  # the crate's own mesh is the shape
    floor = bpy.data.objects.new("Floor", None)
    bpy.context.scene.collection.objects.link(floor)
    collider(floor, (10.0, 10.0, 0.1))
    return cart, crate, floor


def test_empty_body_gets_a_generated_rigid_body_that_it_follows(rigid_body, markers, rigid_body_plan):
    cart, crate, floor = authored_scene()
    issues: list[Any] = []
    rigid_body.build_rigid_bodies(bpy.context.scene, [cart, crate, floor], support.scene_settings(), issues)
    proxy = rigid_body_plan.rigid_object(cart)
    assert proxy is not None and proxy is not cart and markers.is_generated(proxy)
    assert proxy.rigid_body.type == 'ACTIVE' and cart.constraints[markers.FOLLOW].target == proxy
    assert present(support.shape_carrier(crate)).rigid_body.collision_shape == 'BOX'
    assert any("cannot be a Blender rigid body" in issue.message for issue in issues)
    floor_rigid = rigid_body_plan.rigid_object(floor)
    assert floor_rigid.rigid_body.type == 'PASSIVE'
    assert tuple(present(support.shape_carrier(floor)).dimensions) == pytest.approx((10.0, 10.0, 0.1))
    support.step()
    assert cart.matrix_world.translation.z == pytest.approx(0.05 + 1.0, abs=0.03)  # the crate stands on the floor
    assert crate.matrix_world.translation.z == pytest.approx(cart.matrix_world.translation.z)

    rigid_body.clear_rigid_bodies([cart, crate, floor])
    assert not any(markers.is_generated(obj) for obj in bpy.context.scene.objects)
    assert markers.FOLLOW not in cart.constraints
    assert all(obj.rigid_body is None for obj in bpy.context.scene.objects)


def test_kinematic_empty_body_leads_its_generated_rigid_body(rigid_body, markers, rigid_body_plan):
    cart, crate, floor = authored_scene('KINEMATIC')
    cart.keyframe_insert("location", frame=1)
    cart.location.x = 5.0
    cart.keyframe_insert("location", frame=30)
    rigid_body.build_rigid_bodies(bpy.context.scene, [cart, crate, floor], support.scene_settings(), [])
    proxy = rigid_body_plan.rigid_object(cart)
    assert proxy.rigid_body.kinematic and proxy.constraints[markers.FOLLOW].target == cart
    support.step(30)
    assert (proxy.matrix_world.translation - cart.matrix_world.translation).length < 1e-5
    assert cart.matrix_world.translation.x == pytest.approx(5.0)


def test_world_matrices_of_a_chain_deeper_than_pythons_recursion_limit(rigid_body_plan):
    """The build (and the import's structure prediction) read world matrices before Blender evaluates them;
    a 3,000-deep chain of parented empties (an imported file's nesting) must not exhaust Python's stack."""
    parent, chain = None, []
    for index in range(3000):
        obj = bpy.data.objects.new(f"Link{index}", None)
        obj.location, obj.rotation_euler, obj.parent = (1.0, 0.0, 0.0), (0.0, 0.0, 0.001), parent
        parent = obj
        chain.append(obj)
    frames = rigid_body_plan.Frames()
    expected = chain[0].matrix_basis.copy()
    for obj in chain[1:]:
        expected = expected @ obj.matrix_basis
    assert frames.world(chain[-1]) == expected  # the same products in the same order
    assert frames.world(chain[1]) == chain[0].matrix_basis @ chain[1].matrix_basis
