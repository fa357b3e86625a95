"""The animation import's reads (io/omi/animation/moved_values): the document with one value moved at its pointer
shares everything off the pointer's way, each moved value is read once, and a joint's moved limit or drive
value is the whole reading's physics without a document read."""

from __future__ import annotations

from typing import Any

import pytest
from omi_core.animation import moved_values
from omi_core.dialects import pointers
from omi_core.read import reader
from present import present

POINTER = "/extensions/OMI_physics_joint/physicsJoints/0/limits/0/min"


def _document() -> dict[str, Any]:
    return {"asset": {"version": "2.0"}, "extensionsUsed": ["OMI_physics_body", "OMI_physics_joint"],
            "nodes": [{"name": "A", "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic"}}}},
                      {"name": "B", "extensions": {"OMI_physics_body": {"motion": {"type": "dynamic"}}}},
                      {"name": "J", "extensions": {"OMI_physics_joint": {"joint": 0, "connectedNode": 1}}}],
            "extensions": {"OMI_physics_joint": {"physicsJoints": [
                {"limits": [{"angularAxes": [2], "min": -0.5, "max": 1.0}]}]}}}


def test_a_moved_value_copies_only_the_containers_on_its_way() -> None:
    document = _document()
    moved = moved_values.with_value(document, present(pointers.match(POINTER)), -0.25)
    assert moved["extensions"]["OMI_physics_joint"]["physicsJoints"][0]["limits"][0]["min"] == -0.25
    assert document["extensions"]["OMI_physics_joint"]["physicsJoints"][0]["limits"][0]["min"] == -0.5
    assert moved["nodes"] is document["nodes"]
    assert moved_values.plain([2.0], "float") == 2.0
    assert moved_values.plain([1.0, 2.0, 3.0], "float3") == [1.0, 2.0, 3.0]


def test_each_moved_value_is_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    read_document = reader.read_document
    reads: list[int] = []

    def counted(*args: Any, **kwargs: Any) -> Any:
        reads.append(1)
        return read_document(*args, **kwargs)

    monkeypatch.setattr(reader, "read_document", counted)
    found = present(pointers.match("/nodes/0/extensions/OMI_physics_body/motion/mass"))
    physics = moved_values.MovedValues(_document())
    assert len(reads) == 1
    first = physics.at(found, [3.0])
    assert physics.at(found, [3.0]) is first
    assert len(reads) == 2
    assert (present(first.nodes[0].motion).mass, present(physics.rest.nodes[0].motion).mass) == (3.0, 1.0)
    for value in range(moved_values.KEPT + 1):  # the oldest read is let go: memory stays bounded
        physics.at(found, [10.0 + value])
    physics.at(found, [3.0])
    assert len(reads) == 2 + moved_values.KEPT + 2


def _khr_document() -> dict[str, Any]:
    body = {"motion": {"mass": 1.0}}
    return {"asset": {"version": "2.0"}, "extensionsUsed": ["KHR_physics_rigid_bodies"],
            "nodes": [{"name": "A", "extensions": {"KHR_physics_rigid_bodies": body}},
                      {"name": "B", "extensions": {"KHR_physics_rigid_bodies": body}},
                      {"name": "J", "extensions": {"KHR_physics_rigid_bodies": {
                          "joint": {"joint": 0, "connectedNode": 1}}}},
                      {"name": "K", "extensions": {"KHR_physics_rigid_bodies": {
                          "joint": {"joint": 0, "connectedNode": 0}}}}],
            "extensions": {"KHR_physics_rigid_bodies": {"physicsJoints": [
                {"limits": [{"angularAxes": [2], "min": -0.5, "max": 1.0, "stiffness": 10.0}],
                 "drives": [{"type": "angular", "mode": "force", "axis": 2, "velocityTarget": 1.5,
                             "damping": 2.0}]}]}}}


@pytest.mark.parametrize(("make", "extension"), [(_document, "OMI_physics_joint"),
                                                 (_khr_document, "KHR_physics_rigid_bodies")])
def test_a_moved_joint_value_is_the_whole_reading_without_a_document_read(monkeypatch: pytest.MonkeyPatch, make: Any,
                                                                          extension: Any) -> None:
    """Every joint node using the item gets it read again; values the reader refuses (a negative stiffness,
    a limit whose min passes its max) are refused alike."""
    document = make()
    if extension == "OMI_physics_joint":
        document["extensions"][extension]["physicsJoints"][0]["drives"] = [
            {"type": "angular", "mode": "force", "axis": 2, "velocityTarget": 1.5, "damping": 2.0}]
        document["extensions"][extension]["physicsJoints"][0]["limits"][0]["stiffness"] = 10.0
    read_document = reader.read_document
    physics = moved_values.MovedValues(document)
    monkeypatch.setattr(reader, "read_document", lambda *a, **k: pytest.fail("a document was read"))
    joints = f"/extensions/{extension}/physicsJoints/0"
    for pointer, values in ((f"{joints}/limits/0/min", (-0.25, 0.5, 2.0, -1e6)),
                            (f"{joints}/limits/0/stiffness", (0.0, 5.0, -1.0)),
                            (f"{joints}/drives/0/velocityTarget", (0.0, -3.5)),
                            (f"{joints}/drives/0/damping", (4.0, -2.0))):
        found = present(pointers.match(pointer))
        for value in values:
            moved = physics.at(found, [value])
            whole = read_document(moved_values.with_value(document, found, value))
            assert moved.nodes == whole.nodes, (pointer, value)
    assert physics.at(present(pointers.match(f"{joints}/limits/0/min")), [0.5]).nodes != physics.rest.nodes
