"""What the extension zip may hold: the add-on's Python, its manifest and licence, the schemas it carries,
the wheels.

scripts/build.sh runs this on the zip Blender's `blender_ext.py build` made and deletes the zip when anything
else is in it (a demo's output, pictures, caches), so that a stray file is a failed build rather than a
bigger download. The manifest's `paths_exclude_pattern` names what goes in; this list is the check.

    python scripts/ci/zip_contents.py dist/omi_physics-0.1.0.zip    # exit 1 and one line per stray entry
"""

from __future__ import annotations

import re
import sys
import zipfile
from pathlib import Path

ALLOWED = (
    r"blender_manifest\.toml",
    r"LICENSE",
    r"__init__\.py",
    r"(io|operators|panels|properties|viewport)/([\w]+/)*[\w]+\.py",
    r"io/omi/schemas/([\w.-]+/)*[\w.-]+\.(json|md|txt)",
    r"wheels/[\w.-]+\.whl",
)
_ALLOWED = re.compile("|".join(f"(?:{pattern})" for pattern in ALLOWED))


def strays(zip_path: str | Path) -> list[str]:
    """The entries of the zip that are not part of the add-on (folders themselves are not entries)."""
    with zipfile.ZipFile(zip_path) as archive:
        return [name for name in archive.namelist() if not name.endswith("/") and not _ALLOWED.fullmatch(name)]


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: zip_contents.py ZIP", file=sys.stderr)
        return 2
    found = strays(argv[0])
    for name in found:
        print(f"{argv[0]}: not part of the add-on: {name}", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
