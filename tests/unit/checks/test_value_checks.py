"""What would change silently between a file and Blender, named: values the writer cannot hold
(value_losses.unwritten), values Blender's float32 settings or enums cannot hold (beyond_float32,
unheld_choices), node transforms Blender changes (node_transforms), and keys of OMI objects the model has no
place for (unknown_keys). Pure: runs without bpy."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from omi_core import model
from omi_core.checks import node_transforms
from omi_core.checks import value_losses as losses
from omi_core.read import reader
from omi_core_loader import SPEC_DIR


def _node(model: Any, **parts: Any) -> Any:
    return model.NodePhysics(**parts)


def test_values_the_writer_leaves_out_are_named() -> None:
    box = model.Shape("box", size=(1.0, 0.0, 1.0))
    node = _node(model, collider=model.Collider(shape=box), motion=model.Motion(mass=float("inf")))
    found = {issue.pointer: issue.message for issue in losses.unwritten(node, at="/nodes/4")}
    assert found["/nodes/4/extensions/OMI_physics_body/collider/shape/size"] \
        == "box size [1, 0, 1] cannot be written (must be greater than 0): left out, so the file reads [1, 1, 1]"
    assert "infinite (KHR's 0), which OMI cannot spell" in found["/nodes/4/extensions/OMI_physics_body/motion/mass"]
    clean = _node(model, collider=model.Collider(shape=model.Shape("box", size=(1.0, 2.0, 3.0))),
                  motion=model.Motion(mass=0.0))
    assert losses.unwritten(clean) == []


def test_what_float32_settings_and_enums_cannot_hold() -> None:
    node = _node(model, motion=model.Motion(mass=1e39, linear_velocity=(0.0, 1e-46, 0.0)),
                 collider=model.Collider(shape=model.Shape("sphere", radius=3.4028235e38)))
    found = {issue.pointer: issue.message for issue in losses.beyond_float32(node)}  # pointers relative to the node
    assert "mass 1e+39 is beyond float32" in found["/motion/mass"]
    assert "becomes 0" in found["/motion/linearVelocity"]
    assert len(found) == 2  # float32's own maximum is held


def test_node_transforms_blender_changes() -> None:
    transforms = node_transforms
    document = {"nodes": [{"translation": [1e39, 0, 0]}, {"rotation": [0, 0, 0, 0]}, {"rotation": [0, 0, 0, 1]},
                          {"matrix": [1, 0, 0, 0, 0.5, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]},
                          {"matrix": [2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0, 5, 6, 7, 1]}, {"scale": [1, 1, 1e-46]}]}
    assert [issue.pointer for issue in transforms.check(document)] == ["/nodes/0/translation", "/nodes/1/rotation",
                                                                      "/nodes/3/matrix"]


def test_unknown_keys_of_omi_objects() -> None:
    unknown = reader
    document: dict[str, Any] = {
        "extensions": {"OMI_physics_shape": {"shapes": [{"type": "box", "box": {"size": [1, 1, 1],
                                                                                       "margin": 0.1}}]},
                               "OMI_physics_joint": {"physicsJoints": [{"drives": [{"type": "angular", "mode": "force",
                                                                                    "axis": 0, "gearRatio": 2}]}]}},
                "nodes": [{"extensions": {"OMI_physics_body": {"motion": {"type": "dynamic", "linearDamping": 1},
                                                               "collider": {"shape": 0, "extras": {"a": 1}}}}},
                          {"extensions": {"OMI_physics_body": {"type": "rigid", "oldKey": 1}}}]}
    assert [issue.pointer for issue in unknown.kept_key_findings(document)] == [
        "/extensions/OMI_physics_shape/shapes/0/box/margin",
        "/extensions/OMI_physics_joint/physicsJoints/0/drives/0/gearRatio",
        "/nodes/0/extensions/OMI_physics_body/motion/linearDamping",
        "/nodes/0/extensions/OMI_physics_body/collider/extras",
        "/nodes/1/extensions/OMI_physics_body/oldKey"]  # a legacy body's keys are kept too (on its motion)
    document["nodes"][0]["extensions"]["OMI_physics_body"]["collider"] = {"extras": {}}  # the add-on's marker
    assert "/nodes/0/extensions/OMI_physics_body/collider/extras" not in {
        issue.pointer for issue in unknown.kept_key_findings(document)}  # an empty extras holds nothing to lose


def test_spec_examples_have_no_unknown_keys_and_no_transform_findings() -> None:
    for path in sorted(SPEC_DIR.rglob("*.gltf")):
        document = json.loads(path.read_text(encoding="utf-8"))
        assert reader.kept_key_findings(document) == [], path
        assert node_transforms.check(document) == [], path


_NUMBERS = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([0.0, 1e-7, 3.5e38, -3.5e38]),
                     st.integers(-3, 3))
_TRANSFORM = st.fixed_dictionaries({}, optional={
    "translation": st.lists(_NUMBERS, min_size=2, max_size=4), "scale": st.lists(_NUMBERS, min_size=3, max_size=3),
    "rotation": st.one_of(st.lists(_NUMBERS, min_size=4, max_size=4),
                          st.lists(st.sampled_from([0.0, 1e-7, 4e-7, 1.0]), min_size=4, max_size=4)),
    "matrix": st.lists(_NUMBERS, min_size=16, max_size=16), "name": st.just("N")})


@given(st.lists(_TRANSFORM, max_size=6))
def test_node_transforms_whole_file_shortcut_finds_what_each_node_finds(nodes: list[dict[str, Any]]) -> None:
    """`check` first asks whether the whole file's transforms are held (one pass); its findings are those of
    asking node by node."""
    one_by_one = [issue for index, node in enumerate(nodes) for issue in node_transforms._node(index, node)]
    assert node_transforms.check({"nodes": nodes}) == one_by_one
