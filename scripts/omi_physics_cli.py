"""omi_physics_cli: check, upgrade, import and export OMI physics in glTF files, for pipelines.

    python scripts/omi_physics_cli.py validate FILE_OR_DIR... [--json] [--strict] [--jobs N]
    python scripts/omi_physics_cli.py upgrade FILE... (--out FILE | --out-dir DIR | --in-place) [--force]
    python scripts/omi_physics_cli.py import FILE --out scene.blend [--no-physics] [--no-rigid-bodies]
    python scripts/omi_physics_cli.py export scene.blend --out file.glb [--no-physics] [--no-untagged-rigid-bodies]

Exit status: 0 clean (warnings allowed unless --strict), 1 problems found, 2 usage or I/O error.

`validate` and `upgrade` never import bpy: they load the add-on's pure core (io/omi) by path as the package
`omi_core`, so a pool of worker processes stays cheap. The checkout itself never goes on sys.path (its io/
would shadow Python's io). `import` and `export` run Blender's glTF operators with the add-on enabled (see
addon_loader.py) and end with os._exit, because the bpy 4.2 module can crash at interpreter exit after a
glTF export and the exit status must be the one chosen here.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import importlib.util
import json
import logging
import multiprocessing
import os
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import unquote

CHECKOUT = Path(__file__).resolve().parent.parent
CORE_PACKAGE = "omi_core"
EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2
GLTF_SUFFIXES = (".gltf", ".glb")
SEVERITIES = ("error", "warning", "info")
POOL_MIN_BYTES = 1 << 20  # see useful_jobs


def core(name: str) -> ModuleType:
    """A module of the add-on's pure core, e.g. core('reader'), imported without Blender."""
    if CORE_PACKAGE not in sys.modules:
        init = CHECKOUT / "io" / "omi" / "__init__.py"
        spec = importlib.util.spec_from_file_location(CORE_PACKAGE, init, submodule_search_locations=[str(init.parent)])
        if spec is None or spec.loader is None:
            raise ImportError(f"cannot load the OMI core from {init.parent}")
        package = importlib.util.module_from_spec(spec)
        sys.modules[CORE_PACKAGE] = package
        spec.loader.exec_module(package)
    return importlib.import_module(f"{CORE_PACKAGE}.{name}")


# --- results ---------------------------------------------------------------------------------------
# Workers return plain dicts (cheap to pickle, and the --json output as it is): {"file", "status",
# "issues": [{"severity", "pointer", "message", "source"}], "errors", "warnings", "infos", ...}.

def _issue(severity: str, pointer: str, message: str, source: str) -> dict:
    return {"severity": severity, "pointer": pointer, "message": message, "source": source}


def _from_issues(issues: Iterable[Any], source: str) -> list[dict]:
    return [_issue(issue.severity, issue.pointer, issue.message, source) for issue in issues]


def _pointer_key(item: dict) -> list[tuple[int, int | str]]:
    tokens = item["pointer"].split("/")[1:] if item["pointer"] else []
    return [(0, int(token)) if token.isdigit() else (1, token) for token in tokens]


def _counted(result: dict) -> dict:
    result["issues"].sort(key=_pointer_key)
    for severity, key in zip(SEVERITIES, ("errors", "warnings", "infos"), strict=True):
        result[key] = sum(1 for item in result["issues"] if item["severity"] == severity)
    return result


def _failed(path: str, message: str, status: str = "unreadable", **extra: Any) -> dict:
    """A file that could not be read ("unreadable") or written or was refused ("failed"): exit status 2."""
    return {"file": path, "status": status, "message": message, "issues": [], "errors": 0, "warnings": 0,
            "infos": 0, **extra}


def _read(path: str) -> tuple[Any, str | None]:
    """(GltfFile, None) or (None, why it cannot be read)."""
    gltf_file = core("gltf_file")
    try:
        return gltf_file.read(path), None
    except OSError as error:
        return None, f"cannot read: {error.strerror or error}"
    except gltf_file.GltfFileError as error:
        return None, f"cannot read: {error}"


