"""Property tests of the KHR dialect: whatever our KHR files are mutated into (values replaced, deleted,
retyped), reading never raises, reports with pointers, and writing what it read in KHR is schema-valid and
reads back as the same model; OMI and KHR written together read back the same in both dialects."""

from __future__ import annotations

import copy
import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from omi_core import model
from omi_core.checks import canonical, schema_khr
from omi_core.dialects import khr
from omi_core.read import reader
from omi_core.write import dialect_convert as convert
from omi_core.write import writer
from property_inputs import JSON_VALUES, SETTINGS, omi_documents, omi_held, value_at

pytestmark = pytest.mark.slow  # seconds per test (docs/development.md: the fast suite)

KHR_FILES = sorted((Path(__file__).resolve().parents[2] / "data" / "khr").glob("*.gltf"))
EXAMPLES = [json.loads(path.read_text(encoding="utf-8")) for path in KHR_FILES]
KHR_NAMES = khr.KHR.extensions


def _paths(gltf: dict[str, Any]) -> list[tuple[Any, ...]]:
    roots: list[tuple[str | int, ...]] = [
        ("extensions", name) for name in KHR_NAMES if name in gltf.get("extensions", {})]
    roots += [("nodes", index, "extensions", name) for index, node in enumerate(gltf["nodes"])
              for name in KHR_NAMES if name in node.get("extensions", {})]
    found: list[tuple[Any, ...]] = []
    stack: list[tuple[tuple[str | int, ...], Any]] = [(root, value_at(gltf, root)) for root in roots]
    while stack:
        path, value = stack.pop()
        found.append(path)
        children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
        stack.extend(((*path, key), child) for key, child in children)
    return found


@st.composite
def mutated(draw: Any) -> dict[str, Any]:
    gltf = copy.deepcopy(draw(st.sampled_from(EXAMPLES)))
    for _ in range(draw(st.integers(1, 4))):
        paths = _paths(gltf)
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        if len(path) < 3:
            continue
        parent, key = value_at(gltf, path[:-1]), path[-1]
        if draw(st.booleans()) and isinstance(parent, dict):
            del parent[key]
        else:
            parent[key] = draw(JSON_VALUES)
    value: dict[str, Any] = gltf
    return value


@SETTINGS
@given(gltf=mutated())
def test_mutated_khr_files(gltf: Any) -> None:
    doc = reader.read_document(gltf, "KHR")
    assert [found for found in doc.issues if reader.INTERNAL_ERROR in found.message] == []
    assert all(found.pointer == "" or found.pointer.startswith("/") for found in doc.issues)
    written = writer.write_document(doc, gltf, ("KHR",))
    if schema_khr.unavailable_reason() is None:
        assert [str(found) for found in schema_khr.khr_schema_errors(written)] == []
    assert _meaning(reader.read_document(written, "KHR").nodes) == _meaning(doc.nodes)
    both = writer.write_document(doc, gltf, ("OMI", "KHR"))
    assert _meaning(reader.read_document(both, "KHR").nodes) == _meaning(doc.nodes)
    assert _meaning(reader.read_document(both, "OMI").nodes) == _meaning(omi_held(doc.nodes))




def _meaning(nodes: dict[int, Any]) -> dict[int, Any]:
    """The model with what means the same spelled one way: an empty collision filter as no filter (both
    dialects write it as none), a capsule/cylinder height at the type's default as that number (OMI omits it)."""
    empty = model.CollisionFilter()

    def clean(part: Any) -> Any:
        if part is None:
            return part
        if part.shape is not None and part.shape.type in model.ROUND_SHAPE_TYPES:
            part = dataclasses.replace(part, shape=dataclasses.replace(part.shape, height=part.shape.effective_height))
        material = getattr(part, "physics_material", None)
        if material is not None and dataclasses.replace(material, name="") == model.PhysicsMaterial():
            part = dataclasses.replace(part, physics_material=None)  # OMI writes a default material as none
        if part.collision_filter is None:
            return part
        kept = part.collision_filter if dataclasses.replace(part.collision_filter, name="") != empty else None
        return dataclasses.replace(part, collision_filter=kept)

    return {index: dataclasses.replace(node, collider=clean(node.collider), trigger=clean(node.trigger))
            for index, node in nodes.items()}


@SETTINGS
@given(gltf=omi_documents())
def test_random_omi_documents_convert_to_khr_and_back(gltf: Any) -> None:
    """OMI -> KHR -> OMI keeps the physics of every node, except where a finding of either conversion (or
    of reading the input) names that node or one of its ancestors."""
    there = convert.convert(gltf, "KHR")
    back = convert.convert(there.document, "OMI")
    found = {int(item.pointer.split("/")[2]) for item in there.issues + back.issues
             if item.pointer.startswith("/nodes/") and item.pointer.split("/")[2].isdigit()}
    paths = canonical.node_paths(gltf)
    named = {paths[index] for index in found if index in paths}
    differing = {difference.split(":")[0].split(".")[0] for difference in canonical.diff_physics(gltf, back.document)}
    unexplained = [path for path in differing if not any(path == name or path.startswith(name + "/") for name in named)]
    assert unexplained == [], [str(item) for item in there.issues]
