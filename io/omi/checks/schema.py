"""Check the OMI content of a glTF document against the OMI JSON schemas, as ERRATA.md reads them.

The schemas are the spec's own files (`<spec>/OMI_physics_*/schema`, `<spec>/legacy/OMI_collider/schema`; by
default the copies the add-on carries in `io/omi/schemas/omi-spec`), patched in memory, never on disk: the
document-level joint object requires `physicsJoints` (not the first revision's `constraints`), and the core
glTF schemas the OMI schemas `$ref` (glTFProperty, glTFChildOfRootProperty, glTFid) get stand-ins, glTFid
being an integer >= 0. The joint schemas' `$id`s do not match their file names (the joint settings schema even
claims the document schema's `$id`), so every schema is registered under its file name.

Forms that the strict schemas reject but ERRATA tells importers to read (a shape without its per-type
object, `"trigger": {}`, a limit on both linear and angular axes) are reported as warnings that say how
they are read; everything else the schemas reject is an error.

jsonschema is optional and imported lazily: without it, or without the spec folder, only the checks that
need no schema run (strict JSON, extensionsUsed, legacy forms) and `unavailable_reason` says why. No bpy
here.
"""

from __future__ import annotations

import copy
import json
import math
import os
from collections.abc import Iterator, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from .. import model
from ..dialects.gravity import GRAVITY
from ..dialects.omi import BODY_EXTENSION, JOINT_EXTENSION, LEGACY_COLLIDER_EXTENSION, OMI, SHAPE_EXTENSION
from ..json_types import pointer
from ..model import Issue, Severity

SPEC_DIR_VARIABLE = "OMI_SPEC_DIR"
CURRENT_DIRS = OMI.extensions  # the current revision: one spec folder per extension
UNIT_DIRS = (GRAVITY,)  # extension units: checked when the spec folder has them
LEGACY_COLLIDER_DIR = Path("legacy") / LEGACY_COLLIDER_EXTENSION
MESSAGE_LIMIT = 200  # schema messages quote the offending value; a whole node is too much to print

STAND_INS: dict[str, dict[str, Any]] = {
    "glTFProperty.schema.json": {
        "type": "object",
        "properties": {"extensions": {"type": "object"}, "extras": {}},
    },
    "glTFChildOfRootProperty.schema.json": {
        "allOf": [{"$ref": "glTFProperty.schema.json"}],
        "properties": {"name": {"type": "string"}},
    },
    "glTFid.schema.json": {"type": "integer", "minimum": 0},
}

DOCUMENT_SCHEMAS = {
    SHAPE_EXTENSION: "glTF.OMI_physics_shape.schema.json",
    BODY_EXTENSION: "glTF.OMI_physics_body.schema.json",
    JOINT_EXTENSION: "glTF.OMI_physics_joint.schema.json",
    GRAVITY: "glTF.OMI_physics_gravity.schema.json",
}
NODE_SCHEMAS = {
    BODY_EXTENSION: "node.OMI_physics_body.schema.json",
    JOINT_EXTENSION: "node.OMI_physics_joint.schema.json",
    GRAVITY: "node.OMI_physics_gravity.schema.json",
}
LEGACY_DOCUMENT_SCHEMAS = {LEGACY_COLLIDER_EXTENSION: "glTF.OMI_collider.schema.json"}
LEGACY_NODE_SCHEMAS = {LEGACY_COLLIDER_EXTENSION: "node.OMI_collider.schema.json"}
LEGACY_NODE_EXTENSIONS = (LEGACY_COLLIDER_EXTENSION, SHAPE_EXTENSION)


# --- finding the schemas ---------------------------------------------------------------------------

def default_spec_dir() -> Path:
    """The schemas the add-on carries (`io/omi/schemas/omi-spec`, see its README): found in the zip too."""
    return Path(__file__).resolve().parents[1] / "schemas" / "omi-spec"


def spec_dir_candidate(explicit: str | os.PathLike[str] | None = None) -> Path:
    """Where the spec folder should be: the argument, else $OMI_SPEC_DIR, else the project's copy."""
    for candidate in (explicit, os.environ.get(SPEC_DIR_VARIABLE)):
        if candidate:
            return Path(candidate)
    return default_spec_dir()


def find_spec_dir(explicit: str | os.PathLike[str] | None = None) -> Path | None:
    """The spec folder (see `spec_dir_candidate`), or None if it holds no schemas."""
    candidate = spec_dir_candidate(explicit)
    return candidate if _has_schemas(candidate) else None


def _has_schemas(spec_dir: Path) -> bool:
    return all((spec_dir / name / "schema").is_dir() for name in CURRENT_DIRS)


def unavailable_reason(explicit: str | os.PathLike[str] | None = None) -> str | None:
    """Why the schemas cannot be checked (None when they can)."""
    try:
        import jsonschema  # noqa: F401, PLC0415 - optional dependency, imported only to test for it
        import referencing  # noqa: F401, PLC0415
    except ImportError:
        return "the jsonschema package is not installed"
    candidate = spec_dir_candidate(explicit)
    if not _has_schemas(candidate):
        return f"no OMI schemas in {candidate} (give another spec folder or set ${SPEC_DIR_VARIABLE})"
    return None


