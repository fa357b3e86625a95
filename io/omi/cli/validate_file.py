"""`validate` for one file: every rule the reader knows plus the schemas, as a result dict (cli_results).

Runs in a worker process of the command-line tool; no bpy here.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from stat import S_ISREG
from typing import Any

from .. import gltf_file
from ..checks import (
    animation_keys,
    bind_matrices,
    gltf_structure,
    joint_rest,
    node_transforms,
    rulebook,
    shape_meshes,
    skin_joints,
    value_losses,
)
from ..checks.gltf_findings import IMPORTER_EXTENSIONS, NEWER_IMPORTER_EXTENSIONS
from ..dialects import builtin, pointers, registry, unknown_keys  # noqa: F401 - builtin: the built-in units
from ..gltf_file import GltfFile
from ..model import Issue, PhysicsDocument
from ..read import known_generators, mixed, reader
from . import resources
from .batch import not_a_file
from .results import Result, counted, failed, from_issues, issue


def read_file(path: str) -> tuple[GltfFile | None, str | None]:
    """(GltfFile, None) or (None, why it cannot be read, in one sentence). Only a regular file is opened:
    reading a FIFO would wait for a writer forever."""
    kind = not_a_file(Path(path))
    if kind is not None:
        return None, f"cannot read: {kind}"
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # never waits on a FIFO
        with os.fdopen(descriptor, "rb") as stream:
            if not S_ISREG(os.fstat(stream.fileno()).st_mode):
                return None, "cannot read: not a regular file"
            data = stream.read()
    except OSError as error:
        return None, f"cannot read: {error.strerror or error}"
    if Path(path).suffix.lower() == ".glb" and data[:4] != gltf_file.GLB_MAGIC:
        looks = "it holds JSON text: name it .gltf" if data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"{" else \
            f"it starts with {data[:4]!r}"
        return None, f"cannot read: named .glb but not a GLB file (no 'glTF' magic at its start; {looks})"
    if Path(path).suffix.lower() == ".bin" and data[:4] != gltf_file.GLB_MAGIC and \
            data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] != b"{":
        return None, f"cannot read: a .bin file is a glTF buffer (the binary data a .gltf refers to), not a glTF; " \
                     f"{_naming_gltf(Path(path))}"
    try:
        return gltf_file.parse(data), None
    except gltf_file.GltfFileError as error:
        return None, f"cannot read: {error}"


def _naming_gltf(buffer: Path) -> str:
    """Which .gltf beside a buffer names it, as advice on what to validate instead."""
    quoted = f'"{buffer.name}"'
    for candidate in sorted(buffer.parent.glob("*.gltf"))[:50]:
        try:
            if not_a_file(candidate) is None and quoted in candidate.read_text(encoding="utf-8", errors="replace"):
                return f"validate {candidate.name}, which names it"
        except OSError:
            continue
    return "validate the .gltf that names it"


def legacy_hint(revisions: set[str]) -> list[dict[str, str]]:
    """One warning for the old revisions whose findings are only notes (the other old forms warn already)."""
    legacy = sorted(revisions & {rulebook.REV_COLLIDER, rulebook.REV_BODY_TYPE})
    if not legacy:
        return []
    return [issue("warning", "", f"legacy OMI content ({', '.join(legacy)}): the `upgrade` command rewrites it in "
                                 "the current revision", "rules")]


def buffer_reader(parsed: GltfFile, path: str) -> gltf_structure.BufferData:
    """The file's buffers as Blender's importer reads them (each read once, kept for the next checker)."""
    folder = Path(path).absolute().parent

    def read_file(uri: str) -> bytes | None:
        name = gltf_file.uri_path(uri)
        return None if gltf_file.outside_folder(name, folder) is not None else (folder / name).read_bytes()

    read = gltf_structure.file_buffer_data(parsed.binary, read_file)
    cache: dict[int, bytes | str | int | None] = {}

    def data(index: int, buffer: Any) -> bytes | str | int | None:
        if index not in cache:
            cache[index] = read(index, buffer)
        return cache[index]

    return data


def buffer_bytes(parsed: GltfFile, buffers: gltf_structure.BufferData) -> Callable[[int], bytes | None]:
    """The file's buffer data by buffer index (None where it cannot be read)."""
    items = parsed.document.get("buffers") if isinstance(parsed.document, dict) else None

    def read_buffer(index: int) -> bytes | None:
        found = buffers(index, items[index]) if isinstance(items, list) and 0 <= index < len(items) else None
        return found if isinstance(found, bytes) else None

    return read_buffer


def shape_mesh_issues(parsed: GltfFile, doc: PhysicsDocument, buffers: gltf_structure.BufferData) -> list[Issue]:
    """Mesh problems of convex/trimesh shapes (shape_meshes), with the file's buffers for the hull checks."""
    return shape_meshes.check(parsed.document, doc, buffer_bytes(parsed, buffers))


def structure_issues(parsed: GltfFile, path: str,
                     buffers: gltf_structure.BufferData | None = None) -> list[dict[str, str]]:
    """What Blender's glTF importer cannot open (gltf_structure), and the file's encoding problems, as errors."""
    findings = gltf_structure.check(parsed.document, buffers or buffer_reader(parsed, path))
    issues = [issue(found.severity, found.pointer, found.as_error(), "structure") for found in findings]
    issues += resources.outside_uris(parsed.document, Path(path))
    issues += required_issues(parsed.document)
    if parsed.byte_order_mark:
        issues.append(issue("error", "", "the JSON starts with a UTF-8 byte order mark, which glTF forbids (Blender's "
                                         f"glTF importer {gltf_structure.FATAL})", "structure"))
    issues += [issue("error", at, "duplicate key: it appears twice in its object; JSON readers keep only the last "
                                  "(so does Blender's importer), and the first one's content is lost", "structure")
               for at in parsed.duplicate_keys]
    return issues


