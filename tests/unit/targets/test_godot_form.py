"""The `godot` export target's document transform (io/omi/targets/godot/), on JSON: shapes in the form
Godot 4.6 reads, render meshes moved to a child named after the body, one message per kind of data Godot
ignores, and the import side's recognition of the layout. What Godot builds from these files is checked in
Godot itself by tests/godot."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from omi_core import model
from omi_core.dialects import registry
from omi_core.model import Issue
from omi_core.read import reader
from omi_core.targets import godot
from omi_core.targets.godot import engine_form, layout
from omi_core.write import target_form
from present import present


def to_godot(document: dict[str, Any]) -> list[Issue]:
    """A parsed OMI file into the `godot` target's form, in place (convert's applier); what Godot ignores."""
    return target_form.apply_json(document, registry.target(godot.NAME).form)


def _doc(shapes: Any, nodes: Any, **extra: Any) -> dict[str, Any]:
    return {"asset": {"version": "2.0"}, "extensionsUsed": ["OMI_physics_shape", "OMI_physics_body"],
            "extensions": {"OMI_physics_shape": {"shapes": shapes}}, "nodes": nodes, **extra}


def test_round_shapes_take_godots_form_with_every_size_written() -> None:
    shapes = [{"type": "capsule", "capsule": {"height": 1.4, "radiusTop": 0.3, "radiusBottom": 0.3}},
              {"type": "capsule", "capsule": {}},  # defaults: mid-height 1, radius 0.5
              {"type": "cylinder", "cylinder": {"radiusTop": 0.3, "radiusBottom": 0.3}},  # height 2 by default
              {"type": "box", "box": {}}, {"type": "sphere", "sphere": {}}]
    doc = _doc(shapes, [{"name": f"N{i}", "extensions": {"OMI_physics_body": {"collider": {"shape": i}}}}
                        for i in range(len(shapes))])
    before = reader.read_document(copy.deepcopy(doc))
    assert to_godot(doc) == []
    assert doc["extensions"]["OMI_physics_shape"]["shapes"] == [
        {"type": "capsule", "capsule": {"radius": 0.3, "height": pytest.approx(2.0)}},
        {"type": "capsule", "capsule": {"radius": 0.5, "height": 2.0}},
        {"type": "cylinder", "cylinder": {"radius": 0.3, "height": 2.0}},
        {"type": "box", "box": {"size": [1.0, 1.0, 1.0]}},
        {"type": "sphere", "sphere": {"radius": 0.5}},
    ]
    after = reader.read_document(doc)  # our reader takes the old form as Godot means it: the same shapes
    for index, node in before.nodes.items():
        old, new = present(present(node.collider).shape), present(present(after.nodes[index].collider).shape)
        assert (old.type, old.radius_top, old.radius_bottom, old.radius) == \
            (new.type, new.radius_top, new.radius_bottom, new.radius)
        def height(shape: Any) -> Any:
            return model.default_height(shape.type) if shape.height is None else shape.height

        assert height(new) == pytest.approx(height(old)) and new.size == old.size


def test_the_targets_own_capsules_are_read_as_godots_without_a_warning() -> None:
    """A file this target wrote (render meshes on same-named children) holds capsules in Godot's form on
    purpose: read as Godot means them, with a note, not as the old full-height revision's warning; the same
    JSON without the layout (Godot's own files) still warns."""
    shape = {"type": "capsule", "capsule": {"height": 2.4, "radiusTop": 0.3, "radiusBottom": 0.3}}
    doc = _doc([shape], [{"name": "Pill", "mesh": 0, "extensions": {"OMI_physics_body": {
        "motion": {"type": "dynamic"}, "collider": {"shape": 0}}}}])
    to_godot(doc)
    assert doc["extensions"]["OMI_physics_shape"]["shapes"][0]["capsule"] == {"radius": 0.3, "height": 3.0}
    assert layout.mesh_children(doc) == {0: 1}
    read = reader.read_document(copy.deepcopy(doc))
    capsule = present(present(read.nodes[0].collider).shape)
    assert capsule.height == pytest.approx(2.4) and (capsule.radius_top, capsule.radius_bottom) == (0.3, 0.3)
    assert not [issue for issue in read.issues if issue.severity != "info"], read.issues
    notes = [issue for issue in read.issues if "Godot's full height" in issue.message]
    assert len(notes) == 1 and notes[0].pointer == "/extensions/OMI_physics_shape/shapes/0/capsule"
    del doc["nodes"][0]["children"]  # no longer the target's layout
    old_form = [issue for issue in reader.read_document(doc).issues if "old full-height form" in issue.message]
    assert len(old_form) == 1 and old_form[0].severity == "warning"


def test_a_cone_is_said_once_naming_its_objects() -> None:
    doc = _doc([{"type": "cylinder", "cylinder": {"radiusTop": 0.0, "radiusBottom": 0.4, "height": 1.0}}],
               [{"name": name, "extensions": {"OMI_physics_body": {"collider": {"shape": 0}}}}
                for name in ("ConeA", "ConeB")])
    issues = to_godot(doc)
    assert len(issues) == 1
    assert "cone" in issues[0].message and "'ConeA', 'ConeB'" in issues[0].message
    assert doc["extensions"]["OMI_physics_shape"]["shapes"][0]["cylinder"] == {"radius": 0.4, "height": 1.0}


def test_render_mesh_moves_to_a_child_named_after_the_body() -> None:
    doc = _doc([{"type": "box", "box": {"size": [1, 2, 3]}}], [
        {"name": "Crate", "mesh": 0, "translation": [0, 2, 0], "children": [1],
         "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic"}, "collider": {"shape": 0}}}},
        {"name": "Part", "mesh": 1, "extensions": {"OMI_physics_body": {"collider": {"shape": 0}}}},
        {"name": "Plain", "mesh": 2},
    ])
    to_godot(doc)
    nodes = doc["nodes"]
    assert "mesh" not in nodes[0] and nodes[0]["children"] == [1, 3]
    assert nodes[3] == {"name": "Crate", "mesh": 0}
    assert "mesh" not in nodes[1] and nodes[1]["children"] == [4] and nodes[4] == {"name": "Part", "mesh": 1}
    assert nodes[2] == {"name": "Plain", "mesh": 2}  # no physics: Godot keeps its mesh instance
    assert layout.mesh_children(doc) == {0: 3, 1: 4}