def _schema_files(spec_dir: Path) -> Iterator[Path]:
    for name in (*CURRENT_DIRS, *UNIT_DIRS):  # a missing folder globs nothing
        yield from sorted((spec_dir / name / "schema").glob("*.schema.json"))
    yield from sorted((spec_dir / LEGACY_COLLIDER_DIR / "schema").glob("*.schema.json"))


def _patched(file_name: str, schema: dict[str, Any]) -> dict[str, Any]:
    """One schema with the ERRATA fixes applied (a copy; the files are never touched)."""
    schema = copy.deepcopy(schema)
    schema["$id"] = file_name
    if file_name == DOCUMENT_SCHEMAS[JOINT_EXTENSION]:
        schema["required"] = ["physicsJoints"]
    return schema


@lru_cache(maxsize=4)
def _validators_for(explicit: str | None, environment: str | None) -> dict[str, Any] | None:
    """The validators for a spec folder argument (and $OMI_SPEC_DIR), or None; built once per process."""
    if unavailable_reason(explicit) is not None:
        return None
    return _validators(str(spec_dir_candidate(explicit)))


def _validators(spec_dir: str) -> dict[str, Any]:
    """File name -> validator, for every schema of one spec folder."""
    return build_validators({path.name: _patched(path.name, json.loads(path.read_text(encoding="utf-8")))
                             for path in _schema_files(Path(spec_dir))})