def _legacy_revisions(revisions: set[str]) -> list[str]:
    """The old revisions a file used, of those `upgrade` rewrites."""
    rules = core("rules")
    return sorted(revisions & {rules.REV_COLLIDER, rules.REV_BODY_TYPE, rules.REV_FLAT_SHAPE,
                               rules.REV_FULL_HEIGHT_CAPSULE})


def _legacy_hint(revisions: set[str]) -> list[dict]:
    """One warning for the old revisions whose findings are only notes (the other old forms warn already)."""
    rules = core("rules")
    legacy = sorted(revisions & {rules.REV_COLLIDER, rules.REV_BODY_TYPE})
    if not legacy:
        return []
    return [_issue("warning", "", f"legacy OMI content ({', '.join(legacy)}): the `upgrade` command rewrites it in "
                                  "the current revision", "rules")]


# --- validate ------------------------------------------------------------------------------------------

def validate_one(task: tuple[str, str | None]) -> dict:
    """Every rule the reader knows plus the schemas, for one file (runs in a worker process)."""
    path, spec_dir = task
    parsed, problem = _read(path)
    if parsed is None:
        return _failed(path, problem or "cannot read")
    doc = core("reader").read_document(parsed.document)
    # The schema check covers extensionsUsed for every OMI extension, legacy ones included, so the rules'
    # narrower finding about the same list is left out rather than said twice.
    issues = [item for item in _from_issues(doc.issues, "rules") if item["pointer"] != "/extensionsUsed"]
    schema_issues = _from_issues(core("schema").schema_errors(parsed.document, spec_dir, allow_legacy=True), "schema")
    issues = _merged(issues, schema_issues)
    issues += _legacy_hint(doc.revisions)
    result = _counted({"file": path, "status": "checked", "revisions": sorted(doc.revisions), "issues": issues})
    result["status"] = "errors" if result["errors"] else "warnings" if result["warnings"] else "ok"
    return result


def _merged(rule_issues: list[dict], schema_issues: list[dict]) -> list[dict]:
    """Both checkers' findings, each value's problem said once.

    A schema warning is a form ERRATA tolerates and says how it is read, so the rules' note on the same
    value goes. A schema error on a value the rules already call an error goes, since the rules' message
    also says what the importer does with the value.
    """
    tolerated = {item["pointer"] for item in schema_issues if item["severity"] == "warning"}
    rule_errors = {item["pointer"] for item in rule_issues if item["severity"] == "error"}
    return [item for item in rule_issues if item["pointer"] not in tolerated] + [
        item for item in schema_issues if item["severity"] == "warning" or item["pointer"] not in rule_errors]


# --- upgrade ---------------------------------------------------------------------------------------------

def upgrade_one(task: tuple[str, str, bool, str | None]) -> dict:
    """Rewrite one file's OMI content in the current revision; nothing else in the file changes."""
    source, target, force, spec_dir = task
    parsed, problem = _read(source)
    if parsed is None:
        return _failed(source, problem or "cannot read", out=target)
    if (Path(target).suffix.lower() == ".glb") != parsed.is_glb and Path(target).suffix.lower() in GLTF_SUFFIXES:
        kind = "GLB" if parsed.is_glb else ".gltf"
        return _failed(source, f"the input is a {kind} file: upgrade keeps the container, give an output named "
                               f"{'.glb' if parsed.is_glb else '.gltf'}", "failed", out=target)
    reader, writer, canonical, schema = core("reader"), core("writer"), core("canonical"), core("schema")
    doc = reader.read_document(parsed.document)
    written = _same_key_order(parsed.document, writer.write_document(doc, parsed.document))
    issues = _from_issues(doc.issues, "rules")
    issues += [_issue("error", "", f"the upgrade would change the physics: {difference}", "upgrade")
               for difference in canonical.diff_physics(parsed.document, written)]
    issues += [_issue("error", found.pointer, f"the upgraded file fails the schema: {found.message}", "upgrade")
               for found in schema.schema_errors(written, spec_dir, allow_legacy=False)]
    issues += _dropped_properties(parsed.document, written)
    issues += _missing_resources(written, Path(source), Path(target))
    result = _counted({"file": source, "out": target, "status": "", "converted": _legacy_revisions(doc.revisions),
                       "issues": issues})
    if result["errors"] and not force:
        result["status"] = "not written"
        return result
    try:
        core("gltf_file").write(target, parsed, written)
    except OSError as error:
        return _failed(source, f"cannot write {target}: {error.strerror or error}", "failed", out=target)
    result["status"] = "written"
    return result