def test_mesh_children_only_in_the_exact_layout() -> None:
    body = {"OMI_physics_body": {"motion": {"type": "dynamic"}}}
    nodes = [{"name": "A", "children": [1], "extensions": body}, {"name": "A", "mesh": 0, "translation": [0, 1, 0]},
             {"name": "B", "children": [3], "extensions": body}, {"name": "other", "mesh": 0},
             {"name": "C", "children": [5], "extensions": body}, {"name": "C", "mesh": 0, "scale": [1.0, 1.0, 1.0]},
             {"name": "D", "children": [7], "extensions": body}, {"name": "D", "mesh": 0}]
    doc = {"nodes": nodes, "animations": [{"channels": [{"target": {"node": 7, "path": "rotation"}}]}]}
    assert layout.mesh_children(doc) == {4: 5}  # moved, renamed, animated children stay as they are


def _channel(pointer: str) -> dict[str, Any]:
    return {"target": {"path": "pointer", "extensions": {"KHR_animation_pointer": {"pointer": pointer}}}}


def test_each_kind_of_ignored_data_is_said_once() -> None:
    shapes = [{"type": "box", "box": {"size": [1, 1, 1]}}]
    collider = {"shape": 0, "physicsMaterial": 0, "collisionFilter": 0}
    doc = _doc(shapes, [
        {"name": "A", "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic", "gravityFactor": 0.5,
                                                                     "inertiaOrientation": [0, 0, 0.6, 0.8]},
                                                          "collider": collider}}},
        {"name": "B", "children": [2], "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic"},
                                                                           "collider": collider}},
         "mesh": 0},
        {"name": "B.mid", "children": [3]},
        {"name": "B.deep", "extensions": {"OMI_physics_body": {"collider": {"shape": 0}}}},
        {"name": "B.joint", "extensions": {"OMI_physics_joint": {"connectedNode": 0, "joint": 0}}},
    ], animations=[{"channels": [_channel("/nodes/0/extensions/OMI_physics_body/motion/mass"),
                                  _channel("/nodes/0/extensions/OMI_physics_body/motion/gravityFactor")]}])
    messages = [issue.message for issue in to_godot(doc) if issue.severity != "info"]
    assert len(messages) == 7, messages
    assert all(message.startswith("Godot 4 ignores ") for message in messages)
    text = "\n".join(messages)
    for kind, names in (("joints", "'B.joint'"), ("physics materials", "'A', 'B'"), ("collision filters", "'A', 'B'"),
                        ("gravity factors", "'A'"), ("inertia orientations", "'A'"), ("direct children", "'B.deep'"),
                        ("animated", "'A: motion/gravityFactor'")):  # Godot 4.6.3 plays the mass
        assert any(kind in message and message.endswith(names) for message in messages), (kind, text)


