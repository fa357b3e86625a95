"""KHR_physics_rigid_bodies + KHR_implicit_shapes JSON schema checks, as `schema.py` does for OMI.

The schemas are the copies the add-on carries (`io/omi/schemas/khr-spec`, from `../shared/khr-spec`: the
proposals as published), with the same stand-ins for the core glTF schemas they `$ref`. One change is made in
memory: the newest revision lets `geometry` refer to a mesh (`{"mesh": i}`, which is what the writer writes),
which the published geometry schema predates, so `mesh` is added as a third choice beside `shape` and `node`.
And the motion's `mass` and `inertiaDiagonal` components may be 0: the text says 0 means infinite, where the
schema's `exclusiveMinimum: 0` would forbid it; the project follows the text (one rule, one message: the
reader's "khr_infinite_*" notes)."""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..dialects import khr
from ..json_types import pointer
from ..model import Issue, Severity
from .schema import _findings, _non_finite_numbers, build_validators

KHR_DIR_VARIABLE = "OMI_KHR_SPEC_DIR"
SCHEMA_DIRS = ("KHR_implicit_shapes", "KHR_physics_rigid_bodies")
DOCUMENT_SCHEMAS = {
    khr.SHAPE_EXTENSION: "glTF.KHR_implicit_shapes.schema.json",
    khr.BODY_EXTENSION: "glTF.KHR_physics_rigid_bodies.schema.json",
}
NODE_SCHEMAS = {khr.BODY_EXTENSION: "node.KHR_physics_rigid_bodies.schema.json"}
GEOMETRY_SCHEMA = "geometry.schema.json"
MOTION_SCHEMA = "node.KHR_physics_rigid_bodies.motion.schema.json"


def khr_dir_candidate(explicit: str | os.PathLike[str] | None = None) -> Path:
    """The argument, else $OMI_KHR_SPEC_DIR, else the schemas the add-on carries (`io/omi/schemas/khr-spec`)."""
    for candidate in (explicit, os.environ.get(KHR_DIR_VARIABLE)):
        if candidate:
            return Path(candidate)
    return Path(__file__).resolve().parents[1] / "schemas" / "khr-spec"


def unavailable_reason(explicit: str | os.PathLike[str] | None = None) -> str | None:
    """Why the KHR schemas cannot be checked (None when they can)."""
    try:
        import jsonschema  # noqa: F401, PLC0415 - optional dependency, imported only to test for it
    except ImportError:
        return "the jsonschema package is not installed"
    candidate = khr_dir_candidate(explicit)
    if not all((candidate / name / "schema").is_dir() for name in SCHEMA_DIRS):
        return f"no KHR schemas in {candidate} (set ${KHR_DIR_VARIABLE})"
    return None


def _patched(file_name: str, schema: dict[str, Any]) -> dict[str, Any]:
    schema = copy.deepcopy(schema)
    schema["$id"] = file_name
    if file_name == MOTION_SCHEMA:  # the text: 0 means infinite; the schema's exclusiveMinimum would forbid it
        properties = schema["properties"]
        for target in (properties["mass"], properties["inertiaDiagonal"]["items"]):
            del target["exclusiveMinimum"]
            target["minimum"] = 0.0
    if file_name == GEOMETRY_SCHEMA:
        schema["properties"]["mesh"] = {"allOf": [{"$ref": "glTFid.schema.json"}]}
        schema["oneOf"] = [*schema["oneOf"], {"required": ["mesh"]}]
    return schema


@lru_cache(maxsize=2)
def _validators(khr_dir: str) -> dict[str, Any]:
    paths = [path for name in SCHEMA_DIRS for path in sorted((Path(khr_dir) / name / "schema").glob("*.schema.json"))]
    return build_validators({path.name: _patched(path.name, json.loads(path.read_text(encoding="utf-8")))
                             for path in paths})


def khr_schema_errors(gltf: Any, khr_dir: str | os.PathLike[str] | None = None) -> list[Issue]:
    """Every schema violation of the KHR physics objects in `gltf` (plus strict JSON and extensionsUsed)."""
    if not isinstance(gltf, Mapping):
        return [Issue("", "a glTF document must be an object", "error")]
    issues = _non_finite_numbers(gltf)
    checkers = _validators(str(khr_dir_candidate(khr_dir))) if unavailable_reason(khr_dir) is None else None

    def check(file_name: str, value: Any, where: tuple[str | int, ...]) -> list[Issue]:
        if checkers is None:
            return []
        found: list[tuple[tuple[Any, ...], str, Severity]] = _findings(checkers[file_name], value)
        return [Issue(pointer(*where, *tokens), message, severity) for tokens, message, severity in found]

    used: set[str] = set()
    extensions = gltf.get("extensions")
    for name, value in extensions.items() if isinstance(extensions, Mapping) else ():
        if name in DOCUMENT_SCHEMAS:
            used.add(name)
            issues += check(DOCUMENT_SCHEMAS[name], value, ("extensions", name))
    nodes = gltf.get("nodes")
    for index, node in enumerate(nodes if isinstance(nodes, list) else []):
        node_extensions = node.get("extensions") if isinstance(node, Mapping) else None
        for name, value in node_extensions.items() if isinstance(node_extensions, Mapping) else ():
            if name in NODE_SCHEMAS:
                used.add(name)
                issues += check(NODE_SCHEMAS[name], value, ("nodes", index, "extensions", name))
    listed = gltf.get("extensionsUsed")
    names = set(listed) if isinstance(listed, list) and all(isinstance(n, str) for n in listed) else set()
    return issues + [Issue("/extensionsUsed", f"{name} is used but not listed", "error")
                     for name in sorted(used - names)]
