"""`validate` for one file: every rule the reader knows plus the schemas, as a result dict (cli_results).

Runs in a worker process of the command-line tool; no bpy here.
"""

from __future__ import annotations

from . import dialects, gltf_file, pointers, reader, rules, schema, schema_khr
from .cli_results import Result, counted, failed, from_issues, issue
from .gltf_file import GltfFile


def read_file(path: str) -> tuple[GltfFile | None, str | None]:
    """(GltfFile, None) or (None, why it cannot be read, in one sentence)."""
    try:
        return gltf_file.read(path), None
    except OSError as error:
        return None, f"cannot read: {error.strerror or error}"
    except gltf_file.GltfFileError as error:
        return None, f"cannot read: {error}"


def legacy_hint(revisions: set[str]) -> list[dict[str, str]]:
    """One warning for the old revisions whose findings are only notes (the other old forms warn already)."""
    legacy = sorted(revisions & {rules.REV_COLLIDER, rules.REV_BODY_TYPE})
    if not legacy:
        return []
    return [issue("warning", "", f"legacy OMI content ({', '.join(legacy)}): the `upgrade` command rewrites it in "
                                 "the current revision", "rules")]


def validate_one(task: tuple[str, str | None]) -> Result:
    """The findings for one file: task is (path, spec folder or None for the default)."""
    path, spec_dir = task
    parsed, problem = read_file(path)
    if parsed is None:
        return failed(path, problem or "cannot read")
    used = dialects.dialects_used(parsed.document) or {"OMI"}
    docs = [reader.read_document(parsed.document, name) for name in sorted(used, reverse=True)]  # OMI, KHR
    doc = docs[0]
    # The schema check covers extensionsUsed for every extension, legacy ones included, so the rules'
    # narrower finding about the same list is left out rather than said twice.
    issues = [item for read in docs for item in from_issues(read.issues, "rules")
              if item["pointer"] != "/extensionsUsed"]
    issues += from_issues(pointers.check_animation(parsed.document), "rules")  # channels into physics values
    found = schema.schema_errors(parsed.document, spec_dir, allow_legacy=True)
    if "KHR" in used:  # both checks report a non-finite number: once is enough
        found += [item for item in schema_khr.khr_schema_errors(parsed.document) if item not in found]
    schema_issues = from_issues(found, "schema")
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
