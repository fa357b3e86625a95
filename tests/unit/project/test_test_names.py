"""Where a test lives and what it is called.

The test folders have no __init__.py, so pytest imports each test module by its file name alone: two of one
name in different folders stop the whole run at collection. The tests mirror the code: a test of one module
sits in the folder named after that module's package or module (tests/unit/checks for io/omi/checks,
tests/blender/export for io/blender/export, tests/blender/panels for panels/), tests spanning many modules in a
scenario folder; the top of tests/unit and tests/blender holds their support modules only, and what tests of
other folders share lives there, not in a test module of another folder.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

TESTS = Path(__file__).resolve().parents[2]
ROOT = TESTS.parent
SCENARIO_FOLDERS = {
    "unit": {"project"},  # the repository's own files: docs, scripts, spec copies, type-check suppressions
    "blender": {"scenarios"},  # an artist's session, the demo, fidelity against physics, hostile corpora
}


def modules_of_tests() -> list[Path]:
    return [path for path in TESTS.rglob("test_*.py") if "node_modules" not in path.parts]


def test_every_test_module_name_is_unique() -> None:
    folders: dict[str, list[str]] = defaultdict(list)
    for path in modules_of_tests():
        folders[path.name].append(str(path.parent.relative_to(TESTS)))
    assert {name: where for name, where in folders.items() if len(where) > 1} == {}


def mirrored(folder: Path) -> bool:
    """Whether a folder under tests/unit or tests/blender is named after the code it tests."""
    top, *rest = folder.relative_to(TESTS).parts
    if not rest:
        return False  # the top holds support modules only
    if rest[0] in SCENARIO_FOLDERS[top]:
        return len(rest) == 1
    code_homes = [ROOT / "io" / "omi"] if top == "unit" else [
        ROOT / "io" / "blender", ROOT / "io", ROOT, ROOT / "io" / "omi"]  # the Blender side, the UI, the CLI
    relative = Path(*rest)
    return any((home / relative / "__init__.py").is_file() or (home / relative).with_suffix(".py").is_file()
               for home in code_homes)


def test_tests_of_one_module_sit_in_the_folder_of_its_code() -> None:
    misplaced = sorted(str(path.relative_to(TESTS)) for path in modules_of_tests()
                       if path.parent.relative_to(TESTS).parts[:1] in (("unit",), ("blender",))
                       and not mirrored(path.parent))
    assert misplaced == [], ("tests/unit/<package or module of io/omi>/ (or project/), tests/blender/<package or "
                             "module of the add-on>/ (or scenarios/)")


def test_a_test_module_imports_test_modules_of_its_own_folder_only() -> None:
    """pytest puts a test module's own folder on sys.path when it imports it; a helper that tests of several
    folders use goes into a support module (tests/blender/import_support.py, tests/ui_recorder.py, ...)."""
    folders = {path.stem: path.parent for path in modules_of_tests()}
    crossing = sorted(f"{path.relative_to(TESTS)} imports {name}"
                      for path in TESTS.rglob("*.py") if "node_modules" not in path.parts
                      for name in re.findall(r"^\s*(?:from|import) (test_\w+)", path.read_text(encoding="utf-8"), re.M)
                      if name in folders and folders[name] != path.parent)
    assert crossing == []


INCIDENT_WORDS = {"issue", "bug", "fix", "regression", "incident"}


def test_a_test_module_is_named_after_what_it_tests_not_after_an_incident() -> None:
    """`test_one_mass` and `test_import_gc_pause` said where a problem was met; `test_sync_mass` and
    `test_gc_pause` say what is tested. An issue number or a word like 'bug' names no behaviour."""
    named = sorted(path.name for path in modules_of_tests()
                   if path.relative_to(TESTS).parts[0] in SCENARIO_FOLDERS
                   and {word for word in path.stem.split("_")[1:] if word in INCIDENT_WORDS or word.isdigit()})
    assert named == []
