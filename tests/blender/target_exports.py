"""Every export target's files, captured for a byte comparison before and after a refactoring of the export.

The reference exports (reference_exports.py, tests/blender/scenarios/test_reference_exports.py) keep the
default target's files; this tool exports the same scenes (the demo, the .blend round trip's settings, the
Blender constraints, every spec example), the vehicle and KHR examples and the animated scene (LINEAR and
BEZIER keys) for every registered target, and keeps each .gltf, its accessors' digests and the export's log
lines. Capture with two checkouts (the other one from `git archive` of the commit to compare with, this file
copied into its tests/blender/ if it has none) and compare:

    .venv/bin/python tests/blender/target_exports.py capture OUT_DIR [NAME_PART]   (in each checkout)
    python3 tests/blender/target_exports.py compare OLD_DIR NEW_DIR
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from pathlib import Path

TESTS_DIR = Path(__file__).resolve().parent.parent


def _scenes() -> dict[str, Callable[[], None]]:
    import animation_support
    import bpy
    import import_support
    import reference_exports

    scenes = reference_exports.scenes()
    for folder in ("omi_vehicles", "khr-spec"):
        for path in sorted((TESTS_DIR / "data" / folder).rglob("*.gltf")):
            def build(path: Path = path) -> None:
                bpy.ops.wm.read_homefile(use_empty=True)
                import_support.import_gltf(path)
            scenes[f"{folder}__{str(path.relative_to(TESTS_DIR / 'data' / folder)).replace('/', '__')}"] = build
    for interpolation in ('LINEAR', 'BEZIER'):
        def animated(interpolation: str = interpolation) -> None:
            bpy.ops.wm.read_homefile(use_empty=True)
            animation_support.animated_scene()
            animation_support.set_interpolation(interpolation)
        scenes[f"animated_{interpolation.lower()}"] = animated
    return scenes


def capture(out: Path, part: str = "") -> None:
    """Export every scene whose name holds `part` for every registered target into `out`/<target>/."""
    import addon_loader
    import bpy
    import export_support
    import reference_exports

    registry = addon_loader.module("io.omi.dialects.registry")
    summary: dict[str, dict] = {}
    for target in registry.targets():
        folder = out / target.name
        folder.mkdir(parents=True, exist_ok=True)
        for name, build in _scenes().items():
            if part not in name:
                continue
            try:
                build()
                bpy.context.scene.omi_physics.export_dialect = target.name
                exported = export_support.export(folder, name, 'GLTF_SEPARATE', check=False, failures_expected=True)
                summary[f"{target.name}/{name}"] = {
                    "messages": [text for text in exported.messages if not text.startswith("Finished glTF")],
                    "digests": reference_exports.accessor_digests(exported)}
                for written in folder.glob(f"{name}*.bin"):
                    written.unlink()
            except Exception as error:  # a failed scene is a difference too
                summary[f"{target.name}/{name}"] = {"error": repr(error)}
    (out / "summary.json").write_text(json.dumps(summary, indent=1, sort_keys=True))
    print(f"captured {len(summary)} exports into {out}")


def compare(old: Path, new: Path) -> int:
    """The exports whose .gltf text, accessor data, log lines or failure differ; 1 when any does."""
    before, after = (json.loads((folder / "summary.json").read_text()) for folder in (old, new))
    differences = []
    for key in sorted(set(before) | set(after)):
        texts = [(folder / f"{key}.gltf").read_text() if (folder / f"{key}.gltf").is_file() else None
                 for folder in (old, new)]
        what = [field for field in ("messages", "digests", "error")
                if before.get(key, {}).get(field) != after.get(key, {}).get(field)]
        if key not in before or key not in after or texts[0] != texts[1] or what:
            differences.append(f"{key}: {', '.join(what + (['gltf'] if texts[0] != texts[1] else []))}")
    failed = [key for key, entry in after.items() if "error" in entry]
    print(f"{len(after)} exports compared: {len(differences)} differ, {len(failed)} failed in both or either")
    print("\n".join(differences[:50]))
    return 1 if differences else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["compare"]:
        sys.exit(compare(Path(sys.argv[2]), Path(sys.argv[3])))
    sys.path[:0] = [str(TESTS_DIR), str(TESTS_DIR / "blender"), str(TESTS_DIR.parent / "scripts"),
                    str(TESTS_DIR.parent / "scripts" / "demo"),  # the demo scene
                    *(str(path) for path in (TESTS_DIR / "blender").iterdir() if path.is_dir())]
    import addon_loader
    import omi_core_loader

    addon_loader.enable()
    omi_core_loader.install()  # the support modules import the add-on's core as `omi_core`
    capture(Path(sys.argv[2]), sys.argv[3] if len(sys.argv) > 3 else "")
    sys.stdout.flush()
    os._exit(0)
