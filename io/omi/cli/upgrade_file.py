"""`upgrade` for one file: rewrite its OMI content in the current revision; nothing else in the file changes.

Runs in a worker process of the command-line tool; no bpy here.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .. import gltf_file
from ..checks import canonical, rulebook, schema
from ..dialects import registry, unknown_keys
from ..dialects.omi import OMI
from ..json_types import pointer
from ..model import PhysicsDocument
from ..read import reader
from ..units.common import legacy_revision
from ..write import channel_follow, writer
from . import resources
from .results import Result, counted, failed, from_issues, issue
from .validate_file import read_file

GLTF_SUFFIXES = (".gltf", ".glb")
_MISSING = object()


def legacy_revisions(revisions: set[str]) -> list[str]:
    """The old revisions a file used, of those `upgrade` rewrites."""
    units = {legacy_revision(unit.name) for unit in registry.extension_units() if unit.legacy_keys}
    return sorted(revisions & {rulebook.REV_COLLIDER, rulebook.REV_BODY_TYPE, rulebook.REV_FLAT_SHAPE,
                               rulebook.REV_FULL_HEIGHT_CAPSULE, *units})


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
    if not needs_upgrade(parsed.document, doc, spec_dir):
        return _unchanged(source, target, from_issues(doc.issues, "rules"), force)
    written = same_key_order(parsed.document, writer.write_document(doc, parsed.document))
    issues = from_issues(doc.issues, "rules")
    issues += [issue("error", "", f"the upgrade would change the physics: {difference}", "upgrade")
               for difference in canonical.diff_physics(parsed.document, written)]
    issues += [issue("error", found.pointer, f"the upgraded file fails the schema: {found.message}", "upgrade")
               for found in schema.schema_errors(written, spec_dir, allow_legacy=False)]
    issues += dropped_properties(parsed.document, written, {found.pointer for found in doc.issues
                                                            if found.kind == unknown_keys.KIND})
    issues += from_issues(channel_follow.follow(parsed.document, OMI, written, OMI), "upgrade")
    copies, missing = resources.resource_copies(written, Path(source), Path(target))
    result = counted({"file": source, "out": target, "status": "", "converted": legacy_revisions(doc.revisions),
                      "issues": issues + missing})
    return write_unless_errors(result, parsed, written, force, copies)


def needs_upgrade(document: Any, doc: PhysicsDocument, spec_dir: str | None) -> bool:
    """The file has OMI content in a legacy revision or in a form only ERRATA tolerates (what the strict
    schemas reject beyond the lenient reading's errors: legacy forms, and the tolerated forms, which are
    warnings). Anything else, KHR physics included, is left alone."""
    if legacy_revisions(doc.revisions):
        return True
    lenient = {(found.pointer, found.message) for found in schema.schema_errors(document, spec_dir)
               if found.severity == "error"}
    return any((found.pointer, found.message) not in lenient
               for found in schema.schema_errors(document, spec_dir, allow_legacy=False))


def _unchanged(source: str, target: str, issues: list[dict[str, str]], force: bool) -> Result:
    """Nothing to upgrade: the output is the input, byte for byte (the input itself is not even rewritten);
    like an upgrade, not copied when the file has errors, unless forced."""
    source_path, target_path = Path(source), Path(target)
    try:
        document = gltf_file.read(source).document
    except (OSError, gltf_file.GltfFileError) as error:
        return failed(source, f"cannot read: {getattr(error, 'strerror', None) or error}", out=target)
    copies, missing = resources.resource_copies(document, source_path, target_path)
    result = counted({"file": source, "out": target, "status": "unchanged", "converted": [],
                      "issues": issues + missing})
    if resources.refused(result):
        result["status"] = "not written"
        return result
    if source_path.resolve() == target_path.resolve():
        return result
    if missing or (result["errors"] and not force):
        result["status"] = "not written"
        return result
    made, problem = resources.copy_resources(copies)
    try:
        if problem is None:
            resources.copy_unchanged(source_path, target_path)
    except BaseException as error:
        resources.remove(made)
        if not isinstance(error, OSError):
            raise
        problem = f"cannot write {target}: {error.strerror or error}"
    if problem is not None:
        return failed(source, problem, "failed", out=target)
    result["status"] = "copied"
    return result


def write_unless_errors(result: Result, parsed: gltf_file.GltfFile, written: Any, force: bool,
                        copies: resources.Copies | None = None) -> Result:
    """Write the rewritten file to result["out"] (and the resources it needs next to it) unless the result has
    errors (and not `force`)."""
    if resources.refused(result) or (result["errors"] and not force):
        result["status"] = "not written"
        return result
    target = result["out"]
    made, problem = resources.copy_resources(copies or [])  # first: the .gltf is never left without them
    if problem is not None:
        return failed(result["file"], problem, "failed", out=target)
    try:
        gltf_file.write(target, parsed, written)
    except BaseException as error:
        resources.remove(made)
        if not isinstance(error, OSError):
            raise
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
        roots += [(("extensions", name), document["extensions"].get(name)) for name in OMI.owns]
    nodes: list[Any] = document["nodes"] if isinstance(document.get("nodes"), list) else []
    for index, node in enumerate(nodes):
        extensions = node.get("extensions") if isinstance(node, dict) else None
        if isinstance(extensions, dict):
            roots += [(("nodes", index, "extensions", name), extensions.get(name)) for name in OMI.owns]
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
