"""A door hinged to a frame the way an artist makes it, built by the live link: the scene of the tests of
Blender-side constraint edits (tests/blender/builder/test_joint_readback.py,
tests/blender/operators/test_live_link_constraints.py)."""

from __future__ import annotations

from typing import Any

import addon_loader
import bpy
from export_support import select


def live_hinge(door: str = "Door", axis: str = 'Z', **options: Any) -> tuple[Any, bpy.types.Object]:
    """A dynamic `door` hinged about `axis` (-1 to 1 rad) to a static "Frame" with Create Joint (at the
    frame's origin), built live: (the live-link module, the joint's object). The live link says each message
    once per session: a test that wants one names its door anew."""
    bodies = []
    for name, location, motion in ((door, (1.0, 0.0, 1.0), 'DYNAMIC'), ("Frame", (0.0, 0.0, 1.0), 'STATIC')):
        bpy.ops.mesh.primitive_cube_add(size=1.0, location=location)
        obj = bpy.context.active_object
        assert obj is not None
        obj.name = name
        select(obj, active=obj)
        assert bpy.ops.omi.make_body(motion_type=motion) == {'FINISHED'}
        assert bpy.ops.omi.fit_collider(shape_type='BOX') == {'FINISHED'}
        bodies.append(obj)
    select(*bodies, active=bodies[1])
    assert bpy.ops.omi.create_joint(preset='HINGE', axis=axis, angle_min=-1.0, angle_max=1.0, location='ACTIVE',
                                    **options) == {'FINISHED'}
    link = addon_loader.module("operators.live_link")
    link.flush(bpy.context.scene)
    [joint] = [obj for obj in bpy.context.scene.objects if obj.omi_physics.use_joint]
    return link, joint
