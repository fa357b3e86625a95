"""Run every benchmark in this folder, one after the other, each in a process of its own.

Each prints its own table of ratios measured in the same run (the add-on's work against Blender's own
work on the same scene) and its peak memory; nothing is asserted. Takes a few minutes (longer on a busy
machine); `--scale` adds the import of 100,000 bodies (a few more minutes).

Run: .venv/bin/python benchmarks/run_all.py [--scale]   (or .venv-4.2/bin/python, .venv-5.2/bin/python)
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
BENCHMARKS = ("authoring_benchmark.py", "reader_benchmark.py", "export_benchmark.py", "import_benchmark.py",
              "import_ratio.py", "live_link_benchmark.py")


def main(arguments: list[str]) -> int:
    failed = []
    for script in BENCHMARKS:
        extra = ["--scale"] if script == "import_benchmark.py" and "--scale" in arguments else []
        print(f"\n=== {script} {' '.join(extra)}", flush=True)
        start = time.perf_counter()
        completed = subprocess.run([sys.executable, str(HERE / script), *extra], check=False)
        print(f"=== {script}: {time.perf_counter() - start:.0f} s, exit {completed.returncode}", flush=True)
        if completed.returncode:
            failed.append(script)
    if failed:
        print(f"failed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
