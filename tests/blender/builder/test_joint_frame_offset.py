"""A joint whose connected node is not at the joint's frame: the file's limits already hold the offset.

OMI measures the connected node's frame from the joint node's frame, so with the connected node 0.5 m
along a slider's axis at rest, a range [-0.5, 1.0] lets the joint's body travel from -0.5 m to +1.0 m
from where it starts (the offset moves from 0.5 to -0.5 and 1.0). Import builds Blender constraints that keep that
travel (measured by stepping the simulation), and export writes the same limits between the same frames:
the connected node stays the connected node (no new node at the joint frame, no silent shift).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import export_support
import import_support as support
import pytest
import schema_check
from mathutils import Matrix, Vector

pytestmark = pytest.mark.usefixtures("omi_addon")

BODY, JOINT = support.BODY, support.JOINT
TILT = math.radians(-30.0)  # the rail slopes down along its +X: gravity pulls the ball to the range's end
SLIDE = {"linearAxes": [0], "min": -0.5, "max": 1.0}  # the anchor's offset from the ball, along X
TURN = [0.0, 0.0, math.sin(TILT / 2), math.cos(TILT / 2)]


def _world(local: list[float]) -> list[float]:
    """A point given in the tilted post's frame, in glTF world axes."""
    return [local[0] * math.cos(TILT) - local[1] * math.sin(TILT),
            local[0] * math.sin(TILT) + local[1] * math.cos(TILT), local[2]]


def _slider_file(tmp_path: Path, name: str, anchor: list[float], *, joint_on_post: bool = False) -> Path:
    """A static, tilted post and a dynamic ball on a slider along the post's X.

    `anchor`: where the connected frame sits in the post's frame (the ball starts at the post's origin).
    With `joint_on_post` the joint node sits at the post's origin and is connected to the ball's own
    node, which then starts at `anchor`: the same travel seen from the other side.
    """
    across = {"linearAxes": [1], "min": anchor[1], "max": anchor[1]}
    limits = [SLIDE, across, {"linearAxes": [2], "min": 0.0, "max": 0.0},
              {"angularAxes": [0, 1, 2], "min": 0.0, "max": 0.0}]
    shapes = [{"type": "sphere", "sphere": {"radius": 0.1}}]
    post = {"name": "Post", "rotation": TURN, "children": [1], "extensions": {BODY: {"motion": {"type": "static"}}}}
    if joint_on_post:
        nodes = [post, {"name": "Joint", "extensions": {JOINT: {"joint": 0, "connectedNode": 2}}},
                 {"name": "Ball", "translation": _world(anchor), "rotation": TURN, "children": [3],
                  "extensions": {BODY: {"motion": {"type": "dynamic"}}}},
                 {"name": "BallShape", "extensions": {BODY: {"collider": {"shape": 0}}}}]
    else:
        nodes = [post, {"name": "Anchor", "translation": anchor},
                 {"name": "Ball", "rotation": TURN, "children": [3, 4],
                  "extensions": {BODY: {"motion": {"type": "dynamic"}}}},
                 {"name": "BallShape", "extensions": {BODY: {"collider": {"shape": 0}}}},
                 {"name": "Joint", "extensions": {JOINT: {"joint": 0, "connectedNode": 1}}}]
    return support.write_gltf(tmp_path, name, support.document(nodes, shapes, joints=[{"limits": limits}]))


def _to_gltf(matrix: Matrix) -> Matrix:
    return support.TO_BLENDER.inverted() @ matrix @ support.TO_BLENDER


def _simulated(measure: Callable[[Any], Any]) -> list:
    """`measure(scene)` at each of the first 120 simulated frames."""
    scene = support.bpy.context.scene
    scene.frame_start, scene.frame_end = 1, 120
    cache = scene.rigidbody_world.point_cache
    cache.frame_start, cache.frame_end = 1, max(cache.frame_end, 120)
    found = []
    for frame in range(1, 121):
        scene.frame_set(frame)
        found.append(measure(scene))
    return found


def _travel(ball_name: str = "Ball", post_name: str = "Post") -> list[Vector]:
    """The ball's origin in the post's frame (glTF axes), frame by frame over 120 frames."""
    return _simulated(lambda scene: _to_gltf(scene.objects[post_name].matrix_world).inverted()
                      @ _to_gltf(scene.objects[ball_name].matrix_world).translation)


def _assert_travel(positions: list[Vector], low: float, high: float, across: float) -> None:
    """The ball stays on the rail (at `across` beside the post's X axis) between `low` and `high`, and
    ends held at `high`, where gravity pushes it."""
    for position in positions:
        assert abs(position.y - across) < 5e-3 and abs(position.z) < 5e-3
        assert low - 0.01 <= position.x <= high + 0.01
    assert positions[-1].x == pytest.approx(high, abs=5e-3)


@pytest.mark.parametrize("anchor", [[0.5, 0.0, 0.0], [0.5, 0.3, 0.0]], ids=["along", "along_and_across"])
def test_offset_connected_node_keeps_travel_and_limits(tmp_path, canonical, anchor):
    path = _slider_file(tmp_path, "offset", anchor)
    support.import_gltf(path)
    # The anchor at a along X: its offset a - x from the ball stays in [-0.5, 1.0], so x in [a - 1, a + 0.5].
    low, high = anchor[0] - 1.0, anchor[0] + 0.5
    _assert_travel(_travel(), low, high, 0.0)

    support.bpy.context.scene.frame_set(1)
    exported = export_support.export(tmp_path, "exported")
    assert canonical.diff_physics(schema_check.load_gltf(path), exported.gltf) == []
    assert exported.joint("Joint")["connectedNode"] == exported.index("Anchor")
    assert not any(node.get("name", "").endswith(".connected") for node in exported.nodes)

    support.import_gltf(exported.path)
    _assert_travel(_travel(), low, high, 0.0)


