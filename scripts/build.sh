#!/usr/bin/env bash
# Build the extension zip into dist/ with Blender's own CLI, then validate it.
# First fetch the Python wheels the manifest lists (CoACD for each platform) into wheels/ (not committed).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
CLI=$(ls .venv/lib/python3.*/site-packages/bpy/*/scripts/addons_core/bl_pkg/cli/blender_ext.py | head -n1)

mkdir -p wheels
# One line per missing wheel: "distribution version platform-tag" (the last tag of a compressed set).
"$PY" - <<'PYEOF' | while read -r dist version platform; do
import tomllib
from pathlib import Path

for entry in tomllib.loads(Path("blender_manifest.toml").read_text()).get("wheels", []):
    path = Path(entry)
    if path.exists():
        continue
    dist, version, _python, _abi, platforms = path.name[: -len(".whl")].split("-")
    print(dist, version, platforms.split(".")[-1])
PYEOF
  echo "fetching $dist $version for $platform"
  "$PY" -m pip download --quiet "$dist==$version" --only-binary=:all: --no-deps \
    --python-version 3.11 --platform "$platform" -d wheels/
done

mkdir -p dist
"$PY" "$CLI" build --source-dir . --output-dir dist
ZIP=$(ls -t dist/omi_physics-*.zip | head -n1)
if ! "$PY" scripts/ci/zip_contents.py "$ZIP"; then
  rm -f "$ZIP"
  echo "refused: the zip held files that are not the add-on (above); exclude them in blender_manifest.toml" >&2
  exit 1
fi
"$PY" "$CLI" validate "$ZIP"
echo "built and validated: $ZIP"
