#!/usr/bin/env bash
# A one-row table as whole processes, RowKit against the C floor, paired: the C program of
# c-bench (subtitle-rows.c: Cairo, Pango and ISA-L, a private fontconfig configuration with
# Inter only) draws its first subtitle row into a PNG, and `rowkit render` draws the same row
# from a one-row document. Runs alternate between the two, so both see the same machine; the
# font scan cache is filled before timing (as on every run after a user's first).
#
#   bash Benchmarks/one-row-bench.sh [runs]      # default 41
#   ROWKIT_BINARY=path/to/rowkit bash Benchmarks/one-row-bench.sh
#
# Prints the best and median of each and RowKit's time as a multiple of C's.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-41}"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
source Benchmarks/common.sh
build_c_floor "$work"
build_rowkit
export XDG_CACHE_HOME="$work/cache"

# The first row of Benchmarks/chromium/rows.yaml, which the C program draws first.
{ sed -n '/^table:/p' Benchmarks/chromium/rows.yaml; echo "items:"; sed -n '/^  - /{p;q}' Benchmarks/chromium/rows.yaml; } > "$work/one.yaml"
c=("$c_floor" --rows 1 --repeat 1 --isal -o "$work/c.png")
rowkit_render=("$rowkit" render "$work/one.yaml" -o "$work/rowkit.png")
"${c[@]}" >/dev/null
"${rowkit_render[@]}" >/dev/null 2>&1 || { echo "one-row-bench: the render failed" >&2; "${rowkit_render[@]}"; exit 1; }
same="$("$rowkit" diff "$work/c.png" "$work/rowkit.png" 2>&1 || true)"

c_times=()
rowkit_times=()
for _ in $(seq "$runs"); do
  c_times+=("$(time_ms "${c[@]}")")
  rowkit_times+=("$(time_ms "${rowkit_render[@]}")")
done
stats() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { print v[1], v[int(NR / 2) + 1] }'; }
read -r c_best c_median <<< "$(stats "${c_times[@]}")"
read -r r_best r_median <<< "$(stats "${rowkit_times[@]}")"
echo "one subtitle row as whole processes, $runs paired runs, $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg) at the end"
printf '%-40s best %4d ms   median %4d ms\n' "C (Cairo + Pango + ISA-L)" "$c_best" "$c_median"
printf '%-40s best %4d ms   median %4d ms\n' "rowkit render" "$r_best" "$r_median"
awk -v cb="$c_best" -v cm="$c_median" -v rb="$r_best" -v rm="$r_median" \
  'BEGIN { printf "rowkit against C:                        %.2f× (best against best), %.2f× (median against median)\n", rb / cb, rm / cm }'
echo "the row, C against rowkit: $same"
