"""The reader asks an extension unit to read only when the document holds its extension somewhere (on the
document or on a node): every unit's reading walks every node, so a large file without vehicles, seats or
spawn points is walked once instead of once per unit, and a file that has them reads them as before."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from omi_core.dialects import registry
from omi_core.read import reader


@pytest.fixture
def units_read(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the extension units asked to read, in order (each still reads)."""
    asked: list[str] = []
    for unit in registry.extension_units():
        def read(gltf: Any, doc: Any, shapes: Any, unit: registry.ExtensionUnit = unit) -> None:
            asked.append(unit.name)
            unit.read(gltf, doc, shapes)
        monkeypatch.setitem(registry._EXTENSIONS, unit.name, dataclasses.replace(unit, read=read))
    return asked


def _document(*, node_extensions: dict[str, Any], root: dict[str, Any] | None = None) -> dict[str, Any]:
    body = {"OMI_physics_body": {"motion": {"type": "dynamic"}}}
    return {"asset": {"version": "2.0"}, "extensionsUsed": ["OMI_physics_body", *node_extensions, *(root or {})],
            **({"extensions": root} if root else {}),
            "nodes": [{"name": "Body", "extensions": body}, {"name": "Other", "extensions": node_extensions}]}


def test_no_unit_is_asked_when_the_file_holds_none_of_theirs(units_read: list[str]) -> None:
    doc = reader.read_document(_document(node_extensions={}))
    assert units_read == []
    assert doc.nodes[0].motion is not None


def test_a_unit_on_a_node_is_read(units_read: list[str]) -> None:
    doc = reader.read_document(_document(node_extensions={"OMI_spawn_point": {"title": "Start"}}))
    assert units_read == ["OMI_spawn_point"]
    assert doc.nodes[1].extensions.get("OMI_spawn_point") is not None


def test_a_unit_only_on_the_document_is_read_and_its_findings_said(units_read: list[str]) -> None:
    wheels = {"wheels": [{"radius": -1.0}]}
    doc = reader.read_document(_document(node_extensions={}, root={"OMI_vehicle_wheel": wheels}))
    assert units_read == ["OMI_vehicle_wheel"]
    assert any(issue.pointer.startswith("/extensions/OMI_vehicle_wheel") for issue in doc.issues)


def test_present_names_tolerate_malformed_json() -> None:
    document: dict[str, Any] = {"extensions": {"A": {}},
                                "nodes": [None, {"extensions": []}, {"extensions": {"B": 1}}, 3]}
    assert reader.extensions_present(document) == {"A", "B"}
    assert reader.extensions_present({"nodes": {}}) == set()
