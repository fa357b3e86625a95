"""A newer file must not lose its newer data in our hands (issue 13): keys the dialect tables do not declare,
inside every OMI object and beside the document-level arrays, and the file's spelling of open enum values
(a drive mode 'servo'), are kept by the reader and written back by the writer, unchanged; where a writer
cannot carry them (KHR, a changed setting, a schema rule) it says which key of which object. Pure: no bpy."""

from __future__ import annotations

import copy
import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
import schema_check
from omi_core import gltf_file, model
from omi_core.read import reader
from omi_core.write import writer
from present import present

NEWER = Path(__file__).resolve().parents[2] / "data" / "newer" / "newer_keys.gltf"
OMI = ("OMI_physics_shape", "OMI_physics_body", "OMI_physics_joint")


def _newer() -> dict[str, Any]:
    value: dict[str, Any] = json.loads(NEWER.read_text(encoding="utf-8"))
    return value


def _omi(document: dict[str, Any]) -> dict[str, Any]:
    """Every OMI extension object of a document, document level and per node."""
    found = {name: document["extensions"].get(name) for name in OMI}
    for index, node in enumerate(document["nodes"]):
        for name in OMI:
            found[f"{index}/{name}"] = (node.get("extensions") or {}).get(name)
    return found


def test_every_unknown_key_and_enum_spelling_is_written_back_unchanged() -> None:
    source = _newer()
    doc = reader.read_document(source)
    kept = [issue for issue in doc.issues if issue.kind == "unknown_key"]
    assert kept and all("kept" in issue.message for issue in kept)
    assert [issue.message for issue in doc.issues if issue.pointer.endswith("/drives/0/mode")] == [
        "drive mode 'servo' is not one of force, acceleration (other extensions may define it; not portable): read "
        "as force; the file's value is kept and written back unless the setting is changed"]
    written = writer.write_document(doc, source)
    assert _omi(written) == _omi(source)
    assert schema_check.omi_schema_errors(written) == []
    again = reader.read_document(written)
    assert again.nodes == doc.nodes and again.unknown == doc.unknown


def test_the_model_holds_the_fallback_and_the_file_spelling_apart() -> None:
    drive = present(reader.read_document(_newer()).nodes[2].joint).settings.drives[0]
    assert drive.mode == "force"
    assert dict(drive.unknown) == {"mode": "servo", "gearRatio": 3.0}


def test_a_changed_setting_wins_over_the_kept_spelling() -> None:
    """The file's 'servo' is written back only while the model still holds its fallback 'force'; a mode the
    user chose is written instead, and the drive's other kept keys stay."""
    source = _newer()
    doc = reader.read_document(source)
    joint = present(doc.nodes[2].joint)
    drive = dataclasses.replace(joint.settings.drives[0], mode="acceleration")
    settings = dataclasses.replace(joint.settings, drives=(drive,))
    doc.nodes[2] = dataclasses.replace(doc.nodes[2], joint=dataclasses.replace(joint, settings=settings))
    written = writer.write_document(doc, source)
    drive_json = written["extensions"]["OMI_physics_joint"]["physicsJoints"][0]["drives"][0]
    assert (drive_json["mode"], drive_json["gearRatio"]) == ("acceleration", 3.0)


def test_a_known_key_is_never_overridden_by_a_kept_one() -> None:
    doc = reader.read_document(_newer())
    motion = dataclasses.replace(present(doc.nodes[1].motion),
                                 unknown=model.Unknown({"mass": 99.0, "linearDamping": 0.3}, "OMI"))
    written = writer.motion_to_json(motion)
    assert (written["mass"], written["linearDamping"]) == (2.0, 0.3)


def test_a_shape_whose_type_changed_leaves_the_old_type_values_out() -> None:
    box = present(present(reader.read_document(_newer()).nodes[0].collider).shape)
    assert dict(box.type_unknown) == {"box": {"margin": 0.01, "extras": {"note": "box values"}}}
    sphere = dataclasses.replace(box, type="sphere")
    written = writer.shape_to_json(sphere)
    assert written["sphere"] == {} and "box" not in written and written["roundedCorners"] is True


