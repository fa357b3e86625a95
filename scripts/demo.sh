#!/usr/bin/env bash
# Set everything up, build and validate the extension zip, then run the demo scene.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
.venv/bin/python scripts/demo.py "$@"
