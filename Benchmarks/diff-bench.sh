#!/usr/bin/env bash
# Times `rowkit diff` against ImageMagick's `compare -metric AE` on the same two pairs of
# 2000×2000 PNGs, in the same run: one pair identical, one differing by a 100×100 block.
#
#   bash Benchmarks/diff-bench.sh [runs]
#
# Installs Debian's imagemagick if it is missing, builds rowkit in release mode, draws the
# images with ImageMagick, then prints the best and median wall time of each command over
# `runs` runs (default 9), whole processes as a user runs them.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-9}"

source Benchmarks/common.sh
require_command compare imagemagick
build_rowkit

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# A picture with gradients, text-like stripes and shapes, so that neither tool meets a flat image.
convert -size 2000x2000 gradient:'#2F6FD0'-'#F4E3B0' \
  -fill '#FFFFFF' -draw 'roundrectangle 100,100 1900,700 40,40' \
  -fill '#C03030' -draw 'circle 1000,1300 1000,1700' \
  -stroke '#202020' -strokewidth 3 -draw 'line 0,0 2000,2000' -draw 'line 2000,0 0,2000' \
  "$work/a.png"
cp "$work/a.png" "$work/a-copy.png"
convert "$work/a.png" -fill '#000000' -stroke none -draw 'rectangle 500,900 599,999' "$work/b.png"

echo "2000×2000 PNGs, $runs runs each ($(nproc) cores); ImageMagick $(convert -version | head -1 | cut -d' ' -f3)"
"$rowkit" diff "$work/a.png" "$work/b.png" | sed 's/^/rowkit diff says: /' || true
compare -metric AE "$work/a.png" "$work/b.png" null: 2>&1 | sed 's/^/compare -metric AE says: /' || true
echo
measure "identical: rowkit diff"                 "$rowkit" diff "$work/a.png" "$work/a-copy.png"
measure "identical: compare -metric AE"          compare -metric AE "$work/a.png" "$work/a-copy.png" null:
measure "100×100 block: rowkit diff"             "$rowkit" diff "$work/a.png" "$work/b.png"
measure "100×100 block: compare -metric AE"      compare -metric AE "$work/a.png" "$work/b.png" null:
