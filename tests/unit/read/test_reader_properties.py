"""Property tests: whatever the input (spec examples mutated in values, types and keys; random OMI-shaped
documents; fully random JSON), read_document never raises, reports what it drops, and write_document of
what it returns is schema-valid and reads back with the same meaning."""

from __future__ import annotations

import json
from typing import Any

import omi_core.checks.canonical
import omi_core.dialects.base
import omi_core.dialects.omi
import omi_core.model
import omi_core.read.reader
import omi_core.write.writer
import pytest
import schema_check
from hypothesis import given
from hypothesis import strategies as st
from property_inputs import CURRENT_EXAMPLES, EXAMPLES, JSON_VALUES, SETTINGS, mutated_examples, omi_documents

pytestmark = pytest.mark.slow  # seconds per test (docs/development.md: the fast suite)

@pytest.fixture(scope="module")
def core() -> Any:
    return omi_core.read.reader, omi_core.write.writer, omi_core.checks.canonical


def _strict_json(value: Any) -> bool:
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError):
        return False
    return True


def _check(core: Any, gltf: Any) -> list[Any]:
    """The properties every input must have; returns the issues of reading it."""
    reader, writer, canonical = core
    doc = reader.read_document(gltf)
    internal = [issue for issue in doc.issues if reader.INTERNAL_ERROR in issue.message]
    assert internal == []
    for issue in doc.issues:
        assert issue.severity in ("error", "warning", "info")
        assert issue.pointer == "" or issue.pointer.startswith("/")
        assert isinstance(issue.message, str) and issue.message
    written = writer.write_document(doc, gltf if isinstance(gltf, dict) else {})
    errors = schema_check.omi_schema_errors(written)
    if not _strict_json(gltf):  # NaN outside the OMI objects is the input's own, kept untouched
        errors = [error for error in errors if "not strict JSON" not in error]
    assert errors == []
    again = reader.read_document(written)
    first_pointers = {issue.pointer for issue in doc.issues}
    # the written OMI content is clean; only non-OMI garbage kept untouched (e.g. "nodes": 3) may repeat
    assert [issue for issue in again.issues if issue.severity == "error" and issue.pointer not in first_pointers] == []
    assert canonical.diff_physics(canonical.canonical_physics(written), canonical.canonical_physics(gltf)) == []
    value: list[Any] = doc.issues
    return value


needs_schemas = pytest.mark.skipif(not schema_check.schemas_available(),
                                   reason="the jsonschema package is not installed")


@needs_schemas
@SETTINGS
@given(data=st.data())
def test_mutated_examples(core: Any, data: Any) -> None:
    gltf = data.draw(mutated_examples(EXAMPLES))
    _check(core, gltf)


@needs_schemas
@SETTINGS
@given(data=st.data())
def test_schema_violations_in_current_files_are_reported(core: Any, data: Any) -> None:
    """A mutated current-revision example that breaks the (strict) schemas yields at least one issue."""
    gltf = data.draw(mutated_examples(CURRENT_EXAMPLES))
    issues = _check(core, gltf)
    violations = [error for error in schema_check.omi_schema_errors(gltf)
                  if "/extensionsUsed" not in error and "not strict JSON" not in error]  # unknown keys are ignored
    if violations:
        assert issues, violations


@needs_schemas
@SETTINGS
@given(gltf=omi_documents())
def test_random_omi_documents(core: Any, gltf: Any) -> None:
    _check(core, gltf)


@needs_schemas
@SETTINGS
@given(gltf=JSON_VALUES | st.dictionaries(st.sampled_from(["nodes", "extensions", "meshes", "extensionsUsed"]),
                                          JSON_VALUES))
def test_random_json(core: Any, gltf: Any) -> None:
    _check(core, gltf)


@needs_schemas
@SETTINGS
@given(gltf=omi_documents())
def test_dropped_node_physics_is_reported(core: Any, gltf: Any) -> None:
    """A motion/collider/trigger/joint present in the input but absent from the model has an issue under
    its node's pointer."""
    reader, _writer, _canonical = core
    doc = reader.read_document(gltf)
    for index, node in enumerate(gltf["nodes"]):
        extensions = node.get("extensions", {})
        body = extensions.get("OMI_physics_body")
        present = [key for key in ("motion", "collider", "trigger") if isinstance(body, dict) and key in body]
        if "OMI_physics_joint" in extensions:
            present.append("joint")
        physics = doc.nodes.get(index)
        for key in present:
            if physics is None or getattr(physics, key) is None:
                reported = [issue for issue in doc.issues if issue.severity != "info"
                            and issue.pointer.startswith(f"/nodes/{index}/")]
                assert reported, (index, key)
