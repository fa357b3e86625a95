"""The README and docs/ as a newcomer reads them: the README opens with the two commands that work on a fresh
machine, names the add-on as the manifest does, every relative link and anchor leads somewhere, no line runs
past 110 characters outside a table, and no section says the same thing in two bullets."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[3]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    return {_slug(line.lstrip("#")) for line in path.read_text(encoding="utf-8").splitlines()
            if line.startswith("#")}


def test_the_readme_opens_with_the_two_commands() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    first_block = re.search(r"```bash\n(.*?)```", text, re.S)
    assert first_block is not None and first_block.start() < text.index("\n## ")
    commands = [line.split("#")[0].strip() for line in first_block.group(1).splitlines()]
    assert commands == ["bash scripts/demo.sh", "bash scripts/test.sh"]


def test_one_name_for_the_add_on() -> None:
    manifest = tomllib.loads((ROOT / "blender_manifest.toml").read_text(encoding="utf-8"))
    assert (ROOT / "README.md").read_text(encoding="utf-8").splitlines()[0] == f"# {manifest['name']}"
    assert manifest["license"] == ["SPDX:GPL-3.0-or-later"]
    assert "GNU GENERAL PUBLIC LICENSE" in (ROOT / "LICENSE").read_text(encoding="utf-8")[:200]


@pytest.mark.parametrize("path", DOCS, ids=[path.name for path in DOCS])
def test_links_lead_somewhere(path: Any) -> None:
    broken = []
    for target in LINK.findall(path.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target):
            continue  # a web address
        name, _, anchor = target.partition("#")
        linked = (path.parent / name).resolve() if name else path
        if not linked.exists() or (anchor and linked.suffix == ".md" and anchor not in _anchors(linked)):
            broken.append(target)
    assert broken == []


@pytest.mark.parametrize("path", DOCS, ids=[path.name for path in DOCS])
def test_lines_fit(path: Any) -> None:
    long = [number for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
            if len(line) > 110 and not line.lstrip().startswith("|")]
    assert long == []


@pytest.mark.parametrize("path", DOCS, ids=[path.name for path in DOCS])
def test_no_section_says_a_thing_twice(path: Any) -> None:
    """Bullets of one section that start with the same subject (the words before their first ':' or '(')."""
    repeated = []
    for section in re.split(r"\n#+ ", path.read_text(encoding="utf-8")):
        subjects = [re.split(r"[:(]", line[2:], maxsplit=1)[0].strip().lower()
                    for line in section.splitlines() if line.startswith("- ")]
        repeated += sorted({subject for subject in subjects if subjects.count(subject) > 1})
    assert repeated == []
