"""A body's centre of mass left to the engine (issue #27): KHR's absent `centerOfMass` is "computed from the
colliders" (None in the model), OMI's absent key is the origin. Each round trip keeps what its file said:
absent stays absent, a written value (even [0, 0, 0]) stays written where it is not the dialect's default."""

from __future__ import annotations

import copy
from typing import Any

from omi_core import model
from omi_core.read import reader
from omi_core.write import dialect_convert as convert
from omi_core.write import writer
from present import present

KHR_BODY, KHR_SHAPES = "KHR_physics_rigid_bodies", "KHR_implicit_shapes"
OMI_BODY, OMI_SHAPE = "OMI_physics_body", "OMI_physics_shape"


def khr_file(motion: dict[str, Any]) -> dict[str, Any]:
    """A KHR body whose only collider sits 2 m off its origin (so the computed centre is not the origin)."""
    return {
        "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
        "extensionsUsed": [KHR_BODY, KHR_SHAPES],
        "extensions": {KHR_SHAPES: {"shapes": [{"type": "box", "box": {"size": [1, 1, 1]}}]}},
        "nodes": [{"name": "Lopsided", "children": [1], "extensions": {KHR_BODY: {"motion": motion}}},
                  {"name": "Weight", "translation": [2, 0, 0],
                   "extensions": {KHR_BODY: {"collider": {"geometry": {"shape": 0}}}}}],
    }


def omi_file(motion: dict[str, Any]) -> dict[str, Any]:
    return {
        "asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
        "extensionsUsed": [OMI_BODY, OMI_SHAPE],
        "extensions": {OMI_SHAPE: {"shapes": [{"type": "box", "box": {"size": [1, 1, 1]}}]}},
        "nodes": [{"name": "Lopsided", "extensions": {OMI_BODY: {"motion": motion, "collider": {"shape": 0}}}}],
    }


def written_motion(gltf: dict[str, Any], dialect: str, issues: list[Any] | None = None) -> dict[str, Any]:
    doc = reader.read_document(gltf)
    out = writer.write_document(doc, gltf, (dialect,), issues=issues)
    body = KHR_BODY if dialect == "KHR" else OMI_BODY
    value: dict[str, Any] = out["nodes"][0]["extensions"][body]["motion"]
    return value


def test_khr_absent_centre_is_computed_and_stays_absent() -> None:
    gltf = khr_file({})
    assert present(reader.read_document(gltf).nodes[0].motion).center_of_mass is None
    assert "centerOfMass" not in written_motion(gltf, "KHR")


def test_khr_written_centre_stays_written_even_at_the_origin() -> None:
    for centre in ([0.0, 0.0, 0.0], [0.5, -1.0, 2.0]):
        gltf = khr_file({"centerOfMass": centre})
        assert present(reader.read_document(gltf).nodes[0].motion).center_of_mass == tuple(centre)
        assert written_motion(gltf, "KHR")["centerOfMass"] == centre  # [0, 0, 0] pins it: not KHR's absent


def test_omi_absent_centre_is_the_origin_and_stays_absent() -> None:
    gltf = omi_file({"type": "dynamic"})
    assert present(reader.read_document(gltf).nodes[0].motion).center_of_mass == model.ZERO3  # OMI's default: stated
    assert "centerOfMass" not in written_motion(gltf, "OMI")
    assert written_motion(gltf, "KHR")["centerOfMass"] == [0.0, 0.0, 0.0]  # the origin, pinned, in KHR too
    gltf = omi_file({"type": "dynamic", "centerOfMass": [0.0, 1.0, 0.0]})
    assert written_motion(gltf, "OMI")["centerOfMass"] == [0.0, 1.0, 0.0]


def test_computed_centre_converted_to_omi_is_noted() -> None:
    """`convert` names a centre the file left to the engine that OMI cannot leave out (an info note: OMI has
    no way to say it, so `convert` does not refuse); the writer itself says nothing, as Blender's settings
    leave it to the engine for every new body."""
    issues: list[Any] = []
    assert "centerOfMass" not in written_motion(khr_file({}), "OMI", issues)
    assert [issue for issue in issues if issue.kind == "khr_computed_unwritten"] == []
    conversion = convert.convert(khr_file({}), "OMI")
    found = [issue for issue in conversion.issues if issue.kind == "khr_computed_unwritten"]
    assert [issue.pointer for issue in found] == [f"/nodes/0/extensions/{OMI_BODY}/motion/centerOfMass"]
    assert found[0].severity == "info" and "[0, 0, 0]" in found[0].message
    assert conversion.lost == []
    stated = convert.convert(khr_file({"centerOfMass": [0.0, 0.0, 0.0]}), "OMI")
    assert [issue for issue in stated.issues if issue.kind == "khr_computed_unwritten"] == []
    assert [issue for issue in convert.convert(khr_file({}), "KHR").issues
            if issue.kind == "khr_computed_unwritten"] == []  # KHR can say it: nothing to name


def test_both_dialects_agree_on_a_computed_centre() -> None:
    """The add-on's own "both" output of a computed centre is no disagreement between its two copies."""
    gltf = khr_file({})
    doc = reader.read_document(gltf)
    both = writer.write_document(doc, copy.deepcopy(gltf), ("OMI", "KHR"))
    again = reader.read_document(both)
    assert [issue for issue in again.issues if "differ" in issue.message] == []
