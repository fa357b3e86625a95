"""The artist's session of issue 26, scripted through the add-on's operators: twelve mixed objects and a
plane floor tagged and fitted, a trigger and a hinge, Sync to Blender, play, export .glb, import into a
new scene, play again: every body rests where it rested before the export (the floor was a 1 m cube in the
file before the flat-fit fix, and 11 of 12 bodies fell through it)."""

from __future__ import annotations

import math
from pathlib import Path

import bpy
import pytest
from mathutils import Vector

FRAMES = 120
# Metres between the rest before export and after import. Measured on Blender 5.0.1: 0 to 2 cm for ten of
# the twelve bodies, 8.1 cm for the rolling Rock (an icosahedron: Bullet's contact order differs with the
# order the import creates the bodies in).
REST_TOLERANCE = 0.12


def select(*objects, active=None):
    """Its own copy, not export_support's: scripts/screenshots/overlay_undo.py loads this module outside pytest, where
    tests/blender's support modules are not importable."""
    for obj in bpy.context.view_layer.objects:
        obj.select_set(False)
    for obj in objects:
        obj.select_set(True)
    bpy.context.view_layer.objects.active = active or objects[0]


def add(operator, name: str, **options) -> bpy.types.Object:
    operator(**options)
    obj = bpy.context.active_object
    obj.name = name
    return obj


def run(operator, **options) -> None:
    assert operator(**options) == {'FINISHED'}, operator.idname_py()


def build_session() -> dict[str, list[bpy.types.Object]]:
    """The scene as the artist made it, by the sidebar's operators."""
    mesh = bpy.ops.mesh
    floor = add(mesh.primitive_plane_add, "Floor", size=16.0)
    boxes = [add(mesh.primitive_cube_add, "Crate", size=1.0, location=(-4.0, -4.0, 0.6)),
             add(mesh.primitive_cube_add, "SmallCrate", size=0.5, location=(-2.0, -4.0, 0.4),
                 rotation=(0.0, 0.0, math.radians(30.0))),
             add(mesh.primitive_cube_add, "Stacked", size=0.6, location=(-4.0, -4.0, 1.5))]
    spheres = [add(mesh.primitive_uv_sphere_add, "Ball", radius=0.35, location=(0.0, -4.0, 0.5)),
               add(mesh.primitive_uv_sphere_add, "Egg", radius=0.4, location=(2.0, -4.0, 0.8),
                   scale=(1.0, 1.0, 1.4))]
    barrels = [add(mesh.primitive_cylinder_add, "Barrel", radius=0.4, depth=1.0, location=(4.0, -4.0, 0.6)),
               add(mesh.primitive_cylinder_add, "Can", radius=0.2, depth=0.5, location=(4.0, -1.0, 0.3))]
    pillar = add(mesh.primitive_cylinder_add, "Pillar", radius=0.3, depth=3.0, location=(-4.0, 2.0, 0.4),
                 rotation=(0.0, math.radians(90.0), 0.0))  # lying: a capsule along its length
    hulls = [add(mesh.primitive_ico_sphere_add, "Rock", radius=0.5, subdivisions=1, location=(0.0, 2.0, 0.6)),
             add(mesh.primitive_cone_add, "Cone", radius1=0.5, depth=1.0, location=(2.0, 2.0, 0.6)),
             add(mesh.primitive_monkey_add, "Monkey", size=0.8, location=(4.0, 2.0, 0.6),
                 rotation=(math.radians(-90.0), 0.0, 0.0))]
    post = add(mesh.primitive_cube_add, "DoorPost", size=1.0, location=(0.0, 5.0, 1.0))
    post.scale = (0.2, 0.2, 2.0)
    door = add(mesh.primitive_cube_add, "Door", size=1.0, location=(0.0, 5.6, 1.02))
    door.scale = (0.1, 1.0, 1.96)
    zone = add(mesh.primitive_cube_add, "Zone", size=2.0, location=(6.0, 0.0, 1.0))
    bpy.context.view_layer.update()

    select(floor, *boxes, post, door)
    run(bpy.ops.omi.fit_collider, shape_type='BOX')
    select(*spheres)
    run(bpy.ops.omi.fit_collider, shape_type='SPHERE')
    select(*barrels)
    run(bpy.ops.omi.fit_collider, shape_type='CYLINDER')
    select(pillar)
    run(bpy.ops.omi.fit_collider, shape_type='CAPSULE')
    select(*hulls)
    run(bpy.ops.omi.fit_collider, shape_type='CONVEX')
    select(zone)
    run(bpy.ops.omi.fit_collider, shape_type='BOX', role='TRIGGER')
    dynamic = [*boxes, *spheres, *barrels, pillar, *hulls, door]
    select(*dynamic)
    run(bpy.ops.omi.make_body, motion_type='DYNAMIC')
    select(post)
    run(bpy.ops.omi.make_body, motion_type='STATIC')
    select(post, door, active=door)
    run(bpy.ops.omi.create_joint, preset='HINGE', axis='Z')
    return {"dynamic": dynamic, "static": [floor, post]}


