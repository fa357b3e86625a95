"""scripts/setup.sh makes what it is asked for: `--demo` (what scripts/demo.sh passes) only the one environment
the demo runs in, and no option every environment of the test matrix. Run in a copy of the checkout with a
stand-in Python and npm on PATH that record what they are asked to make, so nothing is downloaded."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
STAND_IN = """#!/bin/sh
# A Python that makes empty environments: `-m venv DIR` copies itself into DIR/bin; pip installs nothing.
case "$1" in
  -VV|--version) echo "Python 3.11.0 (stand-in)" ;;
  -m) if [ "$2" = venv ]; then mkdir -p "$3/bin" && cp "$0" "$3/bin/python" && echo "$3" >>"$LOG"; fi ;;
  *) exit 1 ;;
esac
"""
NPM = """#!/bin/sh
# npm ci --prefix DIR ...: records the call and leaves an empty node_modules
echo npm >>"$LOG"; mkdir -p "$3/node_modules"
"""
ALL = {".venv", ".venv-core", ".venv-types-4.2", ".venv-types-newest", ".venv-4.2"}


def _setup(tmp_path: Path, *options: str) -> tuple[set[str], str]:
    checkout = tmp_path / "checkout"
    (checkout / "scripts").mkdir(parents=True)
    (checkout / "tests" / "engine").mkdir(parents=True)
    shutil.copy(ROOT / "scripts" / "setup.sh", checkout / "scripts")
    for requirements in ROOT.glob("requirements*.txt"):
        shutil.copy(requirements, checkout)
    shutil.copy(ROOT / "tests" / "engine" / "package-lock.json", checkout / "tests" / "engine")
    tools = tmp_path / "bin"
    tools.mkdir()
    for name, text in (("python3.11", STAND_IN), ("npm", NPM), ("python3.13", "#!/bin/sh\nexit 1\n")):
        (tools / name).write_text(text)
        (tools / name).chmod(0o755)
    log = tmp_path / "made.log"
    log.touch()
    env = {"PATH": f"{tools}:/usr/bin:/bin", "HOME": str(tmp_path), "LOG": str(log), "OMI_VENV_CACHE": "off"}
    done = subprocess.run(["bash", "scripts/setup.sh", *options], cwd=checkout, env=env, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    made = {Path(line).name for line in log.read_text().splitlines() if line != "npm"}
    return made, log.read_text() + done.stdout


@pytest.mark.skipif(os.name != "posix" or shutil.which("bash") is None, reason="setup.sh is a bash script")
def test_the_demo_gets_one_environment_the_tests_all(tmp_path: Path) -> None:
    assert "bash scripts/setup.sh --demo" in (ROOT / "scripts" / "demo.sh").read_text()
    made, output = _setup(tmp_path / "demo", "--demo")
    assert made == {".venv"} and "npm" in output
    made, output = _setup(tmp_path / "all")
    assert made == ALL and "npm" in output
    assert ".venv-5.2 (bpy 5.2) not made" in output  # no Python 3.13 here: said, and the tests skip that run
