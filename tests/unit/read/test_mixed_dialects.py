"""A file with OMI physics on some nodes and KHR physics on others is read in both (issue #27): no body of
either dialect is dropped, and a node that carries both is named when its two copies differ."""

from __future__ import annotations

from typing import Any

from omi_core.read import reader
from present import present

KHR_BODY, KHR_SHAPES = "KHR_physics_rigid_bodies", "KHR_implicit_shapes"
OMI_BODY, OMI_SHAPES = "OMI_physics_body", "OMI_physics_shape"


def mixed_level(crate_omi: dict[str, Any] | None = None) -> dict[str, Any]:
    """Ball: OMI only; Floor and Crate: KHR only (Crate also OMI when `crate_omi` is given)."""
    crate: dict[str, Any] = {KHR_BODY: {"motion": {"mass": 3}, "collider": {"geometry": {"shape": 1}}}}
    if crate_omi is not None:
        crate[OMI_BODY] = crate_omi
    return {
        "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0, 1, 2]}],
        "extensionsUsed": [OMI_SHAPES, OMI_BODY, KHR_SHAPES, KHR_BODY],
        "extensions": {
            OMI_SHAPES: {"shapes": [{"type": "sphere", "sphere": {"radius": 0.25}},
                                    {"type": "box", "box": {"size": [1, 1, 1]}}]},
            KHR_SHAPES: {"shapes": [{"type": "box", "box": {"size": [20, 0.5, 20]}},
                                    {"type": "box", "box": {"size": [1, 1, 1]}}]},
        },
        "nodes": [
            {"name": "Ball", "extensions": {OMI_BODY: {"motion": {"type": "dynamic"}, "collider": {"shape": 0}}}},
            {"name": "Floor", "extensions": {KHR_BODY: {"collider": {"geometry": {"shape": 0}}}}},
            {"name": "Crate", "extensions": crate},
        ],
    }


def test_both_dialects_are_read_node_by_node() -> None:
    doc = reader.read_document(mixed_level())
    assert sorted(doc.nodes) == [0, 1, 2]
    assert present(present(doc.nodes[0].collider).shape).type == "sphere"
    assert present(present(doc.nodes[1].collider).shape).size == (20.0, 0.5, 20.0) and doc.nodes[1].motion is None
    assert present(doc.nodes[2].motion).type == "dynamic" and present(doc.nodes[2].motion).mass == 3.0
    assert [issue.severity for issue in doc.issues if issue.severity != "info"] == []
    assert any("both are read" in issue.message for issue in doc.issues)


def test_a_node_with_two_different_copies_is_named_and_omi_wins() -> None:
    crate_omi = {"motion": {"type": "dynamic", "mass": 5}, "collider": {"shape": 1}}
    doc = reader.read_document(mixed_level(crate_omi))
    assert present(doc.nodes[2].motion).mass == 5.0
    warnings = [issue for issue in doc.issues if issue.severity == "warning"]
    assert [issue.pointer for issue in warnings] == ["/nodes/2/extensions"]
    assert "'Crate'" in warnings[0].message and "OMI physics is read" in warnings[0].message


def test_a_node_whose_two_copies_agree_gets_one_info_line() -> None:
    crate_omi = {"motion": {"type": "dynamic", "mass": 3}, "collider": {"shape": 1}}
    doc = reader.read_document(mixed_level(crate_omi))
    assert [issue for issue in doc.issues if issue.severity != "info"] == []
    assert any("1 node(s) carry both OMI and KHR physics that say the same" in issue.message
               for issue in doc.issues)


def test_validate_names_the_mixed_file_without_verbose() -> None:
    """`validate` (the CLI's rule set) shows the differing node as a warning, so it is seen without -v."""
    issues = reader.validate(mixed_level({"motion": {"type": "kinematic"}, "collider": {"shape": 1}}))
    assert any(issue.severity == "warning" and "'Crate'" in issue.message for issue in issues)
