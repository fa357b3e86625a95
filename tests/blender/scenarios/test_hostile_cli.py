"""The command line's hostile corpus (tests/hostile/cli_corpus.py) run as a pipeline runs the tool: the real
script in a child process, each case within CASE_TIMEOUT seconds (a FIFO must never be waited on). Each
ends with its exit status and names what went wrong; none prints a traceback or a flag the user did not
type."""

from __future__ import annotations

import json
import sys
import time

import pytest
from cli_support import REPO_ROOT, run_cli_subprocess
from hostile.cli_corpus import INTERNAL_FLAGS, write_cli_corpus

pytestmark = pytest.mark.slow  # seconds per test (docs/development.md: the fast suite)

CASE_TIMEOUT = 120  # seconds per command; each takes under 10 s on the project's machine
GOOD = json.loads((REPO_ROOT / "tests" / "data" / "cli" / "current_scene.gltf").read_text(encoding="utf-8"))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="FIFOs, /proc: the corpus is made for Linux")
def test_every_command_line_case_ends_clearly(tmp_path):
    cases = write_cli_corpus(tmp_path, GOOD)
    for name, case in sorted(cases.items()):
        started = time.perf_counter()
        result = run_cli_subprocess(*case.argv, cwd=tmp_path / name, timeout=CASE_TIMEOUT)
        printed = result.stdout + result.stderr
        print(f"{name}: exit {result.returncode} in {time.perf_counter() - started:.1f} s")
        assert result.returncode == case.status, (name, printed)
        assert "Traceback" not in printed, (name, printed)
        assert not any(flag in printed for flag in INTERNAL_FLAGS), (name, printed)
        assert all(word in printed for word in case.words), (name, case.words, printed)
        assert case.check is None or case.check(tmp_path / name), name
