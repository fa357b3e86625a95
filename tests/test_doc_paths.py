"""Every path a docstring or docs/ARCHITECTURE.md names exists, so the docs cannot keep describing modules
that moved or are gone. Read with `ast` and regular expressions (no bpy).

A path is a token that starts with one of the repo's folders (`io/omi/read/reader`), or with a package
folder inside it (`export/scene.py`, `tables/axes.joint_axes`), or a file name with one of the repo's
extensions (`gltf_compat.py`). It exists when the file or folder is there, from the repo root, from the
citing file's folder or at the end of any path in the repo; `name.attribute` after a module counts as the
module. Files of other projects that docstrings name on purpose are listed in OUTSIDE.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCE_FOLDERS = ("io", "properties", "operators", "panels", "viewport", "scripts", "tools", "benchmarks", "tests")
ROOTS = ("io", "scripts", "tools", "tests", "properties", "operators", "panels", "viewport", "benchmarks", "docs",
         ".ci", "omi", "blender", "export", "builder", "tables", "animation", "read", "write", "checks", "dialects",
         "cli", "units")
EXTENSIONS = ("py", "sh", "md", "toml")
PATH = re.compile(r"(?<![\w./-])((?:\.ci|[\w-]+)(?:/[\w.-]+)+/?|[\w-]+\.(?:" + "|".join(EXTENSIONS) + r"))(?![\w-])")
OUTSIDE = {  # files of other projects, named on purpose
    "gltf2_blender_extras.py": "io_scene_gltf2, Blender 4.2's name of its extras module",
    "gltf2_io_binary_data.py": "io_scene_gltf2, Blender 4.2",
    "extras.py": "io_scene_gltf2, newer Blenders",
    "binary_data.py": "io_scene_gltf2, newer Blenders",
    "blender_ext.py": "Blender's extension tool (bl_pkg)",
    "ERRATA.md": "the project's notes on the OMI spec, beside the spec copies",
    "DESIGN.md": "the project's shared design notes, outside the repo",
    "make_files.py": "the omi_physics engine's script that wrote tests/data/omi_physics",
    "io_scene_gltf2": "Blender's glTF add-on (its files named by their path inside it)",
}


def _ignored(path: Path) -> bool:
    return any(part.startswith(".") or part in ("node_modules", "__pycache__", "data")
               for part in path.relative_to(ROOT).parts)


REPO_PATHS = sorted(path.relative_to(ROOT).as_posix() for path in ROOT.rglob("*")
                    if not any(part in (".git", "node_modules", "__pycache__") or part.startswith(".venv")
                               for part in path.relative_to(ROOT).parts))
NAMES = {Path(path).name for path in REPO_PATHS}
SOURCES = sorted(path for path in ROOT.rglob("*.py") if not _ignored(path)
                 and (path.parent == ROOT or path.relative_to(ROOT).parts[0] in SOURCE_FOLDERS))


def is_path(token: str) -> bool:
    return token.endswith(tuple(f".{extension}" for extension in EXTENSIONS)) or \
        ("/" in token and token.split("/", 1)[0] in ROOTS)


def exists(token: str, citing: Path) -> bool:
    token = token.rstrip("/")
    if token.split("/", 1)[0] in OUTSIDE:
        return True
    if "/" not in token:
        return token in NAMES or token in OUTSIDE
    head, _dot, attribute = token.rpartition(".")
    candidates = [token, f"{token}.py"] + ([f"{head}.py", head] if head and "/" not in attribute else [])
    return any((ROOT / candidate).exists() or (citing.parent / candidate).exists()
               or any(path.endswith(f"/{candidate}") for path in REPO_PATHS) for candidate in candidates)


def cited_paths(text: str) -> list[str]:
    return [token.rstrip(".") for token in PATH.findall(text) if is_path(token.rstrip("."))]


def docstrings(path: Path) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            text = ast.get_docstring(node, clean=False)
            if text:
                found.append((node.body[0].lineno, text))
    return found


def test_the_rules_tell_paths_from_prose():
    assert cited_paths("written with `io/omi/write/writer`; min/max; 9.81 m/s; see export/scene.py.") == \
        ["io/omi/write/writer", "export/scene.py"]
    assert cited_paths("`fields.json_value`, a Spelling.shape_of, x.gltf") == []
    assert exists("io/omi/write/writer", ROOT / "io" / "omi" / "model.py")
    assert exists("tables/axes.joint_axes", ROOT / "io" / "blender" / "export" / "scene.py")
    assert not exists("io/omi/writer", ROOT / "io" / "omi" / "model.py")
    assert not exists("io/blender/export_physics.py", ROOT / "io" / "gltf_export.py")


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_path_a_docstring_names_exists(path):
    missing = [f"line {line}: {token}" for line, text in docstrings(path) for token in cited_paths(text)
               if not exists(token, path)]
    assert missing == []


def test_every_path_the_architecture_page_names_exists():
    page = ROOT / "docs" / "ARCHITECTURE.md"
    cited = cited_paths(page.read_text(encoding="utf-8"))
    assert len(cited) > 20
    assert [token for token in cited if not exists(token, page)] == []
