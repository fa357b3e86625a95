"""Every example of the OMI specs (current and legacy): read into the model with the expected values,
written back in the current revision, schema-valid, and read again with the same meaning."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import schema_check
from omi_core import model
from omi_core.checks import canonical
from omi_core.read import reader
from omi_core.write import writer
from present import present

EXAMPLES = sorted(schema_check.SPEC_DIR.glob("**/examples/**/*.gltf")) if schema_check.SPEC_DIR.is_dir() else []


def _id(path: Path) -> str:
    return str(path.relative_to(schema_check.SPEC_DIR))


@pytest.fixture
def load(spec_dir: Path) -> Any:
    def load(relative: str) -> dict[str, Any]:
        value: dict[str, Any] = json.loads((spec_dir / relative).read_text(encoding="utf-8"))
        return value
    return load


def test_examples_are_found(spec_dir: Path) -> None:
    """Every example folder of the specs (current and legacy) contributes files to the round trip."""
    folders = sorted(path.parent for path in spec_dir.glob("**/examples"))
    assert folders and all(any(EXAMPLE.is_relative_to(folder) for EXAMPLE in EXAMPLES) for folder in folders)


@pytest.mark.parametrize("path", EXAMPLES, ids=_id)
def test_example_round_trip(path: Any) -> None:
    gltf = json.loads(path.read_text(encoding="utf-8"))
    doc = reader.read_document(gltf)
    assert doc.nodes, "every example has physics"
    assert [issue for issue in doc.issues if issue.severity == "error"] == []
    written = writer.write_document(doc, gltf)
    assert schema_check.omi_schema_errors(written) == []
    json.dumps(written, allow_nan=False)
    again = reader.read_document(written)
    assert [issue for issue in again.issues if issue.severity != "info"] == []
    assert canonical.canonical_physics(written) == canonical.canonical_physics(gltf)
    assert canonical.diff_physics(gltf, written) == []
    assert writer.write_document(again, written) == written  # the current revision is a fixed point
    for key in ("asset", "meshes", "accessors", "buffers", "bufferViews", "scenes", "scene", "cameras"):
        assert written.get(key) == gltf.get(key)  # nothing else touched
    for before, after in zip(gltf["nodes"], written["nodes"], strict=True):
        assert {k: v for k, v in before.items() if k != "extensions"} == \
               {k: v for k, v in after.items() if k != "extensions"}


def test_dynamic_box(load: Any) -> None:
    doc = reader.read_document(load("OMI_physics_body/examples/basic/dynamic_box.gltf"))
    assert doc.nodes == {
        0: model.NodePhysics(motion=model.Motion("dynamic")),
        1: model.NodePhysics(collider=model.Collider(model.Shape("box", size=(1.0, 2.0, 3.0)))),
    }
    assert doc.revisions == {"OMI_physics_body", "OMI_physics_shape"}


def test_dynamic_with_velocity(load: Any) -> None:
    motion = reader.read_document(load("OMI_physics_body/examples/complex/dynamic_with_velocity.gltf")).nodes[0].motion
    assert present(motion).type == "dynamic"
    assert present(motion).linear_velocity == (1.0, 2.0, 3.0)
    assert present(motion).angular_velocity == (4.0, 5.0, 6.0)
    assert present(motion).mass == 1.0


def test_compound_trigger(load: Any) -> None:
    doc = reader.read_document(load("OMI_physics_body/examples/basic/compound_trigger.gltf"))
    assert doc.nodes[0].trigger == model.Trigger(nodes=(1, 2))
    assert present(present(doc.nodes[1].trigger).shape).size == (3.0, 1.0, 1.0)
    assert present(present(doc.nodes[2].trigger).shape).size == (1.0, 3.0, 1.0)
    member = present(present(doc.nodes[3].trigger).shape)
    assert member.size == (3.0, 1.0, 1.0)  # a child that is not a member stays separate


def test_static_compound_collider_is_a_grouping_node(load: Any) -> None:
    doc = reader.read_document(load("OMI_physics_body/examples/complex/static_compound_collider.gltf"))
    assert doc.nodes[0] == model.NodePhysics(collider=model.Collider(shape=None))
    assert present(doc.nodes[1].collider).shape == model.Shape("box", size=(1.0, 2.0, 3.0))


def test_empty_trigger_groups_descendant_triggers_and_warns_once(load: Any) -> None:
    gltf = load("OMI_physics_body/examples/complex/two_boxes.gltf")
    doc = reader.read_document(gltf)
    assert present(doc.nodes[1].motion).type == "static"
    assert doc.nodes[3] == model.NodePhysics(trigger=model.Trigger(nodes=(4,)))
    assert doc.nodes[4].trigger == model.Trigger(model.Shape("box"))
    warnings = [issue for issue in doc.issues if "neither shape nor nodes" in issue.message]
    assert [issue.pointer for issue in warnings] == ["/nodes/3/extensions/OMI_physics_body/trigger"]
    written = writer.write_document(doc, gltf)
    assert written["nodes"][3]["extensions"]["OMI_physics_body"] == {"trigger": {"nodes": [4]}}
    twice = json.loads(json.dumps(gltf))
    twice["nodes"][1]["extensions"]["OMI_physics_body"] = {"trigger": {}}
    twice["nodes"][2]["extensions"]["OMI_physics_body"] = {"trigger": {"shape": 0}}
    issues = reader.read_document(twice).issues
    assert len([issue for issue in issues if "neither shape nor nodes" in issue.message]) == 1


@pytest.mark.parametrize(("relative", "expected"), [
    ("OMI_physics_shape/examples/box_collider.gltf", ("box", {"size": (1.0, 1.0, 1.0)})),
    ("OMI_physics_shape/examples/default_box.gltf", ("box", {"size": (1.0, 1.0, 1.0)})),
    ("OMI_physics_shape/examples/sphere_collider.gltf", ("sphere", {"radius": 0.5})),
    ("OMI_physics_shape/examples/capsule_collider.gltf",
     ("capsule", {"height": 1.0, "radius_top": 0.5, "radius_bottom": 0.5})),
    ("OMI_physics_shape/examples/cylinder_collider.gltf",
     ("cylinder", {"height": 2.0, "radius_top": 0.5, "radius_bottom": 0.5})),
    ("OMI_physics_shape/examples/convex/convex_hull.gltf", ("convex", {"mesh": 0})),
    ("OMI_physics_shape/examples/trimesh/concave_trimesh_only.gltf", ("trimesh", {"mesh": 0})),
])
def test_shape_examples(load: Any, relative: str, expected: tuple[Any, ...]) -> None:
    doc = reader.read_document(load(relative))
    shape = present(doc.nodes[0].collider).shape
    shape_type, values = expected
    assert present(shape).type == shape_type
    for name, value in values.items():
        assert getattr(shape, name) == value
    assert present(shape).mesh == (0 if shape_type in ("convex", "trimesh") else None)


def test_default_box_writes_its_sub_object(load: Any) -> None:
    gltf = load("OMI_physics_shape/examples/default_box.gltf")
    assert schema_check.omi_schema_errors(gltf) != []  # the strict shape schema rejects the spec's own example
    written = writer.write_document(reader.read_document(gltf), gltf)
    assert written["extensions"]["OMI_physics_shape"]["shapes"] == [{"type": "box", "box": {}}]


def test_joint_examples(load: Any) -> None:
    doc = reader.read_document(load("OMI_physics_joint/examples/slider_ball.gltf"))
    joint = present(doc.nodes[4]).joint
    assert present(joint).connected_node == 5
    assert present(joint).enable_collision is False
    assert present(joint).settings.limits == (
        model.JointLimit(linear_axes=(0,), min=-1.75, max=0.25, stiffness=1.0, damping=0.5),
        model.JointLimit(linear_axes=(1, 2), min=0.0, max=0.0, stiffness=1.0, damping=1.0),
        model.JointLimit(angular_axes=(0,), min=0.0, max=0.0, stiffness=1.0, damping=0.0),
        model.JointLimit(angular_axes=(1, 2), min=0.0, max=0.0, stiffness=1.0, damping=1.0),
    )
    assert present(doc.nodes[6].motion).linear_velocity == (1.0, 0.0, 0.0)
    assert present(doc.nodes[1].motion).type == "static"  # the joint sits under a static body (ERRATA: accepted)
    assert not [issue for issue in doc.issues if issue.severity != "info"]


def test_weld_limit_with_both_axis_kinds(load: Any) -> None:
    gltf = load("OMI_physics_joint/examples/weld_joint.gltf")
    doc = reader.read_document(gltf)
    assert present(doc.nodes[4].joint).settings.limits == (
        model.JointLimit(linear_axes=(0, 1, 2), angular_axes=(0, 1, 2), min=0.0, max=0.0, stiffness=None),)
    written = writer.write_document(doc, gltf)
    assert written["extensions"]["OMI_physics_joint"]["physicsJoints"] == [{"limits": [
        {"linearAxes": [0, 1, 2], "min": 0.0, "max": 0.0}, {"angularAxes": [0, 1, 2], "min": 0.0, "max": 0.0}]}]


def test_joint_example_capsules_are_the_old_full_height_form(load: Any) -> None:
    gltf = load("OMI_physics_joint/examples/simple_joint.gltf")
    doc = reader.read_document(gltf)
    capsule = present(doc.nodes[2].collider).shape
    assert capsule is not None and capsule.height == pytest.approx(0.4)
    assert capsule == model.Shape("capsule", height=capsule.height, radius_top=0.05, radius_bottom=0.05)
    assert present(doc.nodes[4].joint).settings.limits[0].stiffness == 0.3  # spec units kept, not rescaled
    warnings = [issue for issue in doc.issues if issue.severity == "warning"]
    assert [issue.pointer for issue in warnings] == ["/extensions/OMI_physics_shape/shapes/0/capsule"]
    assert "full-height" in warnings[0].message
    written = writer.write_document(doc, gltf)
    assert written["extensions"]["OMI_physics_shape"]["shapes"][0] == {
        "type": "capsule", "capsule": {"height": pytest.approx(0.4), "radiusBottom": 0.05, "radiusTop": 0.05}}


def test_legacy_collider_examples(load: Any) -> None:
    box = reader.read_document(load("legacy/OMI_collider/examples/box_collider.gltf"))
    assert box.nodes == {0: model.NodePhysics(collider=model.Collider(model.Shape("box")))}
    assert box.revisions == {"OMI_collider"}
    assert [(issue.severity, "OMI_collider" in issue.message) for issue in box.issues] == [("info", True)]
    sphere = reader.read_document(load("legacy/OMI_collider/examples/sphere_collider.gltf"))
    assert present(sphere.nodes[0].collider).shape == model.Shape("sphere", radius=0.5)
    trigger = reader.read_document(load("legacy/OMI_collider/examples/trigger_box.gltf"))
    assert trigger.nodes == {0: model.NodePhysics(trigger=model.Trigger(model.Shape("box")))}


def test_legacy_body_type_examples(load: Any) -> None:
    static = reader.read_document(load("legacy/OMI_physics_body_type_enum/examples/static_box.gltf"))
    assert static.nodes == {0: model.NodePhysics(motion=model.Motion("static")),
                            1: model.NodePhysics(collider=model.Collider(model.Shape("box")))}
    assert static.revisions >= {"OMI_physics_body.type", "OMI_physics_shape.flat"}
    gltf = load("legacy/OMI_physics_body_type_enum/examples/trigger_box.gltf")
    trigger = reader.read_document(gltf)
    assert trigger.nodes == {0: model.NodePhysics(trigger=model.Trigger(nodes=(1,))),
                             1: model.NodePhysics(trigger=model.Trigger(model.Shape("box")))}
    written = writer.write_document(trigger, gltf)
    assert written["nodes"][0]["extensions"] == {"OMI_physics_body": {"trigger": {"nodes": [1]}}}
    assert written["nodes"][1]["extensions"] == {"OMI_physics_body": {"trigger": {"shape": 0}}}
    assert written["extensions"]["OMI_physics_shape"] == {"shapes": [{"type": "box", "box": {}}]}
    two = reader.read_document(load("legacy/OMI_physics_body_type_enum/examples/two_boxes.gltf"))
    assert present(two.nodes[1].motion).type == "static"
    assert present(present(two.nodes[2].collider).shape).type == "box"
    assert two.nodes[3].trigger == model.Trigger(nodes=(4,))
    assert present(present(two.nodes[4].trigger).shape).type == "box"
