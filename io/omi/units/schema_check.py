"""An extension unit's schema check: its node-level and document-level objects against the spec's own schema
files, which the add-on carries unmodified in `io/omi/schemas/omi-vehicles-spec/<extension>/schema`.

jsonschema is optional (as for the dialects' checks): without it only extensionsUsed is checked. No bpy here.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..checks import schema
from ..json_types import get, pointer, sequence_items
from ..model import Issue

SCHEMA_ROOT = Path(__file__).resolve().parents[1] / "schemas" / "omi-vehicles-spec"


@lru_cache(maxsize=16)
def _validators(name: str) -> dict[str, Any] | None:
    """File name -> validator for the schemas of extension `name`, or None without jsonschema."""
    try:
        import jsonschema  # noqa: F401, PLC0415 - optional dependency, imported only to test for it
    except ImportError:
        return None
    files = sorted((SCHEMA_ROOT / name / "schema").glob("*.schema.json"))
    loaded = {path.name: {**json.loads(path.read_text(encoding="utf-8")), "$id": path.name} for path in files}
    return schema.build_validators(loaded)


def checker(name: str) -> Callable[[Any], list[Issue]]:
    """The check of extension `name`: `node.<name>.schema.json` on each node object, `glTF.<name>.schema.json`
    on the document-level object, and `name` listed in extensionsUsed when present."""
    node_file, document_file = f"node.{name}.schema.json", f"glTF.{name}.schema.json"

    def check(document: Any) -> list[Issue]:
        if not isinstance(document, Mapping):
            return []
        validators = _validators(name) or {}
        found: list[Issue] = []
        used = False
        content = get(get(document, "extensions"), name)
        if isinstance(get(document, "extensions"), Mapping) and name in document["extensions"]:
            used = True
            found += _check(validators.get(document_file), content, ("extensions", name))
        for index, node in enumerate(sequence_items(get(document, "nodes"))):
            extensions = get(node, "extensions")
            if isinstance(extensions, Mapping) and name in extensions:
                used = True
                found += _check(validators.get(node_file), extensions[name], ("nodes", index, "extensions", name))
        listed = get(document, "extensionsUsed")
        if used and not (isinstance(listed, list) and name in listed):
            found.append(Issue("/extensionsUsed", f"{name} is used but not listed", "error"))
        return found

    return check


def _check(validator: Any, value: Any, where: tuple[Any, ...]) -> list[Issue]:
    if validator is None:
        return []
    return [Issue(pointer(*where, *tokens), message, severity)
            for tokens, message, severity in schema._findings(validator, value)]
