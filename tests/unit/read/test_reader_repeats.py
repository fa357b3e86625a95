"""The reader's shortcuts for large files, held to the long way round:
- each distinct body object is read once (`read.omi.read_body_once`): every node still reads as if it
  stood alone, with the same model values and the same findings at its own pointers;
- `tree_mended` (the import has mended the node tree): the hierarchy is made only when a rule needs it, and
  the document reads the same."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from omi_core.checks import gltf_structure, rulebook
from omi_core.read import reader
from present import present
from property_inputs import BODY, SETTINGS, SHAPE, omi_documents

SHAPES: list[Any] = [{"type": "box", "box": {"size": [1.0, 2.0, 3.0]}}, {"type": "sphere", "sphere": {"radius": 0.5}}]
MATERIALS = [{"staticFriction": 0.8}, {"restitution": 0.5}]


def _document(bodies: list[Any], shapes: list[Any] = SHAPES) -> dict[str, Any]:
    nodes = [{"name": f"N{index}", **({"extensions": {"OMI_physics_body": body}} if body is not None else {})}
             for index, body in enumerate(bodies)]
    return {"asset": {"version": "2.0"}, "extensionsUsed": ["OMI_physics_body", "OMI_physics_shape"],
            "extensions": {"OMI_physics_shape": {"shapes": shapes},
                           "OMI_physics_body": {"physicsMaterials": MATERIALS}},
            "nodes": nodes}


def _node_issues(issues: list[Any], index: int) -> list[Any]:
    prefix = f"/nodes/{index}/"
    return [(issue.pointer, issue.message, issue.severity) for issue in issues if issue.pointer.startswith(prefix)]


def _alone(reader: Any, bodies: list[object], index: int) -> Any:
    """The node read in a document where no other node has a body (the same indices and arrays)."""
    return reader.read_document(_document([body if position == index else None
                                           for position, body in enumerate(bodies)]))


@SETTINGS
@given(pool=st.lists(BODY, min_size=1, max_size=4), shapes=st.lists(SHAPE, max_size=3),
       picks=st.lists(st.integers(0, 3), min_size=2, max_size=9))
@pytest.mark.slow
def test_repeated_bodies_read_as_if_each_stood_alone(pool: Any, shapes: Any, picks: Any) -> None:
    pool = [body for body in pool if not (isinstance(body, dict) and "trigger" in body)] or [{}]
    bodies = [pool[pick % len(pool)] for pick in picks]
    together = reader.read_document(_document(bodies, shapes))
    legacy_notes = set(rulebook.LEGACY_REVISION_NOTES.values())  # said once per file, at its first node
    for index in range(len(bodies)):
        alone = reader.read_document(_document([body if position == index else None
                                                for position, body in enumerate(bodies)], shapes))
        assert together.nodes.get(index) == alone.nodes.get(index)
        assert [found for found in _node_issues(together.issues, index) if found[1] not in legacy_notes] == \
            [found for found in _node_issues(alone.issues, index) if found[1] not in legacy_notes]


def test_a_repeated_body_with_findings_is_reported_at_every_node() -> None:
    body = {"motion": {"type": "dynamic", "futureKey": 1}, "collider": {"shape": 7}}
    doc = reader.read_document(_document([body, body, body]))
    for index in range(3):
        pointers = [pointer for pointer, _message, _severity in _node_issues(doc.issues, index)]
        assert pointers == [f"/nodes/{index}/extensions/OMI_physics_body/motion/futureKey",
                            f"/nodes/{index}/extensions/OMI_physics_body/collider/shape"]


def test_equal_numbers_of_other_types_are_not_the_same_body() -> None:
    bodies = [{"motion": {"mass": 2}}, {"motion": {"mass": 2.0}}, {"motion": {"mass": True}},
              {"motion": {"mass": 0.0}}, {"motion": {"mass": -0.0}}, {"motion": {"mass": 2.0}}]
    doc = reader.read_document(_document(bodies))
    masses = [present(doc.nodes[index].motion).mass for index in range(len(bodies))]
    assert masses[:3] == [2.0, 2.0, 1.0]  # true is not a number: the default, reported at its node
    assert [issue.pointer for issue in doc.issues if "mass" in issue.pointer] == \
        ["/nodes/2/extensions/OMI_physics_body/motion/mass"]
    assert (math.copysign(1.0, masses[3]), math.copysign(1.0, masses[4])) == (1.0, -1.0)
    for index in range(len(bodies)):
        assert doc.nodes[index] == _alone(reader, bodies, index).nodes[index]


def test_repeated_bodies_share_one_value() -> None:
    body = {"motion": {"type": "dynamic", "mass": 2.0}, "collider": {"shape": 0, "physicsMaterial": 1}}
    doc = reader.read_document(_document([body, dict(body), {**body}]))
    assert doc.issues == []
    assert doc.nodes[0] is doc.nodes[1] is doc.nodes[2]
    assert present(present(doc.nodes[0].collider).physics_material).restitution == 0.5


@pytest.mark.slow
@SETTINGS
@given(gltf=omi_documents())
def test_a_mended_tree_reads_the_same_without_its_hierarchy_made_first(gltf: Any) -> None:
    links, _dropped = gltf_structure.node_tree(gltf["nodes"])
    for node in gltf["nodes"]:
        node.pop("children", None)
    for child, (owner, _position) in sorted(links.items(), key=lambda link: link[1]):
        gltf["nodes"][owner].setdefault("children", []).append(child)  # the tree as the import's repair leaves it
    assert reader.read_document(gltf, tree_mended=True) == reader.read_document(gltf)
