#!/usr/bin/env bash
# The joint pivot gizmo dragged in a real Blender window under Xvfb (scripts/screenshots/joint_gizmo_check.py): the
# bpy wheels have no window, so only here does a press on the ring run the operator.
#
#   bash scripts/joint_gizmo_check.sh
#
# Blender, Xvfb and xdotool come from $OMI_BLENDER_ROOT, the Debian sid folder scripts/real_blender.sh sets
# up (default ~/.cache/omi-physics/blender-sid), entered with chroot as root, the checkout bind-mounted at
# the same path inside; OMI_BLENDER_ROOT=/ uses the host's own. Exit 0 when the check passes.
set -euo pipefail
REPO="$(cd "$(dirname "$0")/.." && pwd)"
ROOT="${OMI_BLENDER_ROOT:-$HOME/.cache/omi-physics/blender-sid}"
RUN=(env OMI_TEST_ADDON=checkout xvfb-run -a -s "-screen 0 1600x1200x24"
     blender --factory-startup --python "$REPO/scripts/screenshots/joint_gizmo_check.py")

if [ "$ROOT" = "/" ]; then
    exec "${RUN[@]}"
fi
[ -x "$ROOT/usr/bin/blender" ] || { echo "no Blender in $ROOT (see ../shared/REAL_BLENDER.md)" >&2; exit 2; }
inside="$ROOT$REPO"
mounted=""
cleanup() { [ -z "$mounted" ] || umount "$mounted" || true; }
trap cleanup EXIT
if ! mountpoint -q "$inside"; then
    mkdir -p "$inside"
    mount --bind "$REPO" "$inside"
    mounted="$inside"
fi
chroot "$ROOT" env HOME=/root "${RUN[@]}"
