#!/usr/bin/env bash
# Create (or refresh) the virtual environments: .venv with bpy 5.0.1 and .venv-4.2 with bpy 4.2 LTS.
# Idempotent: an environment is rebuilt only when its requirements file changed.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3.11}
command -v "$PYTHON" >/dev/null || PYTHON=python3

make_env() {  # make_env DIR REQUIREMENTS
  local dir=$1 req=$2 stamp="$1/.requirements.sha"
  local want; want=$(sha256sum "$req" | cut -d' ' -f1)
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then return 0; fi
  echo "setting up $dir from $req ..."
  "$PYTHON" -m venv "$dir"
  "$dir/bin/python" -m pip install --quiet --upgrade pip >/dev/null
  "$dir/bin/python" -m pip install --quiet -r "$req"
  echo "$want" > "$stamp"
}

make_env .venv requirements.txt
if [ "${1:-}" != "--no-4.2" ]; then make_env .venv-4.2 requirements-blender42.txt; fi
