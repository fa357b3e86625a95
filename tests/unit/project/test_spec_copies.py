"""The tests' copies of the spec folders (tests/data/omi-spec, tests/data/khr-spec) are the project's originals
in ../shared byte for byte, less the notes the project wrote there; the only tests that need ../shared."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from omi_core_loader import KHR_DIR, ORIGINALS, SPEC_DIR

OURS_NOT_THE_SPECS = {"omi-spec": {"ERRATA.md"}, "khr-spec": {"NOTES.md"}}


def _files(folder: Path) -> set[str]:
    return {str(path.relative_to(folder)) for path in folder.rglob("*") if path.is_file()}


@pytest.mark.parametrize("copy_dir", [SPEC_DIR, KHR_DIR], ids=["omi-spec", "khr-spec"])
def test_the_copy_is_the_original(copy_dir: Any) -> None:
    original = ORIGINALS / copy_dir.name
    if not original.is_dir():
        pytest.skip("needs ../shared, the originals of tests/data's spec copies (the project's folder)")
    names = _files(copy_dir)
    assert names == _files(original) - OURS_NOT_THE_SPECS[copy_dir.name]
    assert [name for name in sorted(names) if (copy_dir / name).read_bytes() != (original / name).read_bytes()] == []


def test_each_copy_carries_its_licence() -> None:
    assert (SPEC_DIR / "LICENSE-W3C-spec.md").is_file() and (KHR_DIR / "LICENSE-KhronosSpecCopyright.txt").is_file()
