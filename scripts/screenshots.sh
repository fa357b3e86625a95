#!/usr/bin/env bash
# Regenerate the README's screenshots (docs/*.png) from a real Blender with a window, under Xvfb.
#
#   bash scripts/screenshots.sh [OUT_DIR]          # default: docs/
#
# Blender, Xvfb, ImageMagick: from $OMI_BLENDER_ROOT, a Debian sid folder made with debootstrap (see
# ../shared/REAL_BLENDER.md; scripts/real_blender.sh, run by CI, sets one up, by default at
# ~/.cache/omi-physics/blender-sid, and this script assumes it exists), entered with chroot as root;
# the checkout is bind-mounted at the same path inside. With OMI_BLENDER_ROOT=/ the host's own
# `blender`, `xvfb-run` and `import` are used.
set -euo pipefail
REPO="$(cd "$(dirname "$0")/.." && pwd)"
OUT="$(realpath -m "${1:-$REPO/docs}")"
ROOT="${OMI_BLENDER_ROOT:-$HOME/.cache/omi-physics/blender-sid}"
mkdir -p "$OUT"
RUN=(xvfb-run -a -s "-screen 0 1600x1200x24" blender --factory-startup --python "$REPO/scripts/screenshots/screenshots.py" -- "$OUT")

if [ "$ROOT" = "/" ]; then
    exec "${RUN[@]}"
fi
[ -x "$ROOT/usr/bin/blender" ] || { echo "no Blender in $ROOT (see ../shared/REAL_BLENDER.md)" >&2; exit 2; }
mounted=()
cleanup() { for path in "${mounted[@]}"; do umount "$path" || true; done; }
trap cleanup EXIT
for path in "$REPO" "$OUT"; do
    inside="$ROOT$path"
    if ! mountpoint -q "$inside"; then
        mkdir -p "$inside"
        mount --bind "$path" "$inside"
        mounted=("$inside" "${mounted[@]}")
    fi
done
chroot "$ROOT" env HOME=/root "${RUN[@]}"