def test_closed_enums_are_read_as_their_fallback_and_said_not_kept() -> None:
    """The schema's motion type and combine modes are closed enums: writing a newer value back would fail the
    schema, so the reader names it as not kept."""
    source = _newer()
    source["nodes"][1]["extensions"]["OMI_physics_body"]["motion"]["type"] = "ragdoll"
    source["extensions"]["OMI_physics_body"]["physicsMaterials"][0]["frictionCombine"] = "geometric"
    doc = reader.read_document(source)
    said = {issue.pointer: issue.message for issue in doc.issues}
    assert "not kept" in said["/nodes/1/extensions/OMI_physics_body/motion/type"]
    assert "not kept" in said["/extensions/OMI_physics_body/physicsMaterials/0/frictionCombine"]
    written = writer.write_document(doc, source)
    assert written["nodes"][1]["extensions"]["OMI_physics_body"]["motion"]["type"] == "dynamic"
    assert schema_check.omi_schema_errors(written) == []


def test_khr_names_each_key_it_cannot_carry() -> None:
    source = _newer()
    doc = reader.read_document(source)
    issues: list[Any] = []
    written = writer.write_document(doc, source, ("KHR",), issues=issues)
    named = {(issue.pointer, issue.message.split("'")[1]) for issue in issues if issue.kind == "unknown_key"}
    assert ("/nodes/0/extensions/OMI_physics_body/collider", "isSensor") in named
    assert ("/nodes/2/extensions/OMI_physics_joint/joint/drives/0", "mode") in named
    assert ("/extensions/OMI_physics_body/futureArray", "futureArray") in named
    assert "isSensor" not in json.dumps(written["nodes"][0]["extensions"]["KHR_physics_rigid_bodies"])


def test_document_keys_without_the_required_array_are_named_not_written() -> None:
    source = _newer()
    source["extensions"]["OMI_physics_joint"] = {"physicsJoints": [{"drives": [{"type": "linear", "mode": "force",
                                                                               "axis": 0}]}], "newer": 1}
    doc = reader.read_document(source)
    doc.nodes.pop(2)  # the only joint: the export has no physicsJoints
    issues: list[Any] = []
    written = writer.write_document(doc, source, issues=issues)
    assert "OMI_physics_joint" not in written["extensions"]
    assert [issue.pointer for issue in issues] == ["/extensions/OMI_physics_joint/newer"]


def test_a_value_json_cannot_write_is_dropped_and_named() -> None:
    source = _newer()
    source["nodes"][1]["extensions"]["OMI_physics_body"]["motion"]["drag"] = float("nan")
    doc = reader.read_document(source)
    assert any(issue.pointer.endswith("/motion/drag") and "dropped" in issue.message for issue in doc.issues)
    json.dumps(writer.write_document(doc, source), allow_nan=False)


def test_kept_keys_are_values() -> None:
    """Unknown is immutable and hashable: model items stay usable as dict keys and compare by value."""
    first = model.Unknown({"a": [1, {"b": 2}]}, "OMI")
    assert first == model.Unknown.from_text(first.text, "OMI")
    assert hash(first) == hash(model.Unknown({"a": [1, {"b": 2}]}, "OMI"))
    fresh = first.fresh()
    fresh["a"].append(3)
    assert first.fresh() == {"a": [1, {"b": 2}]}
    assert model.Unknown({"a": 1}, "KHR") != model.Unknown({"a": 1}, "OMI") and model.Unknown() == model.NOTHING_UNKNOWN
    assert model.Unknown.from_text("not json", "OMI") == model.NOTHING_UNKNOWN
    with pytest.raises(ValueError, match="dialect"):
        model.Unknown({"a": 1})  # kept keys without the dialect that spells them
    assert copy.deepcopy(model.Shape("box", unknown=first)) == model.Shape("box", unknown=first)


def test_legacy_objects_carry_their_keys_where_the_current_revision_has_room() -> None:
    """`upgrade` (legacy -> current): an OMI_collider entry's keys go to the shape it becomes, the node-level
    reference's to the collider, the legacy body's beside its motion values to the motion (its extras stay on
    the body), and OMI_collider's document-level keys to OMI_physics_shape's."""
    source = {"asset": {"version": "2.0"}, "extensionsUsed": ["OMI_collider", "OMI_physics_body"],
              "extensions": {"OMI_collider": {"colliders": [{"type": "box", "size": [1, 2, 3], "isTrigger": False,
                                                             "name": "C", "extras": {"a": 1}, "margin": 0.1}],
                                              "extras": {"doc": 1}}},
              "nodes": [{"name": "A", "extensions": {
                  "OMI_collider": {"collider": 0, "extras": {"ref": 1}},
                  "OMI_physics_body": {"type": "rigid", "mass": 2, "linearDamping": 0.2, "extras": {"b": 2}}}}]}
    written = writer.write_document(reader.read_document(source), source)
    assert written["extensions"] == {"OMI_physics_shape": {
        "shapes": [{"type": "box", "box": {"size": [1.0, 2.0, 3.0]}, "name": "C", "extras": {"a": 1}, "margin": 0.1}],
        "extras": {"doc": 1}}}
    assert written["nodes"][0]["extensions"] == {"OMI_physics_body": {
        "motion": {"type": "dynamic", "mass": 2.0, "linearDamping": 0.2},
        "collider": {"shape": 0, "extras": {"ref": 1}}, "extras": {"b": 2}}}
    assert schema_check.omi_schema_errors(written) == []


