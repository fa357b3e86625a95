#!/usr/bin/env bash
# Create (or refresh) the virtual environments the test matrix runs on:
#   .venv      bpy 5.0.1, Python 3.11 (also ruff, pytest-blender)   requirements.txt
#   .venv-4.2  bpy 4.2 LTS, Python 3.11                             requirements-blender42.txt
#   .venv-5.2  bpy 5.2 LTS, Python 3.13                             requirements-blender52.txt
#   .venv-core no bpy, Python 3.11 (the pure core's tests)           requirements-core.txt
#   .venv-types-4.2, .venv-types-newest  bpy stubs (fake-bpy-module) and mypy, no bpy: the whole add-on's
#              type check against the oldest and newest Blender's API   requirements-types-*.txt
# Idempotent: an environment is rebuilt only when its requirements file changed. `--demo` makes only what
# scripts/demo.sh needs (.venv and the second engine's npm packages); `--no-4.2`, or OMI_SKIP_42=1 /
# OMI_SKIP_52=1, leave an environment out. Without a Python 3.13 (`python3.13` on PATH,
# or one that pyenv has) .venv-5.2 is not made and the reason is printed; scripts/test.sh then skips it.
# In a fresh checkout the environments are made in OMI_VENV_CACHE (default ~/.cache/omi-physics/venvs,
# `off` for none) and linked, so a second clone on the same machine (every CI run) reuses them.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV_CACHE=${OMI_VENV_CACHE:-$HOME/.cache/omi-physics/venvs}
PYTHON=${PYTHON:-python3.11}
command -v "$PYTHON" >/dev/null || PYTHON=python3

make_env() {  # make_env DIR REQUIREMENTS PYTHON
  local dir=$1 req=$2 python=$3 stamp="$1/.requirements.sha"
  local want; want=$(sha256sum "$req" | cut -d' ' -f1)
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then return 0; fi
  if [ "$VENV_CACHE" != off ] && { [ ! -e "$dir" ] || [[ "$(readlink "$dir" 2>/dev/null)" == "$VENV_CACHE"/* ]]; }; then
    # A fresh clone (CI makes one per run): the environment lives in the cache, keyed by its requirements
    # and its Python, and the clone links to it; built once per machine, under a lock.
    local key; key="$dir-$(printf '%s %s' "$want" "$("$python" -VV)" | sha256sum | cut -c1-16)"
    mkdir -p "$VENV_CACHE"
    (flock 9; build_env "$VENV_CACHE/$key" "$req" "$python" "$want") 9>"$VENV_CACHE/$key.lock"
    ln -sfn "$VENV_CACHE/$key" "$dir"
    return 0
  fi
  build_env "$dir" "$req" "$python" "$want"
}

build_env() {  # build_env DIR REQUIREMENTS PYTHON SHA
  local dir=$1 req=$2 python=$3 want=$4 stamp="$1/.requirements.sha"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then return 0; fi
  echo "setting up $dir from $req with $("$python" --version 2>&1) ..."
  "$python" -m venv "$dir"
  "$dir/bin/python" -m pip install --quiet --upgrade pip >/dev/null
  "$dir/bin/python" -m pip install --quiet -r "$req"
  echo "$want" > "$stamp"
}

# A Python 3.13 interpreter: $PYTHON313, python3.13 on PATH, or pyenv's newest 3.13.x.
python313() {
  local candidate=${PYTHON313:-python3.13} version
  if "$candidate" -c 'import sys; assert sys.version_info[:2] == (3, 13)' 2>/dev/null; then
    command -v "$candidate"; return 0
  fi
  if command -v pyenv >/dev/null; then
    version=$(pyenv versions --bare 2>/dev/null | grep -E '^3\.13\.[0-9]+$' | sort -V | tail -n1)
    if [ -n "$version" ] && [ -x "$(pyenv root)/versions/$version/bin/python3.13" ]; then
      echo "$(pyenv root)/versions/$version/bin/python3.13"; return 0
    fi
  fi
  return 1
}

DEMO_ONLY= NO_42=${OMI_SKIP_42:-}
for option in "$@"; do
  case $option in
    --demo) DEMO_ONLY=1 ;;
    --no-4.2) NO_42=1 ;;
    *) echo "usage: setup.sh [--demo] [--no-4.2]" >&2; exit 2 ;;
  esac
done

make_env .venv requirements.txt "$PYTHON"
if [ -z "$DEMO_ONLY" ]; then
  make_env .venv-core requirements-core.txt "$PYTHON"
  make_env .venv-types-4.2 requirements-types-4.2.txt "$PYTHON"
  make_env .venv-types-newest requirements-types-newest.txt "$PYTHON"
fi
if [ -z "$DEMO_ONLY" ] && [ -z "$NO_42" ]; then
  make_env .venv-4.2 requirements-blender42.txt "$PYTHON"
fi
if [ -z "$DEMO_ONLY" ] && [ -z "${OMI_SKIP_52:-}" ]; then
  if PY313=$(python313); then
    make_env .venv-5.2 requirements-blender52.txt "$PY313"
  else
    echo "no Python 3.13 found (python3.13, \$PYTHON313 or pyenv): .venv-5.2 (bpy 5.2) not made; the 5.2 run is skipped"
  fi
fi
# The second physics engine (Rapier from npm) for tests/engine, when Node.js is present.
if command -v npm >/dev/null && ! cmp -s tests/engine/package-lock.json tests/engine/node_modules/.omi-lock; then npm ci --prefix tests/engine --no-audit --no-fund && cp tests/engine/package-lock.json tests/engine/node_modules/.omi-lock; fi
