"""Smoke test of the installed zip, run inside a Blender executable after
`blender --command extension install-file -r user_default -e dist/omi_physics-*.zip`:

    blender --background --python-exit-code 1 --python scripts/ci/smoke_installed.py -- [--out DIR]

1. the add-on comes from an installed extension repository (a copy, not a link to this checkout), and
   Blender enabled it at startup from the saved preferences, as it does for an artist;
2. every module of the add-on's packages in the checkout, and the manifest, are in the installed copy,
   and every installed module imports: a file the build left out of the zip fails here;
3. the demo's pipeline on the installed copy (scripts/demo/demo.py without the render): author a scene with
   the add-on's operators, export .glb and .gltf, check both files, import the .glb into a fresh scene,
   simulate and check that the bodies move as the physics says;
4. the command line from the installed copy, through Blender's own: `blender --command omi_physics validate`
   of the demo's .glb and of a broken file (the exit status and the summary line of each).

Exit status 0 when all passed, 1 otherwise (the reason is printed).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import pkgutil
import subprocess
import sys
import tempfile
from pathlib import Path

import bpy

SCRIPTS_DIR = Path(__file__).resolve().parent
sys.path.insert(0, str(SCRIPTS_DIR))
sys.path.insert(0, str(SCRIPTS_DIR.parent / "demo"))  # the demo's pipeline, run on the installed copy
sys.path.insert(0, str(SCRIPTS_DIR.parents[1] / "tests"))  # addon_loader

import addon_loader  # noqa: E402

CHECKOUT = addon_loader.REPO_ROOT


class SmokeTestError(Exception):
    pass


def shipped_files(checkout: Path) -> set[str]:
    """What the add-on is made of, found without the build's rules (which are what this checks): the root's
    `__init__.py`, manifest and licence, every module of the top-level packages (folders with an `__init__.py`), and
    the schemas it carries."""
    found = {"__init__.py", "blender_manifest.toml", "LICENSE"}
    for package in sorted(path.parent for path in checkout.glob("*/__init__.py")):
        found.update(path.relative_to(checkout).as_posix() for path in package.rglob("*.py")
                     if "__pycache__" not in path.parts)
    schemas = checkout / "io" / "omi" / "schemas"  # the JSON schemas the add-on carries, with their licences
    found.update(path.relative_to(checkout).as_posix() for path in schemas.rglob("*") if path.is_file())
    return found


def installed_folder() -> Path:
    repo_module = addon_loader.installed_repository()
    if repo_module is None:
        raise SmokeTestError("the add-on is not installed in any extension repository of this Blender")
    repo = next(repo for repo in bpy.context.preferences.extensions.repos if repo.module == repo_module)
    folder = Path(repo.directory) / addon_loader.ADDON_ID
    if folder.is_symlink() or folder.resolve() == CHECKOUT:
        raise SmokeTestError(f"{folder} is the checkout itself, not an installed copy")
    return folder


def check_files(folder: Path) -> None:
    missing = sorted(shipped_files(CHECKOUT) - {path.relative_to(folder).as_posix() for path in folder.rglob("*")})
    if missing:
        raise SmokeTestError(f"{len(missing)} add-on file(s) missing from the installed zip: {', '.join(missing)}")


def check_enabled_and_importable() -> int:
    if addon_loader.ADDON_MODULE not in bpy.context.preferences.addons:
        raise SmokeTestError(f"{addon_loader.ADDON_MODULE} is installed but Blender did not enable it at startup")
    package = importlib.import_module(addon_loader.ADDON_MODULE)
    names = [info.name for info in pkgutil.walk_packages(package.__path__, prefix=f"{package.__name__}.")]
    for name in names:
        importlib.import_module(name)
    return len(names)


def check_command(out: Path) -> None:
    """`blender --command omi_physics validate` in a new Blender with this one's user folders (the installed
    zip, enabled from the saved preferences): exit 0 on the demo's .glb, 1 on a file with a negative size."""
    broken = out / "negative_size.gltf"
    broken.write_text(json.dumps({
        "asset": {"version": "2.0"}, "extensionsUsed": ["OMI_physics_shape", "OMI_physics_body"],
        "extensions": {"OMI_physics_shape": {"shapes": [{"type": "box", "box": {"size": [1, -2, 3]}}]}},
        "nodes": [{"name": "Crate", "extensions": {"OMI_physics_body": {"collider": {"shape": 0}}}}],
        "scenes": [{"nodes": [0]}]}), encoding="utf-8")
    for file, status, summary in ((out / "demo.glb", 0, "1 file, 0 errors, 0 warnings"),
                                  (broken, 1, "1 file, 1 error, 0 warnings")):
        command = [bpy.app.binary_path, "--quiet", "--command", "omi_physics", "validate", str(file)]
        run = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False, env=os.environ)
        said = run.stdout.strip().splitlines()
        if run.returncode != status or not said or said[-1] != summary:
            raise SmokeTestError(f"{' '.join(command[1:])}: exit status {run.returncode} (wanted {status}), "
                                 f"last line {said[-1] if said else '(none)'!r} (wanted {summary!r}); "
                                 f"stderr: {run.stderr.strip()[-500:]}")
        print(f"OMI smoke: blender --command omi_physics validate {file.name}: exit {status}, {summary}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, help="output folder (default: a temporary folder)")
    args = parser.parse_args(argv)
    out = args.out or Path(tempfile.mkdtemp(prefix="omi_smoke_"))
    try:
        folder = installed_folder()
        check_files(folder)
        modules = check_enabled_and_importable()
        print(f"OMI smoke: {addon_loader.ADDON_MODULE} enabled from {folder}; "
              f"{len(shipped_files(CHECKOUT))} files present, {modules} modules import")
        import demo  # noqa: PLC0415 - after the checks: demo enables the add-on through addon_loader

        addon_loader.enable()  # enabled already (checked above): returns the installed copy
        result = demo.run(out.resolve(), render=False)
        print(result.summary.read_text(encoding="utf-8"))
        if addon_loader.location() != f"{addon_loader.ADDON_MODULE} (an installed extension) from {folder.resolve()}":
            raise SmokeTestError(f"the demo ran on {addon_loader.location()}, not on the installed copy")
        if not result.passed:
            raise SmokeTestError("a check of the demo failed (see the summary above)")
        check_command(out.resolve())
    except SmokeTestError as failure:
        print(f"OMI smoke: FAILED: {failure}", file=sys.stderr)
        return 1
    print(f"OMI smoke: passed on Blender {bpy.app.version_string} with the installed zip; outputs in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []))