_MISSING = object()


def _dropped_properties(original: Any, written: Any) -> list[dict]:
    """glTF property members (name, extras, extensions) inside OMI objects that the data model has no place
    for (a shape's name, a motion's extras, ...): the upgrade cannot carry them over, so say where each was."""
    pointer = core("json_types").pointer
    found = []
    for tokens, item in _omi_objects(original):
        for key in ("name", "extras", "extensions"):
            if key in item and _value_at(written, (*tokens, key)) != item[key]:
                found.append(_issue("warning", pointer(*tokens, key), f"`{key}` is not carried over by the upgrade "
                                    "(the physics model has no place for it)", "upgrade"))
    return found


def _omi_objects(document: Any) -> Iterator[tuple[tuple, dict]]:
    """(pointer tokens, object) for every JSON object inside the document's OMI extensions, depth first."""
    names = core("model").ALL_EXTENSIONS
    if not isinstance(document, dict):
        return
    roots = [(("extensions", name), (document.get("extensions") or {}).get(name)) for name in names
             if isinstance(document.get("extensions"), dict)]
    nodes = document.get("nodes") if isinstance(document.get("nodes"), list) else []
    for index, node in enumerate(nodes):
        extensions = node.get("extensions") if isinstance(node, dict) else None
        if isinstance(extensions, dict):
            roots += [(("nodes", index, "extensions", name), extensions.get(name)) for name in names]
    stack = [(tokens, value) for tokens, value in reversed(roots) if value is not None]
    while stack:
        tokens, value = stack.pop()
        if isinstance(value, dict):
            yield tokens, value
            stack.extend(((*tokens, key), item) for key, item in reversed(value.items())
                         if key not in ("extras", "extensions"))  # foreign content: reported as a whole
        elif isinstance(value, list):
            stack.extend(((*tokens, position), item) for position, item in reversed(list(enumerate(value))))


def _value_at(document: Any, tokens: tuple) -> Any:
    value = document
    for token in tokens:
        in_object = isinstance(value, dict) and token in value
        in_array = isinstance(value, list) and isinstance(token, int) and 0 <= token < len(value)
        if not (in_object or in_array):
            return _MISSING
        value = value[token]
    return value


def _same_key_order(original: Any, written: Any) -> Any:
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


def _missing_resources(document: Any, source: Path, target: Path) -> list[dict]:
    """Buffers and images named by relative URI must sit next to the output as they sat next to the input."""
    if source.resolve().parent == target.resolve().parent:
        return []
    return [_issue("warning", "", f"refers to {uri!r}, which is not next to the output file; copy it there", "upgrade")
            for uri in core("gltf_file").relative_uris(document) if not (target.parent / unquote(uri)).exists()]


# --- batches -------------------------------------------------------------------------------------------

