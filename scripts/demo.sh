#!/usr/bin/env bash
# Set up what the demo needs (one environment: .venv with the bpy 5.0.1 wheel; Rapier from npm when Node.js is
# here), build and validate the extension zip, then run the demo scene. scripts/test.sh sets up the rest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --demo
bash scripts/build.sh
.venv/bin/python scripts/demo/demo.py "$@"
