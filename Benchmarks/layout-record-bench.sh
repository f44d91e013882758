#!/usr/bin/env bash
# What layout records cost: the suite of suite-bench.sh (N cases of 8 subtitle rows, 375
# points at scale 2) recorded into an empty references folder with records and with
# --no-layout-records, then checked (every case passes) both ways. The two commands of each
# pair run in turn, run after run, so that a machine that slows down slows both; prints the
# best and median of each and their ratios.
#
#   bash Benchmarks/layout-record-bench.sh [cases] [runs]      # default 200 cases, 7 runs
set -euo pipefail
cd "$(dirname "$0")/.."
cases="${1:-200}"
runs="${2:-7}"

source Benchmarks/common.sh
build_rowkit
render_every_case
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 Benchmarks/suite/make_cases.py "$cases" "$work" >/dev/null

# Records into an empty folder (recording exits 1: new references are for review).
record() {  # folder, extra flags…
  local folder="$1"; shift
  rm -rf "$folder"
  local start end
  start=$(date +%s%N)
  "$rowkit" check "$work/cases" --snapshots "$folder" --record all "${render_flags[@]}" "$@" >/dev/null 2>&1 || [ $? -eq 1 ]
  end=$(date +%s%N)
  echo $(( (end - start) / 1000000 ))
}

stats() {  # label, times…: prints best and median, leaves them in $best and $median
  local label="$1"; shift
  local sorted=($(printf '%s\n' "$@" | sort -n))
  best="${sorted[0]}"
  median="${sorted[$(( ${#sorted[@]} / 2 ))]}"
  printf '%-52s best %6d ms   median %6d ms\n' "$label" "$best" "$median"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }

echo "$cases cases of 8 subtitle rows, 375 points at scale 2; $runs runs of each, in turn ($(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg))"
with=(); without=()
for _ in $(seq "$runs"); do
  with+=("$(record "$work/refs-records")")
  without+=("$(record "$work/refs-png" --no-layout-records)")
done
stats "check --record all (PNGs and layout records)" "${with[@]}"; record_best=$best; record_median=$median
stats "check --record all --no-layout-records" "${without[@]}"
echo "recording with records ÷ without: best $(ratio "$record_best" "$best"), median $(ratio "$record_median" "$median")"
records=$(find "$work/refs-records" -name '*.layout.json' | wc -l)
echo "layout records written: $records, $(du -sk --apparent-size "$work/refs-records" | cut -f1) KB with them, $(du -sk --apparent-size "$work/refs-png" | cut -f1) KB without"

# A passing suite: the references have their records; a passing case compares pixels only.
passing=(); plain=()
for _ in $(seq "$runs"); do
  passing+=("$(time_ms "$rowkit" check "$work/cases" --snapshots "$work/refs-records" "${render_flags[@]}")")
  plain+=("$(time_ms "$rowkit" check "$work/cases" --snapshots "$work/refs-records" --no-layout-records "${render_flags[@]}")")
done
"$rowkit" check "$work/cases" --snapshots "$work/refs-records" >/dev/null  # every case must pass
stats "check, passing (records kept)" "${passing[@]}"; pass_best=$best; pass_median=$median
stats "check, passing, --no-layout-records" "${plain[@]}"
echo "passing check with records ÷ without: best $(ratio "$pass_best" "$best"), median $(ratio "$pass_median" "$median")"
