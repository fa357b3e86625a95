"""An export of a big scene says each kind of finding once, its objects counted and the first few named."""

from __future__ import annotations

import bpy
import export_support as support
import pytest

pytestmark = pytest.mark.usefixtures("omi_addon")


def hinged_chain(count: int) -> None:
    """`count` + 1 untagged rigid-body cubes in a row, each pair joined by a Blender hinge (no OMI settings)."""
    world = support.rigid_body_world()
    cubes = [support.mesh_object(f"Body{index}", location=(2.0 * index, 0.0, 0.0)) for index in range(count + 1)]
    hinges = [support.empty(f"Hinge{index}", (2.0 * index + 1.0, 0.0, 0.0)) for index in range(count)]
    for cube in cubes:
        world.collection.objects.link(cube)
    for hinge in hinges:
        world.constraints.objects.link(hinge)
    bpy.context.view_layer.update()  # linking made the rigid bodies and constraints
    for index, hinge in enumerate(hinges):
        constraint = hinge.rigid_body_constraint
        constraint.type = 'HINGE'
        constraint.object1, constraint.object2 = cubes[index], cubes[index + 1]


def test_two_hundred_hinges_export_with_at_most_twenty_message_lines(clean_scene, tmp_path):
    hinged_chain(200)
    exported = support.export(tmp_path, "chain")
    assert len(exported.gltf["extensions"][support.JOINT]["physicsJoints"]) >= 1
    ours = [text for text in exported.messages if "OMI physics: " in text]
    assert 0 < len(ours) <= 20, "\n".join(ours)
    helper = [text for text in ours if "is written on a new node" in text]  # the joint's and the connected frame
    assert len(helper) == 2 and all("'Hinge0'" in text and "(200)" in text for text in helper), helper