def test_joint_on_the_static_side_stays_there_with_its_offset(tmp_path, canonical):
    """The joint under the static post, connected to the ball's own node 0.5 m along the rail (as the spec's
    pendulum examples place joints): the export keeps the joint on its node under the post, connected to
    the ball's node, and the re-import travels exactly as the file does."""
    path = _slider_file(tmp_path, "static_side", [0.5, 0.0, 0.0], joint_on_post=True)
    support.import_gltf(path)
    # The ball's offset from the post's origin stays in the file's range [-0.5, 1.0].
    _assert_travel(_travel(), -0.5, 1.0, 0.0)

    support.bpy.context.scene.frame_set(1)
    exported = export_support.export(tmp_path, "exported")
    assert canonical.diff_physics(schema_check.load_gltf(path), exported.gltf) == []
    assert exported.joint("Joint")["connectedNode"] == exported.index("Ball")
    assert exported.parent(exported.index("Joint")) == exported.index("Post")
    support.import_gltf(exported.path)
    _assert_travel(_travel(), -0.5, 1.0, 0.0)


def _hinge_file(tmp_path: Path, name: str, turn_degrees: float) -> Path:
    """A static post turned `turn_degrees` about glTF Z at the origin and a dynamic bob 1 m along +X on a
    hinge about Z: the joint node sits on the bob at the origin (unturned), connected to the post's own
    node, and the file's Z range [0, 60] degrees bounds the post's angle in the joint frame."""
    half = math.radians(turn_degrees) / 2
    limits = [{"linearAxes": [0, 1, 2], "min": 0.0, "max": 0.0}, {"angularAxes": [0, 1], "min": 0.0, "max": 0.0},
              {"angularAxes": [2], "min": 0.0, "max": math.radians(60.0)}]
    nodes = [{"name": "Post", "rotation": [0.0, 0.0, math.sin(half), math.cos(half)],
              "extensions": {BODY: {"motion": {"type": "static"}, "collider": {"shape": 0}}}},
             {"name": "Bob", "translation": [1.0, 0.0, 0.0], "children": [2],
              "extensions": {BODY: {"motion": {"type": "dynamic"}, "collider": {"shape": 0}}}},
             {"name": "Hinge", "translation": [-1.0, 0.0, 0.0],
              "extensions": {JOINT: {"joint": 0, "connectedNode": 0}}}]
    shapes = [{"type": "sphere", "sphere": {"radius": 0.1}}]
    return support.write_gltf(tmp_path, name, support.document(nodes, shapes, joints=[{"limits": limits}]))


def _swing() -> list[float]:
    """The bob's angle about the hinge (degrees, glTF Z, 0 at +X), frame by frame over 120 frames."""
    def angle(scene: Any) -> float:
        position = _to_gltf(scene.objects["Bob"].matrix_world).translation
        return math.degrees(math.atan2(position.y, position.x))

    return _simulated(angle)


@pytest.mark.parametrize("turn", [0.0, 30.0])
def test_connected_node_turned_against_the_joint_keeps_its_angles(tmp_path, canonical, turn):
    """The post's angle in the bob's joint frame is turn - a for a bob swung to a, so the file's range
    [0, 60] lets the bob swing over [turn - 60, turn]; gravity holds it at turn - 60 (the bob hangs from
    +X downwards). Blender measures angles from the start, so the build shifts the range by the post's
    starting turn; the export keeps the post's own node as the connected node with the file's range."""
    path = _hinge_file(tmp_path, "hinge", turn)
    assert support.import_gltf(path).failures == []
    low, high = turn - 60.0, turn

    def assert_swing(angles: list[float]) -> None:
        assert all(low - 1.0 <= angle <= max(high, 0.0) + 1.0 for angle in angles)
        assert angles[-1] == pytest.approx(low, abs=1.0)

    assert_swing(_swing())
    support.bpy.context.scene.frame_set(1)
    exported = export_support.export(tmp_path, "exported")
    assert canonical.diff_physics(schema_check.load_gltf(path), exported.gltf) == []
    assert exported.joint("Hinge")["connectedNode"] == exported.index("Post")
    assert not any(node.get("name", "").endswith(".connected") for node in exported.nodes)
    assert [text for text in exported.messages if "turned" in text] == []

    support.import_gltf(exported.path)
    assert_swing(_swing())


def test_a_turn_about_two_axes_is_named_at_import_and_export(tmp_path, canonical):
    """A post turned about X and Z against the hinge: Blender's build cannot shift the angles (they do not add
    up axis by axis), so the import names that, and the export, which writes the file's meaning unchanged,
    warns naming the joint object, the connected object and the angle."""
    path = _hinge_file(tmp_path, "two_axes", 30.0)
    document = schema_check.load_gltf(path)
    tilt = Matrix.Rotation(math.radians(20.0), 4, 'X').to_quaternion()
    turn = Matrix.Rotation(math.radians(30.0), 4, 'Z').to_quaternion() @ tilt
    document["nodes"][0]["rotation"] = [turn.x, turn.y, turn.z, turn.w]
    path = support.write_gltf(tmp_path, "two_axes", document)
    imported = support.import_gltf(path)
    assert any("more than one axis" in text for _level, text in imported.messages)
    exported = export_support.export(tmp_path, "exported")
    assert canonical.diff_physics(document, exported.gltf) == []
    (warning,) = exported.warnings("'Hinge'", "'Post'")
    assert "more than one axis" in warning and "degrees" in warning