def test_animated_values_are_named_by_their_objects_and_only_what_godot_drops() -> None:
    """Document-level values are named by the nodes that use the item (a joint by its joint node); Godot 4.6.3
    plays LINEAR and STEP channels of the values it has a property for, and rejects CUBICSPLINE ones."""
    shapes = [{"type": "box", "box": {"size": [1, 1, 1]}}]
    doc = _doc(shapes, [
        {"name": "Door", "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic"},
                                                             "collider": {"shape": 0, "physicsMaterial": 0}}}},
        {"name": "Door.joint", "extensions": {"OMI_physics_joint": {"connectedNode": 0, "joint": 0}}},
    ], animations=[{"channels": [
        {**_channel("/extensions/OMI_physics_joint/physicsJoints/0/drives/0/velocityTarget"), "sampler": 0},
        {**_channel("/extensions/OMI_physics_body/physicsMaterials/0/restitution"), "sampler": 0},
        {**_channel("/extensions/OMI_physics_shape/shapes/0/box/size"), "sampler": 0},
        {**_channel("/nodes/0/extensions/OMI_physics_body/motion/mass"), "sampler": 0},
        {**_channel("/nodes/0/extensions/OMI_physics_body/motion/linearVelocity"), "sampler": 1}]},
    ])
    doc["animations"][0]["samplers"] = [{"interpolation": "LINEAR"}, {"interpolation": "CUBICSPLINE"}]
    messages = [issue.message for issue in to_godot(doc) if "animated" in issue.message
                or "CUBICSPLINE" in issue.message]
    assert messages == [
        "Godot 4 ignores animated physics values it has no property for: 'Door.joint: joint drives/0/velocityTarget', "
        "'Door: physics material restitution'",
        "Godot 4 ignores physics channels keyed CUBICSPLINE (its importer rejects them; LINEAR and STEP play): "
        "'Door: motion/linearVelocity'"], messages
    assert not any("converted" in message or "/extensions/" in message for message in messages)


def test_a_file_without_physics_is_left_alone() -> None:
    doc = {"asset": {"version": "2.0"}, "nodes": [{"name": "Plain", "mesh": 0}]}
    before = copy.deepcopy(doc)
    assert to_godot(doc) == []
    assert doc == before


