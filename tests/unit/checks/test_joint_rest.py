"""io/omi/checks/joint_rest: joints whose connected node starts outside the joint's own limits, from the file
alone (the spec's limit metrics on the nodes' world frames); and io/omi/node_poses, the world frames.
Small hand-made files: a slider and a hinge, each inside and outside its limits. Pure: runs without bpy."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hostile.corpus import HINGE_LIMITS, SLIDER_LIMITS, joint_document, turn_z
from omi_core import node_poses
from omi_core.checks import joint_rest
from omi_core.read import reader
from omi_core.write import dialect_convert


def said(joint_rest: Any, document: dict[str, Any]) -> list[str]:
    doc = reader.read_document(document)
    return [f"{found.pointer}: {found.message}" for found in joint_rest.check(document, doc)]


def test_a_slider_inside_its_limits_says_nothing() -> None:
    assert said(joint_rest, joint_document(SLIDER_LIMITS, {"translation": [0.8, 0, 0]})) == []
    assert said(joint_rest, joint_document(SLIDER_LIMITS, {"translation": [-1.0, 0, 0]})) == []  # at the limit
    # the carriage moved and turned: the joint frame moves with it, the rail sits 0.5 along its X axis
    turned = turn_z(math.pi / 2)
    assert said(joint_rest, joint_document(SLIDER_LIMITS, {"translation": [2.0, 0.5, 0], "rotation": turned},
                                           carriage={"translation": [2.0, 0, 0], "rotation": turned})) == []


def test_a_slider_beyond_its_max_names_the_axis_and_by_how_much() -> None:
    assert said(joint_rest, joint_document(SLIDER_LIMITS, {"translation": [1.5, 0, 0]})) == [
        "/nodes/2: the connected node 'Rail' starts 1.5 m along the joint's X axis, 0.5 m beyond the limit's max "
        "1 m; physics engines (Blender's too) pull the bodies there on the first step"]
    below = said(joint_rest, joint_document(SLIDER_LIMITS, {"translation": [-1.25, 0, 0]}))
    assert len(below) == 1 and "-1.25 m along the joint's X axis, 0.25 m beyond the limit's min -1 m" in below[0]
    off_line = said(joint_rest, joint_document(SLIDER_LIMITS, {"translation": [0.5, 0.3, 0.4]}))
    assert len(off_line) == 1 and "0.5 m from the joint's X axis (the limit on Y and Z)" in off_line[0]


def test_the_joint_frame_inside_its_body_counts() -> None:
    """The joint node sits 2 m along X in its body: the rail at x = 2.5 is 0.5 along the joint's X."""
    moved = joint_document(SLIDER_LIMITS, {"translation": [2.5, 0, 0]}, joint={"translation": [2.0, 0, 0]})
    assert said(joint_rest, moved) == []
    scaled = joint_document(SLIDER_LIMITS, {"translation": [2.5, 0, 0]}, joint={"translation": [1.0, 0, 0]},
                        carriage={"scale": [2.0, 2.0, 2.0]})  # the body's scale moves its joint node
    assert said(joint_rest, scaled) == []


def test_a_hinge_inside_its_limits_says_nothing() -> None:
    assert said(joint_rest, joint_document(HINGE_LIMITS, {"rotation": turn_z(0.4)})) == []
    assert said(joint_rest, joint_document(HINGE_LIMITS, {"rotation": turn_z(-0.5)})) == []


def test_a_hinge_turned_past_its_limit_names_the_axis_and_by_how_much() -> None:
    assert said(joint_rest, joint_document(HINGE_LIMITS, {"rotation": turn_z(0.7)})) == [
        f"/nodes/2: the connected node 'Rail' starts turned {math.degrees(0.7):.3g}° about the joint's Z axis, "
        f"{math.degrees(0.2):.3g}° beyond the limit's max {math.degrees(0.5):.3g}°; physics engines (Blender's too) "
        "pull the bodies there on the first step"]
    below = said(joint_rest, joint_document(HINGE_LIMITS, {"rotation": turn_z(-0.9)}))
    assert len(below) == 1 and "beyond the limit's min" in below[0]
    tilted = said(joint_rest, joint_document(HINGE_LIMITS, {"rotation": [math.sin(0.1), 0, 0, math.cos(0.1)]}))
    assert len(tilted) == 1 and "with its Z axis 11.5° away from the joint's" in tilted[0]
    apart = said(joint_rest, joint_document(HINGE_LIMITS, {"translation": [0, 0.1, 0]}))
    assert len(apart) == 1 and "0.1 m from the joint frame's origin" in apart[0]


def test_a_matrix_and_a_trs_give_the_same_pose() -> None:
    poses = node_poses
    angle = 0.3
    trs = poses.local_pose({"translation": [1, 2, 3], "rotation": turn_z(angle), "scale": [2, 2, 2]})
    c, s = math.cos(angle), math.sin(angle)
    matrix = poses.local_pose({"matrix": [2 * c, 2 * s, 0, 0, -2 * s, 2 * c, 0, 0, 0, 0, 2, 0, 1, 2, 3, 1]})
    assert matrix.translation == pytest.approx(trs.translation) and matrix.scale == pytest.approx(trs.scale)
    assert matrix.rotation == pytest.approx(trs.rotation)


@pytest.mark.slow
def test_world_poses_walk_a_deep_chain_without_recursion() -> None:
    poses = node_poses
    depth = 50_000
    nodes = [{"translation": [0, 1, 0]} for _ in range(depth)]
    world = poses.world_poses(nodes, {index + 1: index for index in range(depth - 1)}, [depth - 1])
    assert world[depth - 1].translation == pytest.approx((0, depth, 0))


def test_the_khr_spelling_is_checked_the_same_way() -> None:
    """The same slider written as KHR_physics_rigid_bodies (the project's own converter) warns the same."""
    omi = joint_document(SLIDER_LIMITS, {"translation": [1.5, 0, 0]})
    khr = dialect_convert.convert(omi, "KHR").document
    assert "KHR_physics_rigid_bodies" in khr["extensionsUsed"] and "OMI_physics_joint" not in khr["extensionsUsed"]
    assert said(joint_rest, khr) == said(joint_rest, omi) != []
