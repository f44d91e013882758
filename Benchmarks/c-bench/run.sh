#!/usr/bin/env bash
# RowKit against the same subtitle rows drawn by a C program straight on Cairo, Pango and a
# PNG encoder (subtitle-rows.c), in the same run: measure + paint + encode of 2,000 rows,
# RowKit on one worker and on one per core.
#
#   bash Benchmarks/c-bench/run.sh [rows] [rounds]      # default 2000 rows, 5 rounds
#
# Needs what scripts/setup.sh installs (Cairo, Pango, libpng, ISA-L, the Inter fonts) and a
# C compiler. Each round runs the C program with libpng, with ISA-L, and rowkit-bench once
# each; prints the first round's figures and every round's times, checks that both draw the
# same pixels, then prints RowKit's time as a multiple of C's: best against best, and the
# median of the rounds' ratios.
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

best() { sed -n "s/.*$1.*(best \([0-9.]*\) s.*/\1/p" | head -1; }
# Rounds: each round runs the three programs once, one after the other, so that a machine
# whose speed drifts from minute to minute (a virtual machine's host at work) slows them
# alike; each ratio is taken within a round, and the median of the rounds' ratios printed
# beside the ratio of the best times.
c_libpng_times=(); c_isal_times=(); one_times=(); many_times=()
for round in $(seq "$runs"); do
  c_libpng="$("$c_floor" --rows "$rows" --repeat 1 -o "$work/c-libpng.png")"
  c_isal="$("$c_floor" --rows "$rows" --repeat 1 --isal -o "$work/c-isal.png")"
  rowkit_figures="$("$bench" --rows "$rows" --repeat 1)"
  c_libpng_times+=("$(echo "$c_libpng" | best 'libpng')")
  c_isal_times+=("$(echo "$c_isal" | best 'ISA-L')")
  one_times+=("$(echo "$rowkit_figures" | best '1 worker')")
  many_times+=("$(echo "$rowkit_figures" | best 'workers:')")
  if [ "$round" = 1 ]; then
    echo "$c_libpng"
    echo "$c_isal"
    echo "$rowkit_figures"
  fi
done
echo
echo "the first round's figures above; $runs rounds in all (seconds, in round order):"
printf '  %-30s %s\n' "C with libpng" "${c_libpng_times[*]}" "C with ISA-L" "${c_isal_times[*]}" \
  "RowKit, 1 worker" "${one_times[*]}"
if [ -n "${many_times[0]}" ]; then printf '  %-30s %s\n' "RowKit, all cores" "${many_times[*]}"; fi

# The same rows, the same pixels: the first 50 rows drawn by both, compared.
"$c_floor" --rows 50 --repeat 1 -o "$work/c-50.png" >/dev/null
"$rowkit" render Benchmarks/chromium/rows.yaml -o "$work/rowkit-50.png"
echo "the first 50 rows, C against rowkit render Benchmarks/chromium/rows.yaml: $(
  "$rowkit" diff "$work/c-50.png" "$work/rowkit-50.png" 2>&1 || true)"

# ratio LABEL NUMERATORS DENOMINATORS: RowKit's time as a multiple of C's, best against best
# and the median of the rounds' ratios.
ratio() {
  local best_numerator best_denominator median
  best_numerator="$(printf '%s\n' $2 | sort -g | head -1)"
  best_denominator="$(printf '%s\n' $3 | sort -g | head -1)"
  median="$(paste -d' ' <(printf '%s\n' $2) <(printf '%s\n' $3) | awk '{ printf "%.4f\n", $1 / $2 }' | sort -g |
    awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')"
  awk -v label="$1" -v n="$best_numerator" -v d="$best_denominator" -v m="$median" \
    'BEGIN { printf "%-46s %.2f× its time (best against best), %.2f× (median of the rounds)\n", label, n / d, m }'
}
echo
ratio "RowKit, 1 worker, against C with libpng:" "${one_times[*]}" "${c_libpng_times[*]}"
ratio "RowKit, 1 worker, against C with ISA-L:" "${one_times[*]}" "${c_isal_times[*]}"
if [ -n "${many_times[0]}" ]; then
  ratio "RowKit, all cores, against C with libpng:" "${many_times[*]}" "${c_libpng_times[*]}"
  ratio "RowKit, all cores, against C with ISA-L:" "${many_times[*]}" "${c_isal_times[*]}"
fi
