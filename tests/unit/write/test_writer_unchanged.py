"""Reading and writing are unchanged since 364b6cf (before the dialect tables): every spec example, every
project fixture file and 400 stored random OMI-shaped documents give byte-for-byte the same written JSON
and the same issues (in any order) as then (tests/unit/writer_corpus.py made the corpus from that commit).
One message was reworded in the corpus since: a joint node with no body ancestor holds to the world.
Since the unknown keys are kept (issue 13), the corpus holds the outputs with the kept keys written back and
the reader's "kept" findings; a one-off check then found every changed entry's canonical physics equal to the
recorded one and every new or reworded issue to be of that kind (kept, not kept, or NaN dropped)."""

from __future__ import annotations

import gzip
import json
from typing import Any

import pytest
import writer_corpus
from omi_core.read import reader
from omi_core.write import writer

with gzip.open(writer_corpus.FIXTURE, "rt", encoding="utf-8") as _stream:
    CORPUS = json.load(_stream)


@pytest.fixture(scope="module")
def files() -> dict[str, Any]:
    return dict(writer_corpus.file_inputs())


@pytest.mark.parametrize("name", sorted(CORPUS["files"]))
def test_file_written_as_before(name: Any, files: dict[str, Any]) -> None:
    assert name in files, f"{name} is missing from the corpus' inputs (tests/data/omi-spec)"
    assert _same(writer_corpus.record(reader, writer, files[name])) == _same(CORPUS["files"][name])


def test_random_documents_written_as_before() -> None:
    changed = [position for position, entry in enumerate(CORPUS["random"])
               if _same(writer_corpus.record(reader, writer, entry["input"])) != _same(entry)]
    assert changed == []


def _same(record: dict[str, Any]) -> tuple[Any, ...]:
    """The output text exactly; the issues as a multiset (reading follows the tables' key order now).

    Messages quote keys with repr(), which escapes the characters the running Python's Unicode tables call
    unprintable: 3.13 prints some that 3.11 (which made the corpus) escaped, so both sides are compared
    with every non-ASCII character escaped."""
    return record["output"], sorted((pointer, _ascii(message), severity)
                                    for pointer, message, severity in record["issues"])


def _ascii(text: str) -> str:
    return text.encode("ascii", "backslashreplace").decode("ascii")
