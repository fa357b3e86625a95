"""The README's one-minute tutorial scene, made as it says: a 2 m cube (the crate) 3 m up and a plane (the
floor) scaled up, each fitted a box collider and made a body with the sidebar's operators."""

from __future__ import annotations

import bpy

CRATE_HEIGHT = 3.0


def _select(obj: bpy.types.Object) -> None:
    bpy.ops.object.select_all(action='DESELECT')
    obj.select_set(True)
    bpy.context.view_layer.objects.active = obj


def build() -> tuple[bpy.types.Object, bpy.types.Object]:
    """The crate and the floor in an emptied scene, tagged (Fit Collider > Box, Body > Dynamic / Static)."""
    bpy.ops.wm.read_homefile(use_empty=True)
    bpy.ops.mesh.primitive_cube_add(location=(0.0, 0.0, CRATE_HEIGHT))
    crate = bpy.context.active_object
    crate.name = "Crate"
    bpy.ops.mesh.primitive_plane_add(size=2.0)
    floor = bpy.context.active_object
    floor.name, floor.scale = "Floor", (10.0, 10.0, 1.0)
    for obj, motion in ((crate, 'DYNAMIC'), (floor, 'STATIC')):
        _select(obj)
        assert bpy.ops.omi.fit_collider(shape_type='BOX') == {'FINISHED'}
        assert bpy.ops.omi.make_body(motion_type=motion) == {'FINISHED'}
    return crate, floor
