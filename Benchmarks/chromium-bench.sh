#!/usr/bin/env bash
# Times `rowkit render` against headless Chromium drawing the same 50 subtitle rows from
# equivalent HTML and CSS (Benchmarks/chromium/rows.yaml and rows.html: the same text, the
# same Inter files, 375 points wide at scale 2), as whole processes, in the same run.
#
#   bash Benchmarks/chromium-bench.sh [runs]
#
# Installs Debian's chromium if it is missing, builds rowkit in release mode, then prints
# the best and median wall time of each over `runs` runs (default 9), the sizes of the two
# PNGs.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-9}"

source Benchmarks/common.sh
require_command chromium chromium
build_rowkit
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# Chromium screenshots its window: make it as tall as the table RowKit lays out.
"$rowkit" render Benchmarks/chromium/rows.yaml -o "$work/rowkit.png" --manifest "$work/manifest.json"
height=$(sed -n 's/^  "height" : \([0-9.]*\),*$/\1/p' "$work/manifest.json" | head -1)
height=$(awk -v h="$height" 'BEGIN { c = int(h); if (c < h) c++; print c }')
page="file://$PWD/Benchmarks/chromium/rows.html"
# NB: --no-sandbox because CI runs as root, where Chromium's sandbox refuses to start.
chromium_shot() {
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=2 \
    --window-size="375,$height" --screenshot="$1" "$page"
}
chromium_shot "$work/chromium.png" >/dev/null 2>&1

echo "50 subtitle rows, 375×$height points at scale 2, $runs runs each ($(nproc) cores); $(chromium --version 2>/dev/null)"
measure "rowkit render rows.yaml"                  "$rowkit" render Benchmarks/chromium/rows.yaml -o "$work/rowkit.png"
measure "chromium --headless --screenshot rows.html" chromium_shot "$work/chromium.png"
png_size() {  # width×height and bytes of a PNG, from its header
  local w h
  w=$(od -An -tu1 -j16 -N4 "$1" | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }')
  h=$(od -An -tu1 -j20 -N4 "$1" | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }')
  echo "${w}×${h} px, $(stat -c %s "$1") bytes"
}
echo "rowkit:   $(png_size "$work/rowkit.png")"
echo "chromium: $(png_size "$work/chromium.png") (a window is a whole number of points tall)"
