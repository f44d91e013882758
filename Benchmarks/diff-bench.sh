#!/usr/bin/env bash
# Times `rowkit diff` against ImageMagick's `compare -metric AE` on the same pairs of
# 2000×2000 PNGs, in the same run: one pair identical, one differing by a 100×100 block; first
# as ImageMagick writes them (16 bits a channel, from its Q16 gradient), then as 8-bit copies
# (what RowKit's references are).
#
#   bash Benchmarks/diff-bench.sh [runs]
#   ROWKIT_BINARY=path/to/rowkit bash Benchmarks/diff-bench.sh    # time that binary, build nothing
#
# Installs Debian's imagemagick if it is missing, builds rowkit in release mode, draws the
# images with ImageMagick, then prints the best and median wall time of each command over
# `runs` runs (default 9), whole processes as a user runs them, and how many times faster
# rowkit diff is, best against best and median against median.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-9}"

source Benchmarks/common.sh
require_command compare imagemagick
build_rowkit

# ImageMagick's own convert: a `convert` earlier on the PATH may be something else.
magick_convert=""
for candidate in magick convert-im6.q16 /usr/bin/convert convert; do
  if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -version 2>/dev/null | grep -q ImageMagick; then
    magick_convert="$candidate"
    break
  fi
done
[ -n "$magick_convert" ] || { echo "diff-bench: no ImageMagick convert found" >&2; exit 2; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# A picture with gradients, text-like stripes and shapes, so that neither tool meets a flat image.
"$magick_convert" -size 2000x2000 gradient:'#2F6FD0'-'#F4E3B0' \
  -fill '#FFFFFF' -draw 'roundrectangle 100,100 1900,700 40,40' \
  -fill '#C03030' -draw 'circle 1000,1300 1000,1700' \
  -stroke '#202020' -strokewidth 3 -draw 'line 0,0 2000,2000' -draw 'line 2000,0 0,2000' \
  "$work/a.png"
cp "$work/a.png" "$work/a-copy.png"
"$magick_convert" "$work/a.png" -fill '#000000' -stroke none -draw 'rectangle 500,900 599,999' "$work/b.png"
for name in a a-copy b; do "$magick_convert" "$work/$name.png" -depth 8 "$work/$name-8.png"; done

ratio() {  # rowkit's best and median, then compare's: the two speed-ups
  awk -v rb="$1" -v rm="$2" -v cb="$3" -v cm="$4" \
    'BEGIN { printf "  rowkit diff is %.1f× faster (best against best), %.1f× (median against median)\n", cb / rb, cm / rm }'
}

echo "2000×2000 PNGs, $runs runs each ($(nproc) cores); ImageMagick $("$magick_convert" -version | head -1 | cut -d' ' -f3)"
"$rowkit" diff "$work/a.png" "$work/b.png" | sed 's/^/rowkit diff says: /' || true
compare -metric AE "$work/a.png" "$work/b.png" null: 2>&1 | sed 's/^/compare -metric AE says: /' || true
echo  # compare ends its number without a newline
for depth in 16 8; do
  suffix=""
  [ "$depth" = 8 ] && suffix="-8"
  echo
  echo "$depth bits a channel:"
  measure "identical: rowkit diff"               "$rowkit" diff "$work/a$suffix.png" "$work/a-copy$suffix.png"
  rowkit_best=$best; rowkit_median=$median
  measure "identical: compare -metric AE"        compare -metric AE "$work/a$suffix.png" "$work/a-copy$suffix.png" null:
  ratio "$rowkit_best" "$rowkit_median" "$best" "$median"
  measure "100×100 block: rowkit diff"           "$rowkit" diff "$work/a$suffix.png" "$work/b$suffix.png"
  rowkit_best=$best; rowkit_median=$median
  measure "100×100 block: compare -metric AE"    compare -metric AE "$work/a$suffix.png" "$work/b$suffix.png" null:
  ratio "$rowkit_best" "$rowkit_median" "$best" "$median"
done
