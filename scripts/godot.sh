#!/usr/bin/env bash
# The Godot job: tests/godot on the bpy wheel, with Debian sid's Godot 4 (package `godot`) run headless
# inside the same debootstrap root as the real-Blender job (scripts/real_blender.sh makes or updates it,
# with godot in its package list). Godot loads the exported files with its own glTF importer, and runs its
# physics; the tests compare both with the Blender scene. The omi-godot tests add the OMI group's Godot
# add-on from ../shared/omi-godot (tests/godot/omi_godot.py).
#
# Needs root (debootstrap, chroot, mounts). OMI_SKIP_GODOT=1 skips the job; so does a machine without root,
# with a message. OMI_BLENDER_ROOT moves the root. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=${OMI_BLENDER_ROOT:-$HOME/.cache/omi-physics/blender-sid}
skip() { echo "== Godot: skipped ($1)"; exit 0; }
[ -z "${OMI_SKIP_GODOT:-}" ] || skip "OMI_SKIP_GODOT is set"
[ "$(id -u)" = 0 ] || skip "needs root for debootstrap, chroot and mounts"

OMI_ROOT_ONLY=1 bash scripts/real_blender.sh  # the root, with blender and godot installed

MOUNTED=()
cleanup() {
  local index
  for ((index = ${#MOUNTED[@]} - 1; index >= 0; index--)); do umount -l "${MOUNTED[index]}" || true; done
}
trap cleanup EXIT
mount_once() {  # mount_once TARGET MOUNT-ARGS...
  local target=$1; shift
  mkdir -p "$target"
  if ! mountpoint -q "$target"; then mount "$@" "$target"; MOUNTED+=("$target"); fi
}
mount_once "$ROOT/proc" -t proc proc
mount_once "$ROOT/dev" --rbind /dev

echo "== Godot: $(chroot "$ROOT" /usr/bin/env -i PATH=/usr/bin:/bin godot --headless --version 2>/dev/null | tail -n 1)"
[ -x .venv/bin/python ] || OMI_SKIP_52=1 bash scripts/setup.sh --no-4.2
[ -d ../shared/omi-godot/addons/omi_extensions ] ||
  echo "== Godot: the omi-godot tests skip (../shared/omi-godot, the OMI group's Godot add-on, is absent)"
OMI_GODOT_ROOT=$ROOT .venv/bin/python -m pytest tests/godot "$@"