def build_validators(schemas: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """File name -> validator for these schemas, which $ref each other and the core glTF stand-ins."""
    from jsonschema import Draft202012Validator  # noqa: PLC0415 - optional dependency
    from referencing import Registry, Resource  # noqa: PLC0415
    from referencing.jsonschema import DRAFT202012  # noqa: PLC0415

    schemas = dict(schemas)
    for name, schema in STAND_INS.items():
        schemas[name] = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": name, **schema}
    registry = Registry().with_resources(
        (name, Resource.from_contents(schema, default_specification=DRAFT202012)) for name, schema in schemas.items()
    )
    return {name: Draft202012Validator(schema, registry=registry) for name, schema in schemas.items()}


def validators(explicit: str | os.PathLike[str] | None = None) -> dict[str, Any] | None:
    """File name -> validator for every (patched) schema, or None when unavailable. Calling it early loads
    the schemas once, e.g. before forking workers, which then inherit them."""
    return _validators_for(None if explicit is None else str(explicit), os.environ.get(SPEC_DIR_VARIABLE))


# --- checking ----------------------------------------------------------------------------------------

def schema_errors(gltf: Any, spec_dir: str | os.PathLike[str] | None = None, *, allow_legacy: bool = True,
                  extensions_used: bool = True) -> list[Issue]:
    """Every schema violation of the OMI objects in `gltf`, as Issues with JSON pointers.

    Also checked: the document is strict JSON (no NaN/Infinity; this needs no schema) and, with
    `extensions_used`, that each OMI extension present is listed in extensionsUsed. Legacy content
    (OMI_collider, node-level OMI_physics_shape, a body `type`) is checked against its own schema where one
    exists when `allow_legacy`, and is an error otherwise. Without jsonschema or the spec folder only these
    checks that need no schema run (see `unavailable_reason`).
    """
    issues = _non_finite_numbers(gltf)
    if not isinstance(gltf, Mapping):
        return [*issues, Issue("", "a glTF document must be an object", "error")]
    checkers = validators(spec_dir)
    memo: dict[tuple[str, str], list[tuple[tuple[Any, ...], str, Severity]]] = {}

    def check(file_name: str, value: Any, where: tuple[Any, ...]) -> list[Issue]:
        """One object against one schema. Files repeat the same node objects (the same collider on many
        nodes), so equal objects are validated once and their findings reused at each place."""
        if checkers is None or file_name not in checkers:  # an extension unit the spec folder lacks
            return []
        try:
            key: tuple[str, str] | None = (file_name, json.dumps(value, sort_keys=True))
        except (TypeError, ValueError):
            key = None  # Python-made input that is not JSON: check it as it is
        found = memo.get(key) if key is not None else None
        if found is None:
            found = _findings(checkers[file_name], value)
            if key is not None:
                memo[key] = found
        return [Issue(pointer(*where, *tokens), message, severity) for tokens, message, severity in found]

    document_schemas = dict(DOCUMENT_SCHEMAS)
    node_schemas = dict(NODE_SCHEMAS)
    if allow_legacy:
        document_schemas.update(LEGACY_DOCUMENT_SCHEMAS)
        node_schemas.update(LEGACY_NODE_SCHEMAS)

    used: set[str] = set()
    extensions = gltf.get("extensions")
    for name, value in extensions.items() if isinstance(extensions, Mapping) else ():
        where: tuple[str | int, ...] = ("extensions", name)
        if name in document_schemas:
            used.add(name)
            issues += check(document_schemas[name], value, where)
        elif name in LEGACY_DOCUMENT_SCHEMAS:
            used.add(name)
            issues.append(Issue(pointer(*where), "legacy extension present", "error"))

    nodes = gltf.get("nodes")
    for index, node in enumerate(nodes if isinstance(nodes, list) else []):
        node_extensions = node.get("extensions") if isinstance(node, Mapping) else None
        for name, value in node_extensions.items() if isinstance(node_extensions, Mapping) else ():
            where = ("nodes", index, "extensions", name)
            if name in node_schemas:
                used.add(name)
                issues += check(node_schemas[name], value, where)
                if name == BODY_EXTENSION and isinstance(value, Mapping) and "type" in value \
                        and not allow_legacy:
                    issues.append(Issue(pointer(*where, "type"), "legacy body type present", "error"))
            elif name in LEGACY_NODE_EXTENSIONS:
                used.add(name)
                if not allow_legacy:
                    issues.append(Issue(pointer(*where), f"legacy node-level {name} present", "error"))

    if extensions_used:
        listed = gltf.get("extensionsUsed")
        names = set(listed) if isinstance(listed, list) and all(isinstance(n, str) for n in listed) else set()
        issues += [Issue("/extensionsUsed", f"{name} is used but not listed", "error")
                   for name in sorted(used - names)]
    return issues


def _non_finite_numbers(value: Any) -> list[Issue]:
    """NaN and ±Infinity anywhere in the document (Python's json reads them; JSON has no such numbers)."""
    try:
        json.dumps(value, allow_nan=False)
        return []
    except (TypeError, ValueError):
        pass
    found: list[Issue] = []
    stack: list[tuple[Any, tuple[Any, ...]]] = [(value, ())]
    while stack:
        current, tokens = stack.pop()
        if isinstance(current, float) and not math.isfinite(current):
            found.append(Issue(pointer(*tokens), f"not strict JSON: {current} is not a JSON number", "error"))
        elif isinstance(current, Mapping):
            stack.extend((item, (*tokens, key)) for key, item in reversed(list(current.items())))
        elif isinstance(current, list | tuple):
            stack.extend((item, (*tokens, position)) for position, item in reversed(list(enumerate(current))))
    return found or [Issue("", "not strict JSON", "error")]


def _findings(validator: Any, instance: Any) -> list[tuple[tuple[Any, ...], str, Severity]]:
    """(pointer tokens relative to the instance, message, severity) of each schema violation."""
    from jsonschema.exceptions import best_match  # noqa: PLC0415 - optional dependency

    found: list[tuple[tuple[Any, ...], str, Severity]] = []
    errors = sorted(validator.iter_errors(instance), key=lambda error: _path_key(error.absolute_path))
    for error in errors:
        tolerated = _tolerated(error)
        if tolerated is not None:
            found.append((tuple(error.absolute_path), tolerated, "warning"))
            continue
        shown = error
        if error.validator in ("oneOf", "anyOf") and error.context:
            shown = best_match([error])  # the failing branch's own error, e.g. box/size, not "matches no branch"
            if shown is error and _has_error_below(errors, error):
                continue  # e.g. an unknown shape type is reported at /type already
        found.append((tuple(shown.absolute_path), _short(shown.message), "error"))
    return found


def _path_key(path: Any) -> list[tuple[int, int | str]]:
    """Pointer order: array positions numerically (2 before 10), keys by name."""
    return [(0, token) if isinstance(token, int) else (1, str(token)) for token in path]


def _has_error_below(errors: list[Any], parent: Any) -> bool:
    depth = len(parent.absolute_path)
    return any(len(other.absolute_path) > depth and list(other.absolute_path)[:depth] == list(parent.absolute_path)
               for other in errors)


def _tolerated(error: Any) -> str | None:
    """The ERRATA reading of a form the strict schemas reject, or None if it is a plain error."""
    if error.validator not in ("oneOf", "anyOf") or not isinstance(error.instance, Mapping):
        return None
    instance = error.instance
    path = list(error.absolute_path)
    shape_type = instance.get("type")
    if path[-2:-1] == ["shapes"] and isinstance(shape_type, str) and shape_type in model.SHAPE_TYPES \
            and shape_type not in instance:
        return (f"shape has no `{shape_type}` object, which the schema requires; read as all defaults, or as the "
                "legacy values on the shape itself (`upgrade` writes it)")
    if path[-1:] == ["trigger"] and "shape" not in instance and "nodes" not in instance:
        return ("trigger has neither `shape` nor `nodes`, which the schema requires; read as a compound of the "
                "descendant triggers (`upgrade` lists them)")
    if path[-2:-1] == ["limits"] and "linearAxes" in instance and "angularAxes" in instance:
        return ("limit has both linearAxes and angularAxes, which the schema forbids; read as one limit on both "
                "(`upgrade` writes two)")
    return None


def _short(message: str) -> str:
    return message if len(message) <= MESSAGE_LIMIT else message[:MESSAGE_LIMIT - 1] + "…"
