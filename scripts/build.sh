#!/usr/bin/env bash
# Build the extension zip into dist/ with Blender's own CLI, then validate it.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
CLI=$(ls .venv/lib/python3.*/site-packages/bpy/*/scripts/addons_core/bl_pkg/cli/blender_ext.py | head -n1)
mkdir -p dist
"$PY" "$CLI" build --source-dir . --output-dir dist
ZIP=$(ls -t dist/omi_physics-*.zip | head -n1)
"$PY" "$CLI" validate "$ZIP"
echo "built and validated: $ZIP"
