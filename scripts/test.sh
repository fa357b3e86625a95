#!/usr/bin/env bash
# The whole test suite: ruff, then pytest on Blender 5.0.1 and on Blender 4.2 LTS.
# Sets the environments up first if needed. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/ruff check .
(cd io && ../.venv/bin/mypy --strict --cache-dir ../.mypy_cache -p omi)  # the pure core, typed strictly
echo "== Blender 5.0.1"
.venv/bin/python -m pytest "$@"
if [ -z "${OMI_SKIP_42:-}" ]; then
  echo "== Blender 4.2 LTS"
  .venv-4.2/bin/python -m pytest "$@"
fi
