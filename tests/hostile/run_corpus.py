"""Run the hostile corpus through the command-line tool in one Blender process: for each file `import`
(Blender in this process), `export` of the .blend it wrote, and `validate` of the export; one JSON line per
file on stdout. Started by tests/blender/scenarios/test_hostile_files.py in a child process, so that a crash ends
that process, not the test session, and the last "start" line names the file that did it.

    python tests/hostile/run_corpus.py CORPUS_DIR OUT_DIR
"""

from __future__ import annotations

import contextlib
import io
import json
import sys
import time
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
sys.path.insert(0, str(SCRIPTS))

import omi_physics_cli  # noqa: E402


def run(*args: object) -> tuple[int, str, float]:
    """(exit status, everything printed, seconds) of one command, in this process."""
    printed = io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
        try:
            status = omi_physics_cli.main([str(arg) for arg in args])
        except SystemExit as stop:
            status = stop.code if isinstance(stop.code, int) else 2
    return status, printed.getvalue(), time.perf_counter() - start


def main(corpus: Path, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for source in sorted(corpus.glob("*.gl*")):
        print(json.dumps({"start": source.name}), flush=True)
        blend, exported = out / f"{source.stem}.blend", out / f"{source.stem}.glb"
        record: dict[str, object] = {"file": source.name}
        record["import"] = run("import", source, "--out", blend, "--in-process", "--verbose")
        if blend.exists():
            record["export"] = run("export", blend, "--out", exported, "--in-process")
        if exported.exists():
            record["validate"] = run("validate", exported, "--json", "--no-progress")
            data = exported.read_bytes()  # a GLB: its JSON chunk follows the 12-byte header and 8-byte chunk header
            record["exported_json"] = data[20:20 + int.from_bytes(data[12:16], "little")].decode("utf-8")
        print(json.dumps(record), flush=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
    sys.stdout.flush()
    import os

    os._exit(0)  # bpy 4.2 may crash at interpreter exit after a glTF export