def test_a_moving_bodys_scale_is_baked_into_its_shapes_children_and_mesh() -> None:
    """Godot's physics drops a RigidBody3D's scale (tests/godot measures it): sizes carry it instead."""
    doc = _doc([{"type": "box", "box": {"size": [1, 1, 1]}},
                {"type": "capsule", "capsule": {"height": 1.0, "radiusTop": 0.5, "radiusBottom": 0.5}}], [
        {"name": "Body", "mesh": 0, "scale": [2.0, 1.0, 0.5], "children": [2],
         "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic"}, "collider": {"shape": 0}}}},
        {"name": "Ground", "scale": [2.0, 1.0, 0.5], "extensions": {"OMI_physics_body": {
            "motion": {"type": "static"}, "collider": {"shape": 0}}}},
        {"name": "Part", "translation": [1.0, 1.0, 1.0],
         "extensions": {"OMI_physics_body": {"collider": {"shape": 1}}}},
    ])
    assert [issue.message for issue in to_godot(doc)] == [engine_form.PROJECT_NOTE]
    nodes, shapes = doc["nodes"], doc["extensions"]["OMI_physics_shape"]["shapes"]
    assert "scale" not in nodes[0] and nodes[1]["scale"] == [2.0, 1.0, 0.5]  # a static body keeps its scale
    assert shapes[nodes[0]["extensions"]["OMI_physics_body"]["collider"]["shape"]]["box"]["size"] == [2.0, 1.0, 0.5]
    assert nodes[1]["extensions"]["OMI_physics_body"]["collider"]["shape"] == 0
    assert shapes[0]["box"]["size"] == [1, 1, 1]
    assert nodes[2]["translation"] == [2.0, 1.0, 0.5] and nodes[2]["scale"] == [2.0, 1.0, 0.5]
    assert nodes[3] == {"name": "Body", "mesh": 0, "scale": [2.0, 1.0, 0.5]}
    assert layout.mesh_children(doc) == {0: 3}  # the mesh child carries the baked scale: folded back on import
    doc["nodes"][0]["scale"] = [1.0, 2.0, 1.0]
    assert layout.mesh_children(doc) == {}  # not a layout the target writes: a scaled body keeps no mesh scale


def test_an_unevenly_scaled_sphere_is_said() -> None:
    doc = _doc([{"type": "sphere", "sphere": {"radius": 0.5}}], [
        {"name": "Egg", "scale": [1.0, 2.0, 1.0],
         "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic"}, "collider": {"shape": 0}}}}])
    issue, note = to_godot(doc)
    assert (note.severity, note.message) == ("info", engine_form.PROJECT_NOTE)  # once, for the dynamic body
    assert "sphere scaled unevenly" in issue.message and issue.message.endswith("'Egg'")
    assert doc["extensions"]["OMI_physics_shape"]["shapes"][-1] == {"type": "sphere", "sphere": {"radius": 1.0}}


def test_a_scaled_moving_hull_goes_to_a_child_that_carries_the_scale() -> None:
    """A convex hull has no size to bake, and Godot honours a CollisionShape3D's own scale under a body: the
    collider moves to a new child scaled as the body was, and nothing is said lost."""
    shapes = [{"type": "convex", "convex": {"mesh": 0}}]
    doc = _doc(shapes, [{"name": "Rock", "mesh": 0, "scale": [1.5, 1.5, 1.5], "extensions": {"OMI_physics_body": {
        "motion": {"type": "dynamic"}, "collider": {"shape": 0}}}}])
    issues = to_godot(doc)
    rock = doc["nodes"][0]
    assert "scale" not in rock and rock["extensions"]["OMI_physics_body"] == {"motion": {"type": "dynamic"}}
    children = [doc["nodes"][child] for child in rock["children"]]
    assert {"name": "Rock collider", "scale": [1.5, 1.5, 1.5],
            "extensions": {"OMI_physics_body": {"collider": {"shape": 0}}}} in children
    assert {"name": "Rock", "mesh": 0, "scale": [1.5, 1.5, 1.5]} in children
    assert not [issue for issue in issues if "scale" in issue.message]


