#!/usr/bin/env bash
# The whole test suite: ruff, mypy (the pure core strictly, its tests, then the whole add-on, without and
# with the bpy stubs of the oldest and newest Blender), the pure core's tests without bpy, then pytest on the
# bpy wheels of Blender 5.0.1, 4.2 LTS and 5.2 LTS.
# Sets the environments up first if needed (scripts/setup.sh). Extra arguments go to pytest.
#   OMI_SKIP_42=1   leave out the 4.2 LTS run
#   OMI_SKIP_52=1   leave out the 5.2 LTS run (skipped anyway, with a message, without Python 3.13)
#   OMI_52_NOT_SLOW=1  the 5.2 LTS run leaves out the slow tests (CI: the real-Blender job runs them in 5.2.2)
#   OMI_WORKERS=N  pytest processes per run (pytest-xdist, files shared out whole: --dist loadfile);
#                  default the machine's cores (nproc), 1 for a single process
# A failing pytest run does not stop the next; the script fails at the end, naming the runs that failed.
# The Godot and real-Blender jobs (scripts/godot.sh, scripts/real_blender.sh) are separate; .ci/run runs them
# beside this.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
echo "== environments ready: $SECONDS s"
.venv/bin/ruff check .
(cd io && ../.venv/bin/mypy --strict --cache-dir ../.mypy_cache -p omi)  # the pure core, typed strictly
# The tests, typed like the code: they import the core by one name, `omi_core` (tests/omi_core_loader.py), here a
# link to io/omi; each test folder is a base of its modules (they have no __init__.py). Run from that temporary
# folder: from the checkout, `import io` would find the add-on's io/. tests/unit strictly; tests/blender with
# every function body checked (bpy is Any here; the tests' PropertyGroup declarations are no types).
TESTS_TYPES=$(mktemp -d)
ln -s "$PWD/io/omi" "$TESTS_TYPES/omi_core"
test_bases() { find "$@" -mindepth 1 -name 'test_*.py' -printf ":$PWD/%h\n" | sort -u | tr -d '\n'; }
(cd "$TESTS_TYPES" && MYPYPATH="$TESTS_TYPES:$OLDPWD/tests:$OLDPWD/tests/unit$(cd "$OLDPWD" && test_bases tests/unit)" \
  "$OLDPWD/.venv/bin/mypy" --config-file "$OLDPWD/pyproject.toml" --cache-dir "$OLDPWD/.mypy_cache/tests" \
  --explicit-package-bases --strict --follow-imports=silent \
  "$OLDPWD/tests/present.py" "$OLDPWD/tests/omi_core_loader.py" $(find "$OLDPWD/tests/unit" -name '*.py' | sort))
(cd "$TESTS_TYPES" && MYPYPATH="$TESTS_TYPES:$OLDPWD/tests:$OLDPWD/tests/blender$(cd "$OLDPWD" && test_bases tests/blender)" \
  "$OLDPWD/.venv/bin/mypy" --config-file "$OLDPWD/pyproject.toml" --cache-dir "$OLDPWD/.mypy_cache/tests-blender" \
  --explicit-package-bases --follow-imports=silent --check-untyped-defs --disable-error-code=valid-type \
  $(find "$OLDPWD/tests/blender" -name '*.py' -not -path '*/toy_extension/*' | sort))
rm -rf "$TESTS_TYPES"
ADDON_ROOT=$(mktemp -d)  # the whole add-on, as the package Blender loads (its folder name is no module name)
ln -s "$PWD" "$ADDON_ROOT/omi_physics"
(cd "$ADDON_ROOT" && "$OLDPWD/.venv/bin/mypy" --config-file "$OLDPWD/pyproject.toml" \
  --cache-dir "$OLDPWD/.mypy_cache" -m omi_physics -p omi_physics.io -p omi_physics.properties \
  -p omi_physics.operators -p omi_physics.panels -p omi_physics.viewport)
# Again against the bpy API's stubs (fake-bpy-module) of the oldest and newest supported Blender: bpy,
# mathutils, bmesh and gpu are typed here; every file is checked, each ignore says why on its line.
for stubs in .venv-types-4.2 .venv-types-newest; do
  # 4.2's stubs type bpy_struct.get and the bpy.props factories as returning None (the newest's do not):
  # that check is left to the newest's run.
  NOT_42=$([ "$stubs" = .venv-types-4.2 ] && echo --disable-error-code=func-returns-value || true)
  echo "== mypy with the bpy stubs of $(grep -o '^fake-bpy-module[^ ]*' "requirements-types-${stubs#.venv-types-}.txt")"
  (cd "$ADDON_ROOT" && "$OLDPWD/$stubs/bin/mypy" --config-file "$OLDPWD/pyproject.toml" \
    --cache-dir "$OLDPWD/.mypy_cache/$stubs" --follow-imports=silent $NOT_42 \
    -m omi_physics -p omi_physics.io -p omi_physics.properties -p omi_physics.operators -p omi_physics.panels \
    -p omi_physics.viewport)
done
rm -rf "$ADDON_ROOT"
echo "== ruff and mypy done: $SECONDS s"

WORKERS=${OMI_WORKERS:-$(nproc)}
FAILED=()  # the pytest runs that failed: each run goes on to the next, the script fails at the end
run() {  # run LABEL VENV [pytest args]
  local label=$1 venv=$2 start=$SECONDS parallel=() status=0
  shift 2
  # Whole files per worker: a module's fixtures (the demo's run, the hostile corpus) are built once.
  [ "$WORKERS" -le 1 ] || parallel=(-n "$WORKERS" --dist loadfile)
  echo "== $label${parallel:+, $WORKERS workers}"
  "$venv/bin/python" -m pytest "${parallel[@]}" "$@" || status=$?
  echo "== $label: $((SECONDS - start)) s$([ "$status" = 0 ] || echo ", FAILED (pytest status $status)")"
  [ "$status" = 0 ] || FAILED+=("$label")
}

run "pure core without bpy ($(.venv-core/bin/python -V))" .venv-core tests/unit tests/test_layers.py "$@"
run "Blender 5.0.1 (bpy wheel, $(.venv/bin/python -V))" .venv "$@"
if [ -z "${OMI_SKIP_42:-}" ]; then
  run "Blender 4.2 LTS (bpy wheel)" .venv-4.2 "$@"
else
  echo "== Blender 4.2 LTS: skipped (OMI_SKIP_42 is set)"
fi
if [ -n "${OMI_SKIP_52:-}" ]; then
  echo "== Blender 5.2 LTS: skipped (OMI_SKIP_52 is set)"
elif [ -x .venv-5.2/bin/python ] && [ -n "${OMI_52_NOT_SLOW:-}" ]; then
  # CI: the real-Blender job runs the slow tests in Debian's Blender 5.2.2, the same Blender as this wheel
  run "Blender 5.2 LTS (bpy wheel, $(.venv-5.2/bin/python -V)), fast tests only (OMI_52_NOT_SLOW)" .venv-5.2 \
    -m "not slow" "$@"
elif [ -x .venv-5.2/bin/python ]; then
  run "Blender 5.2 LTS (bpy wheel, $(.venv-5.2/bin/python -V))" .venv-5.2 "$@"
else
  echo "== Blender 5.2 LTS: skipped (no Python 3.13 for the bpy 5.2 wheel; see scripts/setup.sh)"
fi
if [ "${#FAILED[@]}" -gt 0 ]; then
  printf '== failed: %s\n' "${FAILED[@]}"
  exit 1
fi
