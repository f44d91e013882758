#!/usr/bin/env bash
# RowKit against the same subtitle rows drawn by a C program straight on Cairo, Pango and a
# PNG encoder (subtitle-rows.c), in the same run: measure + paint + encode of 2,000 rows,
# RowKit on one worker and on one per core.
#
#   bash Benchmarks/c-bench/run.sh [rows] [runs]
#
# Needs what scripts/setup.sh installs (Cairo, Pango, libpng, ISA-L, the Inter fonts) and a
# C compiler. Prints each program's own figures, checks that both draw the same pixels, then
# prints RowKit's time as a multiple of C's.
set -euo pipefail
cd "$(dirname "$0")/../.."
rows="${1:-2000}"
runs="${2:-5}"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
source Benchmarks/common.sh
build_c_floor "$work"
build_rowkit
swift build -c release --product rowkit-bench >/dev/null 2>&1
bench="$(swift build -c release --show-bin-path)/rowkit-bench"

c_libpng="$("$c_floor" --rows "$rows" --repeat "$runs" -o "$work/c-libpng.png")"
c_isal="$("$c_floor" --rows "$rows" --repeat "$runs" --isal -o "$work/c-isal.png")"
rowkit_figures="$("$bench" --rows "$rows" --repeat "$runs")"
echo "$c_libpng"
echo "$c_isal"
echo "$rowkit_figures"

# The same rows, the same pixels: the first 50 rows drawn by both, compared.
"$c_floor" --rows 50 --repeat 1 -o "$work/c-50.png" >/dev/null
"$rowkit" render Benchmarks/chromium/rows.yaml -o "$work/rowkit-50.png"
echo "the first 50 rows, C against rowkit render Benchmarks/chromium/rows.yaml: $(
  "$rowkit" diff "$work/c-50.png" "$work/rowkit-50.png" 2>&1 || true)"

best() { sed -n "s/.*$1.*(best \([0-9.]*\) s.*/\1/p" | head -1; }
c_libpng_s="$(echo "$c_libpng" | best 'libpng')"
c_isal_s="$(echo "$c_isal" | best 'ISA-L')"
one_s="$(echo "$rowkit_figures" | best '1 worker')"
many_s="$(echo "$rowkit_figures" | best 'workers:')"
echo
awk -v one="$one_s" -v many="$many_s" -v png="$c_libpng_s" -v isal="$c_isal_s" 'BEGIN {
  printf "RowKit, 1 worker, against C with libpng:       %.2f× its time\n", one / png
  printf "RowKit, 1 worker, against C with ISA-L:        %.2f× its time (the same encoder)\n", one / isal
  if (many != "") printf "RowKit, all cores, against C with ISA-L:      %.2f× its time\n", many / isal
}'
