"""`convert` for one file: rewrite its physics in the other dialect (OMI <-> KHR); nothing else changes.

Runs in a worker process of the command-line tool; no bpy here. The file is not written when meaning
would be lost (a finding that is a warning or an error, each with its pointer), unless forced.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..dialects import registry
from ..read import mixed, reader
from ..write.dialect_convert import convert
from . import resources
from .results import Result, counted, failed, from_issues, issue
from .upgrade_file import GLTF_SUFFIXES, same_key_order, write_unless_errors
from .validate_file import buffer_bytes, buffer_reader, read_file


def convert_one(task: tuple[str, str, str, bool, str | None]) -> Result:
    """task: (source, target file, target (`dialect_convert.targets`), write even when meaning is lost, spec folder)."""
    source, target, dialect, force, spec_dir = task
    parsed, problem = read_file(source)
    if parsed is None:
        return failed(source, problem or "cannot read", out=target)
    suffix = Path(target).suffix.lower()
    if suffix in GLTF_SUFFIXES and (suffix == ".glb") != parsed.is_glb:
        return failed(source, "convert keeps the container: give an output named "
                              f"{'.glb' if parsed.is_glb else '.gltf'}", "failed", out=target)
    conversion = convert(parsed.document, dialect, read_buffer=buffer_bytes(parsed, buffer_reader(parsed, source)))
    written = same_key_order(parsed.document, conversion.document)
    lost = {(found.pointer, found.message) for found in conversion.lost}
    issues = [{**item, "severity": "error"} if (item["pointer"], item["message"]) in lost else item
              for item in from_issues(conversion.issues, "convert")]
    issues += disagreements(parsed.document, conversion.source)
    checks = [registry.get(name).schema_check for name in registry.target(dialect).dialects]
    checked = [item for check in checks if check is not None for item in check(written, spec_dir, False)]
    issues += [{**item, "message": f"the converted file fails the schema: {item['message']}"}
               for item in from_issues(checked, "convert") if item["severity"] == "error"]
    copies, missing = resources.resource_copies(written, Path(source), Path(target))
    result = counted({"file": source, "out": target, "status": "", "converted": [conversion.source],
                      "issues": issues + missing})
    return write_unless_errors(result, parsed, written, force, copies)


def disagreements(document: Any, source: str) -> list[dict[str, str]]:
    """An error at each node that carries both dialects with different values: convert writes the physics of
    `source` and the other copy's values are lost (the output holds one dialect), so it is named and the file is
    not written unless forced."""
    others = [name for name in registry.dialects_used(document) if name != source]
    if not others:
        return []
    first, second = reader.read_document(document, source), reader.read_document(document, others[0])
    return [issue("error", found.pointer, f"{found.message.partition(' that differ')[0]} that differ: convert "
                                          f"writes the {source} physics and the {others[0]} copy's values are lost",
                  "convert")
            for found in mixed.overlaps(document, first, second, source, others[0]) if found.severity == "warning"]