def test_float_noise_in_a_scale_is_not_uneven() -> None:
    """A ragdoll part's scale comes out of Blender's matrices as [1, 0.99999994, 1]: no turned-child warning
    and no uneven-shape warning for what is a uniform scale within float32 noise."""
    doc = _doc([{"type": "sphere", "sphere": {"radius": 0.5}}], [
        {"name": "Thigh", "scale": [1.0, 0.99999994, 1.0], "children": [1],
         "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic"}, "collider": {"shape": 0}}}},
        {"name": "Knee", "rotation": [0.0, 0.0, 0.38268343, 0.9238795]},
    ])
    assert [issue.message for issue in to_godot(doc)] == [engine_form.PROJECT_NOTE]


def test_an_empty_matrix_is_no_matrix() -> None:
    """Blender's exporter gives every node `matrix=[]`: a child of a scaled body is then not turned."""
    doc = _doc([{"type": "box", "box": {"size": [1, 1, 1]}}], [
        {"name": "Body", "scale": [2.0, 2.0, 2.0], "children": [1],
         "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic"}}}},
        {"name": "Part", "matrix": [], "extensions": {"OMI_physics_body": {"collider": {"shape": 0}}}},
    ])
    assert [issue.message for issue in to_godot(doc)] == [engine_form.PROJECT_NOTE]


def test_morph_weight_channels_follow_the_mesh_to_its_child() -> None:
    """The mesh and its morph weights move to a new child: every channel of those weights goes with them (by
    node and path, or by a pointer into the node); a pointer to the mesh's own weights and the body's other
    channels stay. Before, they kept animating the body node, which has no mesh: invalid glTF."""
    doc = _doc([{"type": "box", "box": {"size": [1, 1, 1]}}], [
        {"name": "Blob", "mesh": 0, "weights": [0.0, 0.5],
         "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic"}, "collider": {"shape": 0}}}},
        {"name": "Prop", "mesh": 1, "weights": [1.0]},
    ], animations=[{"channels": [
        {"sampler": 0, "target": {"node": 0, "path": "weights"}},
        {"sampler": 1, "target": {"node": 0, "path": "translation"}},
        {"sampler": 2, "target": {"node": 1, "path": "weights"}},
        {"sampler": 3, **_channel("/nodes/0/weights")},
        {"sampler": 4, **_channel("/meshes/0/weights")},
        {"sampler": 5, **_channel("/nodes/0/extensions/OMI_physics_body/motion/mass")}]}])
    to_godot(doc)
    child = doc["nodes"][0]["children"][-1]
    assert doc["nodes"][child] == {"name": "Blob", "mesh": 0, "weights": [0.0, 0.5]}
    targets = [channel["target"] for channel in doc["animations"][0]["channels"]]
    assert [target.get("node") for target in targets[:3]] == [child, 0, 1]
    pointers = [target["extensions"]["KHR_animation_pointer"]["pointer"] for target in targets[3:]]
    assert pointers == [f"/nodes/{child}/weights", "/meshes/0/weights",
                        "/nodes/0/extensions/OMI_physics_body/motion/mass"]
    assert layout.mesh_children(doc) == {0: child}  # the import side still knows the layout


def test_a_channel_of_a_shape_whose_scale_was_baked_is_named() -> None:
    """A scaled moving body gets a scaled copy of its shape: a channel keeps animating the original, which no
    body uses any more, so Godot plays nothing for it. Before, nothing was said (a sphere's radius plays)."""
    doc = _doc([{"type": "sphere", "sphere": {"radius": 0.5}}], [
        {"name": "Ball", "scale": [2.0, 2.0, 2.0],
         "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic"}, "collider": {"shape": 0}}}}],
        animations=[{"channels": [_channel("/extensions/OMI_physics_shape/shapes/0/sphere/radius")]}])
    messages = [issue.message for issue in to_godot(doc) if issue.severity != "info"]
    assert messages == ["Godot 4 ignores animated sizes of shapes on scaled moving bodies (the body's scale is baked "
                        "into a copy of its shape; the channel animates the original, which no body uses): "
                        "'Ball: shape sphere/radius'"], messages
