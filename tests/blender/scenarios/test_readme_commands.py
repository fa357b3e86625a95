"""The README's command-line section is what this test runs: each line of its bash block, as written, in a
folder holding files of the names it uses (the project's test files), each exiting 0 with its output
written. `import` and `export` add `--in-process` (Blender in this test's process, as test_cli_blender.py
does; test_cli_smoke.py runs the crash guard's child)."""

from __future__ import annotations

import re
import shlex
import shutil

import schema_check
from cli_support import REPO_ROOT, run_cli

DATA = REPO_ROOT / "tests" / "data" / "cli"
FRONT = [".venv/bin/python", "scripts/omi_physics_cli.py"]


def readme_commands() -> list[list[str]]:
    """The tool's command lines in the README's command-line section, comments removed."""
    text = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## Command line"):]
    section = section[:section.index("\n## ", 4)]
    block = re.search(r"```bash\n(.*?)```", section, re.S)
    assert block is not None
    commands = []
    for line in block.group(1).splitlines():
        words = shlex.split(line, comments=True)
        assert words[:2] == FRONT, line
        commands.append(words[2:])
    return commands


def test_the_readme_commands_run(tmp_path, monkeypatch, omi_addon):
    (tmp_path / "assets" / "props").mkdir(parents=True)
    shutil.copy(DATA / "current_scene.gltf", tmp_path / "assets" / "scene.gltf")
    shutil.copy(DATA / "legacy_collider.gltf", tmp_path / "assets" / "props" / "crate.gltf")
    shutil.copy(DATA / "legacy_body_type.glb", tmp_path / "level.glb")
    shutil.copy(DATA / "current_scene.gltf", tmp_path / "a.gltf")
    shutil.copy(DATA / "legacy_collider.gltf", tmp_path / "old.gltf")
    shutil.copy(DATA / "current_scene.gltf", tmp_path / "-odd-name.gltf")
    monkeypatch.chdir(tmp_path)
    commands = readme_commands()
    assert {words[0] for words in commands} == {"validate", "upgrade", "convert", "import", "export"}
    for words in commands:
        extra = ["--in-process"] if words[0] in ("import", "export") else []
        result = run_cli(*words, *extra)
        assert result.returncode == 0, f"{shlex.join(words)}\n{result.stdout}{result.stderr}"
        if "--out" in words:
            assert (tmp_path / words[words.index("--out") + 1]).is_file(), shlex.join(words)
    assert schema_check.omi_schema_errors(schema_check.load_gltf(tmp_path / "new.gltf")) == []
    assert "KHR_physics_rigid_bodies" in schema_check.load_gltf(tmp_path / "khr" / "b.gltf")["extensionsUsed"]
    assert "KHR_physics_rigid_bodies" in schema_check.load_gltf(tmp_path / "out" / "level_khr.glb")["extensionsUsed"]