def original_name(obj: bpy.types.Object) -> str:
    """The name the artist gave: an import beside the original scene makes 'Crate.001' of 'Crate'."""
    base, dot, number = obj.name.rpartition(".")
    return base if dot and number.isdigit() else obj.name


def simulate() -> dict[str, Vector]:
    """Play FRAMES frames from the start; where each dynamic body's object is then."""
    scene = bpy.context.scene
    scene.frame_start, scene.frame_end = 1, FRAMES
    cache = scene.rigidbody_world.point_cache
    cache.frame_start, cache.frame_end = 1, FRAMES
    for frame in range(1, FRAMES + 1):
        scene.frame_set(frame)
    rest = {original_name(obj): obj.matrix_world.translation.copy() for obj in scene.objects
            if obj.omi_physics.use_motion and obj.omi_physics.motion.motion_type == 'DYNAMIC'}
    scene.frame_set(1)
    return rest


def test_the_artists_scene_rests_the_same_after_export_and_import(omi, clean_scene, tmp_path: Path):
    made = build_session()
    assert len(made["dynamic"]) == 12
    run(bpy.ops.omi.sync_to_rigid_bodies)
    bpy.data.objects["Crate"].rigid_body.mass = 5.0  # edited in Blender's own Rigid Body panel
    before = simulate()
    assert all(position.z > 0.0 for position in before.values()), before  # the floor holds in Blender
    path = tmp_path / "session.glb"
    assert bpy.ops.export_scene.gltf(filepath=str(path), export_format='GLB') == {'FINISHED'}

    run(bpy.ops.scene.new, type='EMPTY')
    imported_scene = bpy.context.scene
    assert bpy.ops.import_scene.gltf(filepath=str(path)) == {'FINISHED'}
    assert bpy.context.scene == imported_scene
    crate = next(obj for obj in imported_scene.objects if original_name(obj) == "Crate")
    assert crate.omi_physics.motion.mass == pytest.approx(5.0) and crate.rigid_body.mass == pytest.approx(5.0)
    # Shapes off their object (the floor's box below the plane) or on a scaled object (door, post) are
    # child nodes in the file; the shape objects the import generates for them are out of sight.
    drawn = [obj.name for obj in imported_scene.objects if obj.get("omi_generated") and obj.visible_get()]
    assert drawn == []
    added = sorted(original_name(obj) for obj in imported_scene.objects
                   if ".collider" in obj.name and not obj.get("omi_generated"))
    assert added == ["Door.collider", "DoorPost.collider", "Floor.collider"], added  # no fitted 1e-8 m offset
    after = simulate()
    assert set(after) == set(before)
    assert all(position.z > 0.0 for position in after.values()), after  # nothing fell through the floor
    moved = {name: round((after[name] - before[name]).length, 4) for name in before}
    assert max(moved.values()) < REST_TOLERANCE, moved
