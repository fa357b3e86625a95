"""The animation import's reads (io/omi/animation/moved_values): the document with one value moved at its pointer
shares everything off the pointer's way, and each moved value is read once."""

from __future__ import annotations

from omi_core_loader import core

POINTER = "/extensions/OMI_physics_joint/physicsJoints/0/limits/0/min"


def _document() -> dict:
    return {"asset": {"version": "2.0"}, "extensionsUsed": ["OMI_physics_body", "OMI_physics_joint"],
            "nodes": [{"name": "A", "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic"}}}},
                      {"name": "B", "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic"}}}},
                      {"name": "J", "extensions": {"OMI_physics_joint": {"joint": 0, "connectedNode": 1}}}],
            "extensions": {"OMI_physics_joint": {"physicsJoints": [
                {"limits": [{"angularAxes": [2], "min": -0.5, "max": 1.0}]}]}}}


def test_a_moved_value_copies_only_the_containers_on_its_way():
    moved_values, pointers = core("animation.moved_values"), core("dialects.pointers")
    document = _document()
    moved = moved_values.with_value(document, pointers.match(POINTER), -0.25)
    assert moved["extensions"]["OMI_physics_joint"]["physicsJoints"][0]["limits"][0]["min"] == -0.25
    assert document["extensions"]["OMI_physics_joint"]["physicsJoints"][0]["limits"][0]["min"] == -0.5
    assert moved["nodes"] is document["nodes"]
    assert moved_values.plain([2.0], "float") == 2.0
    assert moved_values.plain([1.0, 2.0, 3.0], "float3") == [1.0, 2.0, 3.0]


def test_each_moved_value_is_read_once(monkeypatch):
    moved_values, pointers, reader = core("animation.moved_values"), core("dialects.pointers"), core("read.reader")
    read_document = reader.read_document
    reads = []
    monkeypatch.setattr(reader, "read_document", lambda document, *a, **k: reads.append(1) or read_document(
        document, *a, **k))
    found = pointers.match(POINTER)
    physics = moved_values.MovedValues(_document())
    assert len(reads) == 1
    first = physics.at(found, [-0.25])
    assert physics.at(found, [-0.25]) is first
    assert len(reads) == 2
    limit = first.nodes[2].joint.settings.limits[0]
    assert (limit.min, physics.rest.nodes[2].joint.settings.limits[0].min) == (-0.25, -0.5)
    for value in range(moved_values.KEPT + 1):  # the oldest read is let go: memory stays bounded
        physics.at(found, [float(value)])
    physics.at(found, [-0.25])
    assert len(reads) == 2 + moved_values.KEPT + 2
