"""The `godot_omi` export target's joint rewrite (io/omi/targets/godot/omi_godot.py), on JSON through the command
line's converter: frames turned so omi-godot's hinge turns about Z and its slider slides along X, Godot's
own softness and damping on rigid limits, hinge ranges mirrored, each said once; joints on nodes that hold
more than the frame get a new frame node. What omi-godot builds and simulates from such files is checked
in Godot by tests/godot/test_omi_godot_physics.py."""

from __future__ import annotations

import math
from typing import Any

import pytest
from omi_core.write import dialect_convert

FIXED_LINEAR = {"linearAxes": [0, 1, 2], "min": 0.0, "max": 0.0}
DYNAMIC, STATIC = {"type": "dynamic"}, {"type": "static"}
STEERING = "/extensions/OMI_vehicle_wheel/wheels/0/targetSteeringRatio"


def _doc(joints: list[dict[str, Any]], body_mesh: bool = False) -> dict[str, Any]:
    """A static body 0 with a joint frame node 1 (or the joint on a mesh node), a dynamic body 2 with
    the connected frame 3."""
    frame: dict[str, Any] = {"name": "Frame", "translation": [0.0, 1.0, 0.0],
             "extensions": {"OMI_physics_joint": {"joint": 0, "connectedNode": 3}}}
    if body_mesh:
        frame["mesh"] = 0
    return {"asset": {"version": "2.0"}, "extensionsUsed": ["OMI_physics_body", "OMI_physics_joint"],
            "extensions": {"OMI_physics_joint": {"physicsJoints": joints}},
            "nodes": [{"name": "Door", "children": [1], "extensions": {"OMI_physics_body": {"motion": DYNAMIC}}},
                      frame,
                      {"name": "Post", "children": [3], "extensions": {"OMI_physics_body": {"motion": STATIC}}},
                      {"name": "Anchor"}],
            "scenes": [{"nodes": [0, 2]}]}


@pytest.fixture
def convert() -> Any:
    converter = dialect_convert
    return lambda document: converter.convert(document, "GODOT_OMI")


