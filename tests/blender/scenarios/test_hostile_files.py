"""The hostile corpus (tests/hostile/corpus.py) through import, export and validate of the export, in one
Blender child process (tests/hostile/run_corpus.py): no file crashes Blender, none prints a traceback as
its message, each finishes (the child has CHILD_TIMEOUT seconds for all of them; the time of each is
printed), and the report names what each kind needs named. `validate` of the sources is in
tests/unit/checks/test_gltf_structure.py."""

from __future__ import annotations

import json
import subprocess

import addon_loader
import pytest
from cli_support import REPO_ROOT
from hostile.corpus import write_corpus

pytestmark = pytest.mark.slow  # seconds per test (docs/development.md: the fast suite)

RUNNER = REPO_ROOT / "tests" / "hostile" / "run_corpus.py"
CHILD_TIMEOUT = 600  # seconds for the whole corpus; on the project's machine it takes well under a minute


@pytest.fixture(scope="module")
def corpus_run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile")
    cases = write_corpus(folder / "in")
    child = subprocess.run(addon_loader.script_command(RUNNER, folder / "in", folder / "out"),
                           capture_output=True, text=True, timeout=CHILD_TIMEOUT, check=False)
    records = [json.loads(line) for line in child.stdout.splitlines() if line.startswith("{")]
    started = [record["start"] for record in records if "start" in record]
    finished = {record["file"]: record for record in records if "file" in record}
    assert child.returncode == 0 and len(finished) == len(cases), \
        f"the corpus run died (status {child.returncode}) on {started[-1] if started else '?'}:\n{child.stderr[-3000:]}"
    for name, record in sorted(finished.items()):
        times = ", ".join(f"{step} {record[step][2]:.2f} s" for step in ("import", "export", "validate")
                          if step in record)
        print(f"{name}: {times}")
    return cases, finished


def test_no_file_crashes_or_prints_a_traceback(corpus_run):
    _cases, finished = corpus_run
    for name, record in finished.items():
        for step in ("import", "export", "validate"):
            if step in record:
                status, printed, _seconds = record[step]
                assert status in (0, 1), (name, step, printed)
                assert "Traceback" not in printed and "hook failed" not in printed, (name, step, printed)


def test_files_blender_cannot_open_are_refused_in_one_sentence(corpus_run):
    cases, finished = corpus_run
    for name, case in cases.items():
        status, printed, _seconds = finished[name]["import"]
        if case.import_fails:
            assert status == 1 and "export" not in finished[name], name
            lines = [line for line in printed.splitlines() if line.strip()]
            assert len(lines) == 1 and ": error: Blender's glTF importer cannot open it: " in lines[0], printed
        else:
            assert "export" in finished[name], (name, printed)


def test_each_kind_is_named_at_import_and_export(corpus_run):
    cases, finished = corpus_run
    for name, case in cases.items():
        if case.pending:
            continue
        _status, printed, _seconds = finished[name]["import"]
        assert all(word in printed for word in case.import_words), (name, case.import_words, printed)
        if case.export_words:
            _status, exported, _seconds = finished[name]["export"]
            assert all(word in exported for word in case.export_words), (name, case.export_words, exported)


def test_every_export_is_valid(corpus_run):
    _cases, finished = corpus_run
    for name, record in finished.items():
        if "validate" in record:
            report, _end = json.JSONDecoder().raw_decode(record["validate"][1])  # the summary line follows
            errors = [issue for entry in report["files"] for issue in entry["issues"] if issue["severity"] == "error"]
            assert errors == [], (name, errors)


def test_exports_leave_to_the_engine_what_the_file_left_to_it(corpus_run):
    """A value the file does not state (a KHR body's centre of mass) is not pinned by the export."""
    cases, finished = corpus_run
    for name, case in cases.items():
        if case.pending or not case.export_lacks:
            continue
        written = finished[name]["exported_json"]
        assert all(f'"{key}"' not in written for key in case.export_lacks), (name, case.export_lacks, written)