def test_a_body_of_kept_keys_only_is_written_back() -> None:
    source = _newer()
    source["nodes"][3]["extensions"]["OMI_physics_body"] = {"characterController": {"stepHeight": 0.3}}
    doc = reader.read_document(source)
    assert doc.nodes[3].is_empty and dict(doc.nodes[3].unknown) == {"characterController": {"stepHeight": 0.3}}
    written = writer.write_document(doc, source)
    assert written["nodes"][3]["extensions"] == source["nodes"][3]["extensions"]


def test_duplicate_keys_are_found_in_gltf_and_glb() -> None:
    text = b'{"asset": {"version": "2.0"}, "nodes": [{"name": "A"}, {"extensions": {"X": 1}, "extensions": {}}]}'
    glb_json = text + b" " * (-len(text) % 4)
    glb = b"glTF" + (2).to_bytes(4, "little") + (12 + 8 + len(glb_json)).to_bytes(4, "little") \
        + len(glb_json).to_bytes(4, "little") + b"JSON" + glb_json
    assert gltf_file.duplicate_keys_of(text) == gltf_file.duplicate_keys_of(glb) == ("/nodes/1/extensions",)
    assert gltf_file.duplicate_keys_of(NEWER.read_bytes()) == ()
    assert gltf_file.duplicate_keys_of(b"{not json") == ()


def test_a_legacy_trigger_body_keeps_its_keys_on_the_body_object() -> None:
    source = {"asset": {"version": "2.0"}, "extensionsUsed": ["OMI_physics_body", "OMI_physics_shape"],
              "extensions": {"OMI_physics_shape": {"shapes": [{"type": "sphere", "sphere": {"radius": 1.0}}]}},
              "nodes": [{"name": "Zone", "children": [1], "extensions": {"OMI_physics_body": {
                  "type": "trigger", "layer": 3}}},
                        {"name": "Part", "extensions": {"OMI_physics_shape": {"shape": 0}}}]}
    doc = reader.read_document(source)
    assert dict(doc.nodes[0].unknown) == {"layer": 3}
    written = writer.write_document(doc, source)
    assert written["nodes"][0]["extensions"]["OMI_physics_body"]["layer"] == 3


def test_khr_unknown_keys_are_named_as_not_kept() -> None:
    """The add-on keeps unknown keys of OMI files only (so far): a KHR file's are each named, not silently lost."""
    source = {"asset": {"version": "2.0"}, "extensionsUsed": ["KHR_implicit_shapes", "KHR_physics_rigid_bodies"],
              "extensions": {"KHR_implicit_shapes": {"shapes": [{"type": "sphere", "sphere": {"radius": 1.0},
                                                                 "margin": 0.1}], "newer": 1}},
              "nodes": [{"extensions": {"KHR_physics_rigid_bodies": {
                  "motion": {"mass": 1.0, "linearDamping": 0.1},
                  "collider": {"geometry": {"shape": 0, "lod": 2}}}}}]}
    doc = reader.read_document(source)
    named = sorted(issue.pointer for issue in doc.issues if issue.kind == "unknown_key")
    assert named == ["/extensions/KHR_implicit_shapes/newer", "/extensions/KHR_implicit_shapes/shapes/0/margin",
                     "/nodes/0/extensions/KHR_physics_rigid_bodies/collider/geometry/lod",
                     "/nodes/0/extensions/KHR_physics_rigid_bodies/motion/linearDamping"]
    assert all("not kept" in issue.message for issue in doc.issues if issue.kind == "unknown_key")
    assert not present(doc.nodes[0].motion).unknown and not doc.unknown


def test_gltf_members_of_the_wrong_type_are_not_carried() -> None:
    source = _newer()
    source["extensions"]["OMI_physics_shape"]["shapes"][0]["name"] = None
    source["nodes"][1]["extensions"]["OMI_physics_body"]["extensions"] = []
    doc = reader.read_document(source)
    written = writer.write_document(doc, source)
    assert "name" not in written["extensions"]["OMI_physics_shape"]["shapes"][0]
    assert schema_check.omi_schema_errors(written) == []
