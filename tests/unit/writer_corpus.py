"""The corpus behind test_writer_unchanged: inputs, and what reader + writer made of them at 364b6cf.

`python tests/unit/writer_corpus.py OUT.json.gz [CORE_DIR]` records, for every spec example (current and
legacy), every project fixture file and a few hundred random OMI-shaped documents (drawn once from the
property tests' strategies and stored, so the test does not depend on Hypothesis drawing the same again),
the exact text `json.dumps(write_document(read_document(gltf), gltf))` and the issues of reading it.
Run it against a checkout of the commit to compare with (CORE_DIR: its io/omi).
"""

from __future__ import annotations

import gzip
import importlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

from omi_core_loader import load_package

TESTS = Path(__file__).resolve().parent.parent
SPEC_DIR = TESTS / "data" / "omi-spec"
FIXTURE = Path(__file__).resolve().parent / "data" / "writer_before.json.gz"


def text(value: Any) -> str:
    return json.dumps(value, allow_nan=True, ensure_ascii=False)


def record(reader: ModuleType, writer: ModuleType, gltf: Any) -> dict[str, Any]:
    doc = reader.read_document(gltf)
    written = writer.write_document(doc, gltf if isinstance(gltf, dict) else {})
    return {"output": text(written), "issues": [[i.pointer, i.message, i.severity] for i in doc.issues]}


def file_inputs() -> Iterator[tuple[str, Any]]:
    paths = sorted(SPEC_DIR.glob("**/examples/**/*.gltf")) + sorted(
        path for path in (TESTS / "data").glob("**/*.gltf") if SPEC_DIR not in path.parents)
    for path in paths:
        name = str(path.relative_to(SPEC_DIR if SPEC_DIR in path.parents else TESTS))
        yield name, json.loads(path.read_text(encoding="utf-8"))


def random_inputs(count: int) -> list[Any]:
    sys.path[:0] = [str(TESTS), str(TESTS / "unit")]
    import property_inputs as strategies

    drawn = []
    for _ in range(count):
        drawn.append(strategies.omi_documents().example())
    value: list[Any] = json.loads(text(drawn))  # what JSON can hold (tuples become lists)
    return value


def main(out: Path, core_dir: Path) -> None:
    load_package(core_dir, "omi_before")
    reader = importlib.import_module("omi_before.reader")
    writer = importlib.import_module("omi_before.writer")
    files = {name: record(reader, writer, gltf) for name, gltf in file_inputs()}
    randoms = [{"input": gltf, **record(reader, writer, gltf)} for gltf in random_inputs(400)]
    with gzip.open(out, "wt", encoding="utf-8") as stream:
        json.dump({"files": files, "random": randoms}, stream, allow_nan=True)


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]) if len(sys.argv) > 2 else TESTS.parent / "io" / "omi")