def run_pool(worker: Callable[[Any], dict], tasks: list, jobs: int) -> Iterator[dict]:
    """Results in task order; a process pool when there is more than one task and job."""
    jobs = max(1, min(jobs, len(tasks)))
    if jobs == 1:
        yield from map(worker, tasks)
        return
    methods = multiprocessing.get_all_start_methods()
    fork = "fork" in methods and sys.platform != "darwin"
    if fork:
        gc.freeze()  # the workers share the loaded schemas and modules without copying their pages
    with multiprocessing.get_context("fork" if fork else "spawn").Pool(jobs) as pool:
        yield from pool.imap(worker, tasks, chunksize=max(1, len(tasks) // (jobs * 32)))


def useful_jobs(files: list[str], jobs: int | None) -> int:
    """`--jobs` as given; without it, the CPU count, or 1 when the files are too small for a pool to pay for
    starting its processes.

    Measured on the project's 2-core machine: a file is checked at about 9 MB/s (schemas included) and a
    pool of two costs about 60 ms, so below about 1 MB in all one process is faster.
    """
    if jobs is not None:
        return max(1, jobs)
    total = 0
    for file in files:
        with contextlib.suppress(OSError):
            total += os.stat(file).st_size
    return (os.cpu_count() or 1) if total >= POOL_MIN_BYTES else 1


def expand_paths(arguments: list[str]) -> list[tuple[str, Path]]:
    """(file, its name for --out-dir): files as given, under their own name; a folder stands for every
    .gltf/.glb file below it (sorted), named by its path inside the folder."""
    files: list[tuple[str, Path]] = []
    for argument in arguments:
        path = Path(argument)
        if path.is_dir():
            files += [(str(found), found.relative_to(path)) for found in sorted(path.rglob("*"))
                      if found.suffix.lower() in GLTF_SUFFIXES and found.is_file()]
        else:
            files.append((argument, Path(path.name)))
    return files


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _status_text(result: dict) -> str:
    if result["status"] in ("unreadable", "failed"):
        return result["status"]
    counts = [_plural(result[key], word) for key, word in (("errors", "error"), ("warnings", "warning"))
              if result[key]]
    return ", ".join(counts) or "ok"


def _issue_lines(file: str, result: dict, shown: set[str]) -> list[str]:
    if result["status"] in ("unreadable", "failed"):
        return [f"{file}: error: {result['message']}"]
    return [f"{file}: {item['severity']} {item['pointer'] or '/'}: {item['message']}"
            for item in result["issues"] if item["severity"] in shown]


def _shown(args: argparse.Namespace) -> set[str]:
    if args.quiet:
        return {"error"}
    return set(SEVERITIES) if args.verbose else {"error", "warning"}


def _summary(results: list[dict], *extra: str) -> tuple[str, dict]:
    totals = {"files": len(results), "errors": sum(r["errors"] for r in results),
              "warnings": sum(r["warnings"] for r in results),
              "unreadable": sum(1 for r in results if r["status"] == "unreadable")}
    failed = sum(1 for r in results if r["status"] == "failed")
    if failed:
        totals["failed"] = failed
    parts = [_plural(totals["files"], "file"), *extra, _plural(totals["errors"], "error"),
             _plural(totals["warnings"], "warning")]
    parts += [f"{totals[key]} {key}" for key in ("unreadable", "failed") if totals.get(key)]
    return ", ".join(parts), totals


def _exit_status(results: list[dict], strict: bool) -> int:
    if any(r["status"] in ("unreadable", "failed") for r in results):
        return EXIT_USAGE
    if any(r["errors"] or (strict and r["warnings"]) or r["status"] == "not written" for r in results):
        return EXIT_PROBLEMS
    return EXIT_OK


def _schema_note(spec_dir: str | None, quiet: bool) -> dict:
    """Load the schemas once, before any worker starts (forked workers inherit them); say once if absent."""
    schema = core("schema")
    reason = schema.unavailable_reason(spec_dir)
    if reason is None:
        schema.validators(spec_dir)
    elif not quiet:
        print(f"note: schemas not checked, rules only: {reason}", file=sys.stderr)
    found = schema.find_spec_dir(spec_dir)
    return {"checked": reason is None, "reason": reason, "specDir": str(found) if found else None}


def cmd_validate(args: argparse.Namespace) -> int:
    files = [file for file, _name in expand_paths(args.files)]
    if not files:
        print("error: no .gltf or .glb files to validate", file=sys.stderr)
        return EXIT_USAGE
    schemas = _schema_note(args.spec_dir, args.quiet)
    core("reader")
    progress = len(files) > 1 and not args.no_progress
    shown = _shown(args)
    results = []
    tasks = [(file, args.spec_dir) for file in files]
    for position, result in enumerate(run_pool(validate_one, tasks, useful_jobs(files, args.jobs)), 1):
        results.append(result)
        if not args.json:
            for line in _issue_lines(result["file"], result, shown):
                print(line, flush=progress)
        if progress:
            print(f"[{position}/{len(files)}] {result['file']}: {_status_text(result)}", file=sys.stderr, flush=True)
    summary, totals = _summary(results)
    if args.json:
        print(json.dumps({"tool": "omi_physics_cli validate", "schemas": schemas, "files": results,
                          "summary": totals}, indent=1))
        print(summary, file=sys.stderr)
    else:
        print(summary)
    return _exit_status(results, args.strict)


def cmd_upgrade(args: argparse.Namespace) -> int:
    named = expand_paths(args.files)
    files = [file for file, _name in named]
    if not files:
        print("error: no .gltf or .glb files to upgrade", file=sys.stderr)
        return EXIT_USAGE
    if args.out is not None and len(files) != 1:
        print("error: --out takes one input file; use --out-dir or --in-place for several", file=sys.stderr)
        return EXIT_USAGE
    if args.out_dir is not None:
        targets = [str(Path(args.out_dir) / name) for _file, name in named]
        if len(set(targets)) != len(targets):
            print("error: two input files have the same name; --out-dir would write one over the other",
                  file=sys.stderr)
            return EXIT_USAGE
        for folder in {Path(target).parent for target in targets}:
            folder.mkdir(parents=True, exist_ok=True)
    else:
        targets = [args.out] if args.out is not None else list(files)
    _schema_note(args.spec_dir, args.quiet)
    progress = len(files) > 1 and not args.no_progress
    shown = _shown(args)
    tasks = [(source, target, args.force, args.spec_dir) for source, target in zip(files, targets, strict=True)]
    results = []
    for position, result in enumerate(run_pool(upgrade_one, tasks, useful_jobs(files, args.jobs)), 1):
        results.append(result)
        lines = _issue_lines(result["file"], result, shown)
        if result["status"] not in ("unreadable", "failed") and not args.quiet:
            converted = f"upgraded from {', '.join(result['converted'])}" if result["converted"] \
                else "no legacy content, rewritten"
            done = converted if result["status"] == "written" else "NOT written (errors above; --force writes anyway)"
            lines.append(f"{result['file']} -> {result['out']}: {done}")
        if lines and not args.json:
            print("\n".join(lines), flush=progress)
        if progress:
            print(f"[{position}/{len(files)}] {result['file']}: {_status_text(result)}", file=sys.stderr, flush=True)
    written = sum(1 for r in results if r["status"] == "written")
    summary, totals = _summary(results, f"{written} written")
    if args.json:
        print(json.dumps({"tool": "omi_physics_cli upgrade", "files": results, "summary": {**totals,
                                                                                            "written": written}},
                         indent=1))
        print(summary, file=sys.stderr)
    else:
        print(summary)
    return _exit_status(results, strict=False)


# --- import and export (Blender) ---------------------------------------------------------------------------

def _gltf_options(pairs: list[str]) -> dict[str, Any]:
    """--gltf-option KEY=VALUE pairs for the glTF operator; VALUE is JSON (true, 2, "x") or else a string."""
    options: dict[str, Any] = {}
    for pair in pairs:
        key, separator, value = pair.partition("=")
        if not separator or not key:
            raise ValueError(f"--gltf-option {pair!r} is not KEY=VALUE")
        try:
            options[key] = json.loads(value)
        except json.JSONDecodeError:
            options[key] = value
    return options


def _blender() -> tuple[ModuleType, ModuleType] | None:
    try:
        import bpy  # noqa: PLC0415 - only import/export need Blender
    except ImportError:
        print("error: the import and export commands need Blender's Python module (pip install bpy; see "
              "requirements.txt)", file=sys.stderr)
        return None
    sys.path.insert(0, str(Path(__file__).resolve().parent))  # addon_loader sits next to this script
    import addon_loader  # noqa: PLC0415

    return bpy, addon_loader


@contextlib.contextmanager
def _gltf_log(verbose: bool) -> Iterator[list[tuple[int, str]]]:
    """The glTF add-on's log records while Blender works. Everything Blender prints meanwhile (the glTF
    log's timestamped console lines, "Read blend" and the like, written by C code too) is held back at the
    file-descriptor level and shown on stderr only with --verbose."""
    records: list[tuple[int, str]] = []
    handler = logging.Handler(level=logging.DEBUG)
    handler.emit = lambda record: records.append((record.levelno, record.getMessage()))  # type: ignore[method-assign]
    loggers = [logging.getLogger(name) for name in ("glTFImporter", "glTFImporter_errors")]
    for logger in loggers:
        logger.addHandler(handler)
    sys.stdout.flush()
    sys.stderr.flush()
    saved = [os.dup(1), os.dup(2)]
    with tempfile.TemporaryFile() as held:
        os.dup2(held.fileno(), 1)
        os.dup2(held.fileno(), 2)
        try:
            yield records
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            for descriptor, copy in zip((1, 2), saved, strict=True):
                os.dup2(copy, descriptor)
                os.close(copy)
            for logger in loggers:
                logger.removeHandler(handler)
            if verbose:
                held.seek(0)
                sys.stderr.write(held.read().decode("utf-8", "replace"))


def _run_operator(operator: Callable[..., Any], verbose: bool, **options: Any) -> tuple[list, int | None, str]:
    """(glTF log records, None, "") or (records, exit status, why) when Blender refused or failed."""
    with _gltf_log(verbose) as records:
        try:
            operator(**options)
        except TypeError as error:  # an unknown --gltf-option
            return records, EXIT_USAGE, f"error: {str(error).strip()}"
        except RuntimeError as error:
            return records, EXIT_PROBLEMS, str(error).strip()
    return records, None, ""


def _refused(status: int, why: str, source: Path, verb: str) -> int:
    """Say why Blender's operator did not run (a usage error) or failed (a problem with the input)."""
    if status == EXIT_USAGE:
        print(why, file=sys.stderr)
    else:
        print(f"{source}: error: Blender could not {verb} it: {why}")
    return status


def _report_log(label: str, records: list[tuple[int, str]], shown: set[str],
                file_errors: Iterable[str] = ()) -> tuple[int, int]:
    """Print the OMI messages of a glTF log; (errors, warnings).

    The import hook logs each of the file's findings as a warning; those that `file_errors` (the reader's
    error messages) name are errors, and any not logged at all still count. A hook failure is an error.
    """
    log_prefix, hook_failure_mark = core("model").LOG_PREFIX, core("model").HOOK_FAILURE
    pending = list(file_errors)
    errors = warnings = 0
    for level, message in records:
        if log_prefix not in message or message.rstrip().endswith("see the console"):
            continue
        text = message.split(log_prefix, 1)[1]
        from_file = next((found for found in pending if text.endswith(found)), None)
        if from_file is not None:
            pending.remove(from_file)
        hook_failure = level >= logging.ERROR or text.startswith(hook_failure_mark)
        severity = "error" if hook_failure or from_file is not None else \
            "warning" if level >= logging.WARNING else "info"
        errors += severity == "error"
        warnings += severity == "warning"
        if severity in shown:
            print(f"{label}: {severity} {text}")
    return errors + len(pending), warnings


def cmd_import(args: argparse.Namespace) -> int:
    source, out = Path(args.file), Path(args.out)
    if out.suffix.lower() != ".blend":
        print(f"error: --out must name a .blend file, not {out.name!r}", file=sys.stderr)
        return EXIT_USAGE
    parsed, problem = _read(str(source))
    if parsed is None:
        print(f"{source}: error: {problem}", file=sys.stderr)
        return EXIT_USAGE
    try:
        options = _gltf_options(args.gltf_option)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE
    blender = _blender()
    if blender is None:
        return EXIT_USAGE
    bpy, loader = blender
    bpy.ops.wm.read_homefile(use_empty=True)
    loader.enable()
    settings = bpy.context.scene.omi_physics
    settings.import_physics = not args.no_physics
    settings.import_rigid_bodies = not args.no_rigid_bodies
    records, status, why = _run_operator(bpy.ops.import_scene.gltf, args.verbose, filepath=str(source.resolve()),
                                         **options)
    if status is not None:
        return _refused(status, why, source, "import")
    file_errors = [] if args.no_physics else [
        issue.message for issue in core("reader").validate(parsed.document) if issue.severity == "error"]
    errors, warnings = _report_log(str(source), records, _shown(args), file_errors)
    out.parent.mkdir(parents=True, exist_ok=True)
    with _gltf_log(args.verbose):
        bpy.ops.wm.save_as_mainfile(filepath=str(out.resolve()), check_existing=False)
    objects = list(bpy.context.scene.objects)
    tagged = sum(1 for obj in objects if _has_physics(obj))
    print(f"{source} -> {out}: {_plural(len(objects), 'object')}, {tagged} with OMI physics, "
          f"{_plural(errors, 'error')}, {_plural(warnings, 'warning')}")
    return EXIT_PROBLEMS if errors else EXIT_OK


def _has_physics(obj: Any) -> bool:
    settings = getattr(obj, "omi_physics", None)
    return settings is not None and any((settings.use_motion, settings.use_collider, settings.use_trigger,
                                         settings.use_joint))


def cmd_export(args: argparse.Namespace) -> int:
    source, out = Path(args.file), Path(args.out)
    file_format = args.format or ("glb" if out.suffix.lower() == ".glb" else "gltf")
    if out.suffix.lower() not in GLTF_SUFFIXES or (out.suffix.lower() == ".glb") != (file_format == "glb"):
        print(f"error: --out {out.name!r} does not fit the format {file_format} (name it .{file_format})",
              file=sys.stderr)
        return EXIT_USAGE
    if not source.is_file():
        print(f"{source}: error: cannot read: no such file", file=sys.stderr)
        return EXIT_USAGE
    try:
        options = _gltf_options(args.gltf_option)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE
    blender = _blender()
    if blender is None:
        return EXIT_USAGE
    bpy, loader = blender
    loader.enable()  # before loading: the add-on's load handlers run for the file
    with _gltf_log(args.verbose):
        try:
            bpy.ops.wm.open_mainfile(filepath=str(source.resolve()))
        except RuntimeError as error:
            failure = str(error).strip()
        else:
            failure = None
    if failure is not None:
        print(f"{source}: error: cannot read: {failure}", file=sys.stderr)
        return EXIT_USAGE
    settings = bpy.context.scene.omi_physics
    settings.export_physics = not args.no_physics
    settings.export_rigid_bodies = not args.no_untagged_rigid_bodies
    out.parent.mkdir(parents=True, exist_ok=True)
    export_format = 'GLB' if file_format == "glb" else 'GLTF_SEPARATE'
    records, status, why = _run_operator(bpy.ops.export_scene.gltf, args.verbose, filepath=str(out.resolve()),
                                         export_format=export_format, **options)
    if status is not None:
        return _refused(status, why, source, "export")
    errors, warnings = _report_log(str(source), records, _shown(args))
    written = validate_one((str(out), args.spec_dir))  # what was written must be valid OMI
    for item in written["issues"]:
        if item["severity"] in _shown(args):
            print(f"{out}: {item['severity']} {item['pointer'] or '/'}: {item['message']}")
    errors += written["errors"] + (written["status"] == "unreadable")
    print(f"{source} -> {out}: {_plural(errors, 'error')}, {_plural(warnings + written['warnings'], 'warning')}")
    return EXIT_PROBLEMS if errors else EXIT_OK


# --- command line ---------------------------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="omi_physics_cli", description=__doc__.split("\n\n")[0],
                                     epilog="exit status: 0 clean (warnings allowed unless --strict), 1 problems "
                                            "found, 2 usage or I/O error")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def batch_options(command: argparse.ArgumentParser) -> None:
        command.add_argument("--jobs", "-j", type=int, help="worker processes for several files (default: the "
                                                                 "CPU count, when the files are big enough to gain)")
        command.add_argument("--json", action="store_true", help="print one JSON document instead of text lines")
        command.add_argument("--spec-dir", help="the OMI spec folder with the schemas (default: $OMI_SPEC_DIR, "
                                                "else ../shared/omi-spec next to the checkout)")
        command.add_argument("--no-progress", action="store_true", help="no progress lines on stderr")
        command.add_argument("--quiet", "-q", action="store_true", help="print errors only")
        command.add_argument("--verbose", "-v", action="store_true", help="also print notes (info)")

    validate = commands.add_parser("validate", help="check OMI physics in glTF/GLB files against the specs",
                                   description="Check every OMI physics rule and the OMI JSON schemas. Prints "
                                               "`FILE: SEVERITY POINTER: message` lines and a summary line.")
    validate.add_argument("files", nargs="+", metavar="FILE", help=".gltf/.glb files or folders holding them")
    validate.add_argument("--strict", action="store_true", help="warnings fail too (exit status 1)")
    batch_options(validate)
    validate.set_defaults(run=cmd_validate)

    upgrade = commands.add_parser("upgrade", help="rewrite legacy OMI physics in the current revision",
                                  description="Rewrite OMI_collider, body `type` enums, full-height capsules and "
                                              "the other old forms in the current revision; nothing outside the "
                                              "OMI extensions changes (a GLB's binary chunk stays byte for byte).")
    upgrade.add_argument("files", nargs="+", metavar="FILE", help=".gltf/.glb files or folders holding them")
    target = upgrade.add_mutually_exclusive_group(required=True)
    target.add_argument("--out", "-o", help="the output file (one input only)")
    target.add_argument("--out-dir", help="write each output under this folder with its input's name")
    target.add_argument("--in-place", action="store_true", help="overwrite the input files")
    upgrade.add_argument("--force", action="store_true", help="write even when values had to be dropped")
    batch_options(upgrade)
    upgrade.set_defaults(run=cmd_upgrade)

    def blender_options(command: argparse.ArgumentParser, *, verb: str) -> None:
        command.add_argument("--no-physics", action="store_true", help=f"do not {verb} OMI physics")
        command.add_argument("--gltf-option", action="append", default=[], metavar="KEY=VALUE",
                             help=f"pass an option to Blender's glTF {verb}er (VALUE as JSON, e.g. "
                                  "export_apply=true)")
        command.add_argument("--verbose", "-v", action="store_true", help="also print notes and the glTF log")
        command.add_argument("--quiet", "-q", action="store_true", help="print errors only")

    importer = commands.add_parser("import", help="import a glTF/GLB file into a new .blend (needs bpy)")
    importer.add_argument("file", metavar="FILE")
    importer.add_argument("--out", "-o", required=True, help="the .blend file to save")
    importer.add_argument("--no-rigid-bodies", action="store_true", help="do not create Blender rigid bodies")
    blender_options(importer, verb="import")
    importer.set_defaults(run=cmd_import)

    exporter = commands.add_parser("export", help="export a .blend file to glTF/GLB (needs bpy)")
    exporter.add_argument("file", metavar="SCENE.blend")
    exporter.add_argument("--out", "-o", required=True, help="the .glb or .gltf file to write")
    exporter.add_argument("--format", choices=("glb", "gltf"), help="default: from the --out name")
    exporter.add_argument("--no-untagged-rigid-bodies", "--no-rigid-bodies", action="store_true",
                          help="leave out objects that have only a Blender rigid body (no OMI settings)")
    exporter.add_argument("--spec-dir", help="the OMI spec folder, to check the written file's schema")
    blender_options(exporter, verb="export")
    exporter.set_defaults(run=cmd_export)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    status = main()
    if "bpy" in sys.modules:  # bpy 4.2 may crash at interpreter exit: leave with the chosen status
        sys.stdout.flush()
        sys.stderr.flush()
        if "addon_loader" in sys.modules:
            sys.modules["addon_loader"].remove_repository_dirs()  # os._exit skips atexit
        os._exit(status)
    sys.exit(status)