def _axis_of(rotation: list[float], axis: int) -> list[float]:
    x, y, z, w = rotation
    matrix = [[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
              [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
              [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]]
    return [matrix[row][axis] for row in range(3)]


def test_a_hinge_about_x_turns_to_z_with_godots_softness_and_a_mirrored_range(convert: Any) -> None:
    hinge = {"limits": [FIXED_LINEAR, {"angularAxes": [1, 2], "min": 0.0, "max": 0.0},
                        {"angularAxes": [0], "min": -0.4, "max": 1.2}],
             "drives": [{"type": "angular", "mode": "velocity", "axis": 0, "velocityTarget": 1.0, "maxForce": 5.0}]}
    result = convert(_doc([hinge]))
    nodes = result.document["nodes"]
    limits = result.document["extensions"]["OMI_physics_joint"]["physicsJoints"][0]["limits"]
    assert limits[2] == {"angularAxes": [2], "min": -1.2, "max": 0.4, "stiffness": 0.9, "damping": 1.0}
    assert limits[1]["angularAxes"] == [0, 1] and "stiffness" not in limits[1]  # omi-godot reads no value of it
    drive = result.document["extensions"]["OMI_physics_joint"]["physicsJoints"][0]["drives"][0]
    assert drive["axis"] == 2 and drive["velocityTarget"] == -1.0  # mirrored with the range
    for index in (1, 3):  # the joint frame and the connected frame turn alike: the new Z is the old X
        assert _axis_of(nodes[index]["rotation"], 2) == pytest.approx([1.0, 0.0, 0.0], abs=1e-9)
    said = [issue.message for issue in result.issues if "omi-godot" in issue.message]
    assert len(said) == 3 and all("'Frame'" in message for message in said), said


def test_a_slider_along_y_turns_to_x_and_a_pin_gets_godots_bias(convert: Any) -> None:
    slider = {"limits": [{"linearAxes": [1], "min": -0.6, "max": 0.2}, {"linearAxes": [0, 2], "min": 0.0, "max": 0.0},
                         {"angularAxes": [0, 1, 2], "min": 0.0, "max": 0.0}]}
    pin = {"limits": [dict(FIXED_LINEAR, stiffness=500.0)]}
    document = _doc([slider, pin])
    document["nodes"][3]["extensions"] = {"OMI_physics_joint": {"joint": 1, "connectedNode": 1}}
    result = convert(document)
    joints = result.document["extensions"]["OMI_physics_joint"]["physicsJoints"]
    assert joints[0]["limits"][0] == {"linearAxes": [0], "min": -0.6, "max": 0.2, "stiffness": 1.0, "damping": 1.0}
    assert joints[1]["limits"] == [{"linearAxes": [0, 1, 2], "min": 0.0, "max": 0.0, "stiffness": 1.8, "damping": 1.0}]
    messages = " ".join(issue.message for issue in result.issues)
    assert "with a spring written rigid" in messages and "mirrored" not in messages


def test_a_joint_on_a_node_with_a_mesh_moves_to_a_turned_frame_beside_it(convert: Any) -> None:
    hinge = {"limits": [FIXED_LINEAR, {"angularAxes": [0, 2], "min": 0.0, "max": 0.0}]}  # free about Y
    result = convert(_doc([hinge], body_mesh=True) | {"meshes": [{"primitives": []}]})
    nodes = result.document["nodes"]
    moved = [index for index, node in enumerate(nodes) if "OMI_physics_joint" in node.get("extensions", {})]
    assert len(moved) == 1 and nodes[moved[0]]["name"] == "Frame.omi-godot"
    assert moved[0] in nodes[0]["children"]  # a sibling of the mesh node: directly under the body
    assert nodes[moved[0]]["translation"] == [0.0, 1.0, 0.0]
    assert _axis_of(nodes[moved[0]]["rotation"], 2) == pytest.approx([0.0, 1.0, 0.0], abs=1e-9)
    assert nodes[moved[0]]["extensions"]["OMI_physics_joint"]["connectedNode"] == 3
    assert "extensions" not in nodes[1] and nodes[1]["mesh"] == 0
    assert not math.isnan(sum(nodes[3]["rotation"]))


def test_vehicle_keys_are_written_by_the_names_omi_godot_reads(convert: Any) -> None:
    document = {"asset": {"version": "2.0"},
                "extensionsUsed": ["OMI_physics_body", "OMI_vehicle_body", "OMI_vehicle_wheel",
                                   "KHR_animation_pointer"],
                "extensions": {"OMI_vehicle_wheel": {"wheels": [{"radius": 0.35, "maxPropulsionForce": 2000.0,
                                                                 "targetSteeringRatio": 0.5}]}},
                "nodes": [{"name": "Car", "children": [1], "extensions": {
                    "OMI_physics_body": {"motion": DYNAMIC}, "OMI_vehicle_body": {}}},
                          {"name": "Wheel", "extensions": {"OMI_vehicle_wheel": {"wheel": 0}}}],
                "scenes": [{"nodes": [0]}],
                "animations": [{"channels": [{"sampler": 0, "target": {"path": "pointer", "extensions": {
                    "KHR_animation_pointer": {"pointer": STEERING}}}}],
                    "samplers": [{"input": 0, "output": 1}]}]}
    result = convert(document)
    assert result.document["extensions"]["OMI_vehicle_wheel"]["wheels"] == [
        {"radius": 0.35, "maxForce": 2000.0, "currentSteeringRatio": 0.5}]
    pointer = result.document["animations"][0]["channels"][0]["target"]["extensions"]["KHR_animation_pointer"]
    assert pointer["pointer"] == "/extensions/OMI_vehicle_wheel/wheels/0/currentSteeringRatio"
    assert not [issue.message for issue in result.issues if "ignores" in issue.message]  # omi-godot reads them
    said = [issue.message for issue in result.issues if "2026 rename" in issue.message]
    assert said == ["Godot 4 + omi-godot: vehicle fields by their names from before the 2026 rename, which omi-godot "
                    "reads: maxPropulsionForce -> maxForce, targetSteeringRatio -> currentSteeringRatio"]
