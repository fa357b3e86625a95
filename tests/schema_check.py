"""Test utility: validate the OMI content of a glTF document against the OMI JSON schemas.

The schemas are read from `<repo>/../shared/omi-spec` and patched IN MEMORY as ERRATA.md says:
the document-level joint object requires `physicsJoints` (not `constraints`), and the core glTF
schemas the OMI schemas `$ref` (glTFProperty, glTFChildOfRootProperty, glTFid) get stand-ins, glTFid
being an integer >= 0. The joint schemas' `$id`s do not match their file names (the joint settings
schema even claims the document schema's `$id`), so every schema is registered under its file name.
"""

from __future__ import annotations

import copy
import json
import struct
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parent.parent
SPEC_DIR = REPO_ROOT.parent / "shared" / "omi-spec"

CURRENT_DIRS = ("OMI_physics_shape", "OMI_physics_body", "OMI_physics_joint")
LEGACY_COLLIDER_DIR = Path("legacy") / "OMI_collider"

STAND_INS: dict[str, dict] = {
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

# (where the object sits, schema file) for every OMI object a current-revision file may hold
DOCUMENT_SCHEMAS = {
    "OMI_physics_shape": "glTF.OMI_physics_shape.schema.json",
    "OMI_physics_body": "glTF.OMI_physics_body.schema.json",
    "OMI_physics_joint": "glTF.OMI_physics_joint.schema.json",
}
NODE_SCHEMAS = {
    "OMI_physics_body": "node.OMI_physics_body.schema.json",
    "OMI_physics_joint": "node.OMI_physics_joint.schema.json",
}
LEGACY_DOCUMENT_SCHEMAS = {"OMI_collider": "glTF.OMI_collider.schema.json"}
LEGACY_NODE_SCHEMAS = {"OMI_collider": "node.OMI_collider.schema.json"}


def schemas_available() -> bool:
    """True when the spec folder with its schemas is next to the checkout."""
    return all((SPEC_DIR / name / "schema").is_dir() for name in CURRENT_DIRS)


def _schema_files() -> Iterator[Path]:
    for name in CURRENT_DIRS:
        yield from sorted((SPEC_DIR / name / "schema").glob("*.schema.json"))
    yield from sorted((SPEC_DIR / LEGACY_COLLIDER_DIR / "schema").glob("*.schema.json"))


def _patched(file_name: str, schema: dict) -> dict:
    """One schema with the ERRATA fixes applied (a copy; the files are never touched)."""
    schema = copy.deepcopy(schema)
    schema["$id"] = file_name
    if file_name == "glTF.OMI_physics_joint.schema.json":
        schema["required"] = ["physicsJoints"]
    return schema


@cache
def _registry_and_schemas() -> tuple[Any, dict[str, dict]]:
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    schemas: dict[str, dict] = {}
    for path in _schema_files():
        schemas[path.name] = _patched(path.name, json.loads(path.read_text(encoding="utf-8")))
    for name, schema in STAND_INS.items():
        schemas[name] = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": name, **schema}
    registry = Registry().with_resources(
        (name, Resource.from_contents(schema, default_specification=DRAFT202012)) for name, schema in schemas.items()
    )
    return registry, schemas


@cache
def _validator(file_name: str) -> Any:
    from jsonschema import Draft202012Validator

    registry, schemas = _registry_and_schemas()
    return Draft202012Validator(schemas[file_name], registry=registry)


def schema_errors(instance: Any, file_name: str, where: str) -> list[str]:
    """Errors of one object against one (patched) schema file, each prefixed with its JSON pointer."""
    errors = []
    for error in sorted(_validator(file_name).iter_errors(instance), key=lambda e: list(e.absolute_path)):
        path = "".join(f"/{part}" for part in error.absolute_path)
        errors.append(f"{where}{path}: {error.message}")
    return errors


def omi_schema_errors(gltf: dict, *, allow_legacy: bool = False) -> list[str]:
    """Every schema violation of the OMI objects in `gltf` (empty list: valid current revision).

    Also checks that the document is strict JSON (no NaN/Infinity), that the OMI extensions used are
    listed in extensionsUsed, and, unless `allow_legacy`, that no legacy form (OMI_collider, node-level
    OMI_physics_shape, body `type`) is left.
    """
    errors: list[str] = []
    try:
        json.dumps(gltf, allow_nan=False)
    except (TypeError, ValueError) as error:
        errors.append(f"/: not strict JSON: {error}")
    if not isinstance(gltf, dict):
        return [*errors, "/: a glTF document must be an object"]

    document_schemas = dict(DOCUMENT_SCHEMAS)
    node_schemas = dict(NODE_SCHEMAS)
    if allow_legacy:
        document_schemas.update(LEGACY_DOCUMENT_SCHEMAS)
        node_schemas.update(LEGACY_NODE_SCHEMAS)

    used: set[str] = set()
    extensions = gltf.get("extensions")
    if isinstance(extensions, dict):
        for name, value in extensions.items():
            if name in document_schemas:
                used.add(name)
                errors += schema_errors(value, document_schemas[name], f"/extensions/{name}")
            elif name in LEGACY_DOCUMENT_SCHEMAS:
                used.add(name)
                errors.append(f"/extensions/{name}: legacy extension present")

    nodes = gltf.get("nodes")
    for index, node in enumerate(nodes if isinstance(nodes, list) else []):
        node_extensions = node.get("extensions") if isinstance(node, dict) else None
        if not isinstance(node_extensions, dict):
            continue
        for name, value in node_extensions.items():
            where = f"/nodes/{index}/extensions/{name}"
            if name in node_schemas:
                used.add(name)
                errors += schema_errors(value, node_schemas[name], where)
                if name == "OMI_physics_body" and isinstance(value, dict) and "type" in value and not allow_legacy:
                    errors.append(f"{where}/type: legacy body type present")
            elif name in ("OMI_collider", "OMI_physics_shape"):
                used.add(name)
                if not allow_legacy:
                    errors.append(f"{where}: legacy node-level {name} present")

    listed = gltf.get("extensionsUsed")
    listed_names = set(listed) if isinstance(listed, list) and all(isinstance(n, str) for n in listed) else set()
    errors += [f"/extensionsUsed: {name} is used but not listed" for name in sorted(used - listed_names)]
    return errors


def load_gltf(path: str | Path) -> dict:
    """The JSON of a .gltf file, or of the JSON chunk of a .glb file."""
    data = Path(path).read_bytes()
    if data[:4] == b"glTF":
        _magic, _version, _length = struct.unpack_from("<4sII", data, 0)
        chunk_length, chunk_type = struct.unpack_from("<I4s", data, 12)
        if chunk_type != b"JSON":
            raise ValueError(f"{path}: first GLB chunk is {chunk_type!r}, not JSON")
        return json.loads(data[20:20 + chunk_length].decode("utf-8"))
    return json.loads(data.decode("utf-8"))
