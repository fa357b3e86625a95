"""A KHR drive whose type or mode the spec does not know is named once, at its own pointer, with what an
import keeps of it: the value the import stores and the export writes (issue #27: it was named twice, at an
OMI pointer the file does not have, and the message said 'linear' while the export wrote 'angular')."""

from __future__ import annotations

import json
from typing import Any

from omi_core import conventions, model
from omi_core.checks import value_losses
from omi_core.read import reader
from schema_check import REPO_ROOT


def _khr_joints(drive_type: str, mode: str) -> dict[str, Any]:
    document = json.loads((REPO_ROOT / "tests" / "data" / "khr" / "joints.gltf").read_text(encoding="utf-8"))
    drives = document["extensions"]["KHR_physics_rigid_bodies"]["physicsJoints"][0]["drives"]
    drives[0]["type"], drives[1]["mode"] = drive_type, mode
    value: dict[str, Any] = document
    return value


def test_one_message_per_unknown_value_at_the_files_own_pointer() -> None:
    document = _khr_joints("spinny", "weird")
    issues = reader.read_document(document).issues
    losses = value_losses.document_losses(reader.read_document(document))
    named = [issue for issue in issues + losses if "spinny" in issue.message or "weird" in issue.message]
    at = "/extensions/KHR_physics_rigid_bodies/physicsJoints/0/drives"
    assert [issue.pointer for issue in named] == [f"{at}/0/type", f"{at}/1/mode"]
    assert "reads it as 'linear'" in named[0].message and "reads it as 'force'" in named[1].message


def test_what_the_message_says_is_what_blender_keeps() -> None:
    assert conventions.held_choice("spinny", model.DRIVE_TYPES) == "linear"
    assert conventions.held_choice("angular", model.DRIVE_TYPES) == "angular"
    assert conventions.held_choice("weird", model.DRIVE_MODES) == "force"
