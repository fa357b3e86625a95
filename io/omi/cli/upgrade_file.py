"""`upgrade` for one file: rewrite its OMI content in the current revision; nothing else in the file changes.

Runs in a worker process of the command-line tool; no bpy here.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from .. import gltf_file
from ..checks import canonical, rules, schema
from ..dialects import unknown_keys
from ..json_types import pointer
from ..model import ALL_EXTENSIONS
from ..read import reader
from ..write import writer
from .results import Result, counted, failed, from_issues, issue
from .validate_file import read_file

GLTF_SUFFIXES = (".gltf", ".glb")
_MISSING = object()


def legacy_revisions(revisions: set[str]) -> list[str]:
    """The old revisions a file used, of those `upgrade` rewrites."""
    return sorted(revisions & {rules.REV_COLLIDER, rules.REV_BODY_TYPE, rules.REV_FLAT_SHAPE,
                               rules.REV_FULL_HEIGHT_CAPSULE})


def upgrade_one(task: tuple[str, str, bool, str | None]) -> Result:
    """task: (source, target, write even with errors, spec folder or None)."""
    source, target, force, spec_dir = task
    parsed, problem = read_file(source)
    if parsed is None:
        return failed(source, problem or "cannot read", out=target)
    suffix = Path(target).suffix.lower()
    if suffix in GLTF_SUFFIXES and (suffix == ".glb") != parsed.is_glb:
        kind = "GLB" if parsed.is_glb else ".gltf"
        return failed(source, f"the input is a {kind} file: upgrade keeps the container, give an output named "
                              f"{'.glb' if parsed.is_glb else '.gltf'}", "failed", out=target)
    doc = reader.read_document(parsed.document)
    written = same_key_order(parsed.document, writer.write_document(doc, parsed.document))
    issues = from_issues(doc.issues, "rules")
    issues += [issue("error", "", f"the upgrade would change the physics: {difference}", "upgrade")
               for difference in canonical.diff_physics(parsed.document, written)]
    issues += [issue("error", found.pointer, f"the upgraded file fails the schema: {found.message}", "upgrade")
               for found in schema.schema_errors(written, spec_dir, allow_legacy=False)]
    issues += dropped_properties(parsed.document, written, {found.pointer for found in doc.issues
                                                            if found.kind == unknown_keys.KIND})
    issues += missing_resources(written, Path(source), Path(target))
    result = counted({"file": source, "out": target, "status": "", "converted": legacy_revisions(doc.revisions),
                      "issues": issues})
    return write_unless_errors(result, parsed, written, force)


def write_unless_errors(result: Result, parsed: gltf_file.GltfFile, written: Any, force: bool) -> Result:
    """Write the rewritten file to result["out"] unless the result has errors (and not `force`)."""
    if result["errors"] and not force:
        result["status"] = "not written"
        return result
    target = result["out"]
    try:
        gltf_file.write(target, parsed, written)
    except OSError as error:
        return failed(result["file"], f"cannot write {target}: {error.strerror or error}", "failed", out=target)
    result["status"] = "written"
    return result


def dropped_properties(original: Any, written: Any,
                       kept: set[str] | frozenset[str] = frozenset()) -> list[dict[str, str]]:
    """glTF property members (name, extras, extensions) that the upgrade does not carry over to the same place:
    those of objects in a legacy form it restructures (the reader keeps the current revision's objects' unknown
    keys, `unknown_keys`, and the writer writes them back where they were; `kept`: the pointers of those the
    reader kept, carried to the new place of a restructured object), so say where each was."""
    found = []
    for tokens, item in omi_objects(original):
        for key in ("name", "extras", "extensions"):
            if key in item and value_at(written, (*tokens, key)) != item[key] and pointer(*tokens, key) not in kept:
                found.append(issue("warning", pointer(*tokens, key), f"`{key}` is not carried over by the upgrade "
                                   "(the physics model has no place for it)", "upgrade"))
    return found


def omi_objects(document: Any) -> Iterator[tuple[tuple[str | int, ...], dict[str, Any]]]:
    """(pointer tokens, object) for every JSON object inside the document's OMI extensions, depth first."""
    if not isinstance(document, dict):
        return
    roots: list[tuple[tuple[str | int, ...], Any]] = []
    if isinstance(document.get("extensions"), dict):
        roots += [(("extensions", name), document["extensions"].get(name)) for name in ALL_EXTENSIONS]
    nodes: list[Any] = document["nodes"] if isinstance(document.get("nodes"), list) else []
    for index, node in enumerate(nodes):
        extensions = node.get("extensions") if isinstance(node, dict) else None
        if isinstance(extensions, dict):
            roots += [(("nodes", index, "extensions", name), extensions.get(name)) for name in ALL_EXTENSIONS]
    stack = [(tokens, value) for tokens, value in reversed(roots) if value is not None]
    while stack:
        tokens, value = stack.pop()
        if isinstance(value, dict):
            yield tokens, value
            stack.extend(((*tokens, key), item) for key, item in reversed(value.items())
                         if key not in ("extras", "extensions"))  # foreign content: reported as a whole
        elif isinstance(value, list):
            stack.extend(((*tokens, position), item) for position, item in reversed(list(enumerate(value))))


def value_at(document: Any, tokens: tuple[str | int, ...]) -> Any:
    """The value at the pointer tokens, or _MISSING."""
    value = document
    for token in tokens:
        in_object = isinstance(value, dict) and token in value
        in_array = isinstance(value, list) and isinstance(token, int) and 0 <= token < len(value)
        if not (in_object or in_array):
            return _MISSING
        value = value[token]
    return value


def same_key_order(original: Any, written: Any) -> Any:
    """write_document adds the keys it rewrites at the end; put them back where they were, so that a diff of
    the file shows only what changed."""
    def ordered(old: Any, new: Any) -> Any:
        if not isinstance(old, dict) or not isinstance(new, dict):
            return new
        return {key: new[key] for key in [*(key for key in old if key in new), *(key for key in new if key not in old)]}

    result = ordered(original, written)
    if isinstance(result, dict) and isinstance(original, dict):
        result["extensions"] = ordered(original.get("extensions"), result.get("extensions"))
        if result["extensions"] is None:
            del result["extensions"]
        old_nodes, nodes = original.get("nodes"), result.get("nodes")
        if isinstance(old_nodes, list) and isinstance(nodes, list):
            for position, (old, new) in enumerate(zip(old_nodes, nodes, strict=False)):
                nodes[position] = ordered(old, new)
                if isinstance(old, dict) and isinstance(nodes[position], dict) and "extensions" in nodes[position]:
                    nodes[position]["extensions"] = ordered(old.get("extensions"), nodes[position]["extensions"])
    return result


def missing_resources(document: Any, source: Path, target: Path) -> list[dict[str, str]]:
    """Buffers and images named by relative URI must sit next to the output as they sat next to the input."""
    if source.resolve().parent == target.resolve().parent:
        return []
    return [issue("warning", "", f"refers to {uri!r}, which is not next to the output file; copy it there", "upgrade")
            for uri in gltf_file.relative_uris(document) if not (target.parent / unquote(uri)).exists()]