def required_issues(document: Any) -> list[dict[str, str]]:
    """Extensions the file requires that Blender's glTF importer refuses the file for (it checks
    extensionsRequired before any add-on hook runs), unless another add-on reads them."""
    required = document.get("extensionsRequired") if isinstance(document, dict) else None
    ours = {name for dialect in registry.names() for name in registry.owned_names(dialect)}
    issues = []
    for position, name in enumerate(required if isinstance(required, list) else ()):
        if not isinstance(name, str) or name in IMPORTER_EXTENSIONS or name in ours:
            continue
        at = f"/extensionsRequired/{position}"
        if name in NEWER_IMPORTER_EXTENSIONS:
            issues.append(issue("warning", at, f"requires {name}, which Blender's glTF importer reads from "
                                               "Blender 5.2 on: older ones refuse the file", "structure"))
        else:
            issues.append(issue("error", at, f"requires {name}, which neither Blender's glTF importer nor this "
                                             "add-on reads, unless another add-on does (Blender's glTF importer "
                                             f"{gltf_structure.FATAL})", "structure"))
    return issues


def fatal_structure(parsed: GltfFile, path: str) -> str | None:
    """One sentence on why Blender's glTF importer cannot open the file even with the add-on's repairs, or None."""
    ending = f" (Blender's glTF importer {gltf_structure.FATAL})"
    for found in structure_issues(parsed, path):
        if found["message"].endswith(ending):
            where = f" ({found['pointer']})" if found["pointer"] else ""
            return found["message"].removesuffix(ending) + where
    return None


def validate_one(task: tuple[str, str | None]) -> Result:
    """The findings for one file: task is (path, spec folder or None for the default)."""
    path, spec_dir = task
    parsed, problem = read_file(path)
    if parsed is None:
        return failed(path, problem or "cannot read")
    default = registry.default()
    used = registry.dialects_used(parsed.document) or {default.name}
    read_order = [default.name, *(name for name in registry.names() if name != default.name)]  # default first
    docs = [reader.read_document(parsed.document, name) for name in read_order if name in used]
    doc = docs[0]
    buffers = buffer_reader(parsed, path)
    structure = structure_issues(parsed, path, buffers)
    structure += from_issues(shape_mesh_issues(parsed, doc, buffers), "meshes")
    kept = [found for found in doc.issues if found.kind == unknown_keys.KIND]  # the reader's: said as values
    structure += from_issues(value_losses.document_losses(doc) + node_transforms.check(parsed.document) + kept,
                             "values")
    # The schema check covers extensionsUsed for every extension, legacy ones included, so the rules'
    # narrower finding about the same list is left out rather than said twice; so are the rules' notes on
    # links the structure check already calls errors.
    said = {"/extensionsUsed", *(item["pointer"] for item in structure)}
    issues = structure + [item for read in docs
                          for item in from_issues([found for found in read.issues if found.kind != unknown_keys.KIND],
                                                  "rules")
                          if item["pointer"] not in said]
    if len(docs) == 2:  # nodes carrying both dialects: which one the import reads, and whether they agree
        issues += from_issues(mixed.overlaps(parsed.document, docs[0], docs[1], *(name for name in read_order
                                                                                   if name in used)), "rules")
    issues += from_issues(pointers.check_animation(parsed.document), "rules")  # channels into physics values
    issues += from_issues(animation_keys.check(parsed.document, buffer_bytes(parsed, buffers)), "rules")  # their keys
    issues += from_issues(joint_rest.check(parsed.document, doc), "rules")  # bodies starting outside their limits
    issues += from_issues(skin_joints.check(parsed.document, [read.nodes for read in docs]), "rules")  # on bones
    issues += from_issues(bind_matrices.check(parsed.document, buffer_bytes(parsed, buffers)), "structure")
    found: list[Issue] = []
    for name in read_order:  # the default dialect's schemas always (they see extensionsUsed), the others' if used
        check = registry.get(name).schema_check
        if check is not None and (name == default.name or name in used):
            found += [item for item in check(parsed.document, spec_dir, True) if item not in found]  # said once
    explained = known_generators.explained([note for read in docs for note in read.issues])  # as written
    schema_issues = [item for item in from_issues(found, "schema")
                     if item["severity"] != "warning" or item["pointer"] not in explained]
    issues = merged(issues, schema_issues)
    issues += legacy_hint(doc.revisions)
    revisions = sorted({name for read in docs for name in read.revisions})
    result = counted({"file": path, "status": "checked", "revisions": revisions, "issues": issues})
    result["status"] = "errors" if result["errors"] else "warnings" if result["warnings"] else "ok"
    return result


def merged(rule_issues: list[dict[str, str]], schema_issues: list[dict[str, str]]) -> list[dict[str, str]]:
    """Both checkers' findings, each value's problem said once.

    A schema warning is a form ERRATA tolerates and says how it is read, so the rules' note on the same
    value goes. A schema error on a value the rules already call an error goes, since the rules' message
    also says what the importer does with the value.
    """
    tolerated = {item["pointer"] for item in schema_issues if item["severity"] == "warning"}
    rule_errors = {item["pointer"] for item in rule_issues if item["severity"] == "error"}
    return [item for item in rule_issues if item["pointer"] not in tolerated] + [
        item for item in schema_issues if item["severity"] == "warning" or item["pointer"] not in rule_errors]
