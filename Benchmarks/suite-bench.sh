#!/usr/bin/env bash
# A snapshot suite as teams run it in CI: N cases of 8 subtitle rows (375 points, scale 2),
# their references recorded once, then checked by `rowkit check` with 1 job and with one
# per core, against Playwright taking the same number of full-page screenshots of the same
# rows in HTML and CSS (Benchmarks/chromium/rows.html's styles) through one warm headless
# Chromium page. Prints milliseconds per case for each, the ratios to Playwright, and how
# much faster one job per core is than one job, than as many separate 1-job processes side
# by side (the most the machine itself gives), and than the suite split into as many static
# shards run at once (the same split with no coordination, each shard starting up alone).
#
#   bash Benchmarks/suite-bench.sh [cases] [rounds]      # default 200 cases, 3 rounds
#
# Installs Debian's chromium if it is missing and Playwright's Python package from PyPI into
# a virtual environment of its own (.build-bench-venv, ignored by git).
set -euo pipefail
cd "$(dirname "$0")/.."
cases="${1:-200}"
runs="${2:-3}"

source Benchmarks/common.sh
require_command chromium chromium
require_command /usr/bin/time time
build_rowkit
render_every_case
venv=".build-bench-venv"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/python" -c 'import playwright' 2>/dev/null || "$venv/bin/pip" install -q playwright
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 Benchmarks/suite/make_cases.py "$cases" "$work"
# Recording exits 1 (new references are for review); anything else is a failure.
"$rowkit" check "$work/cases" --snapshots "$work/refs" --record all >/dev/null || [ $? -eq 1 ]

echo "$cases cases of 8 subtitle rows, 375 points at scale 2, best of $runs rounds ($(nproc) cores)"
per_case() { awk -v ms="$1" -v n="$cases" 'BEGIN { printf "%.2f", ms / n }'; }
check_jobs() { "$rowkit" check "$work/cases" --snapshots "$work/refs" --jobs "$1" "${render_flags[@]}"; }
# The machine's own ceiling for one job per core: as many separate 1-job checks of the same
# suite at once as there are cores, each a process of its own, sharing nothing but the
# machine. Where cores share a physical core, its caches or the host's memory bandwidth (as
# virtual machines' cores often do), each runs slower beside the others, and no way of
# splitting the suite can beat that; `rowkit check --jobs N` (N processes of one worker each,
# which share out the cases one at a time) is read against it.
side_by_side() {
  local others=()
  for _ in $(seq $(( $(nproc) - 1 ))); do
    check_jobs 1 >/dev/null &
    others+=($!)
  done
  check_jobs 1 >/dev/null
  wait "${others[@]}"
}
# The suite split as CI jobs split it, with no coordination at all: one 1-job check per core
# at once, each given its static share (`--shard i/N`), each with its own start-up. Against
# it, `--jobs N` shows what its sharing out of the cases one at a time costs.
static_shards() {
  local others=()
  for shard in $(seq 2 "$(nproc)"); do
    "$rowkit" check "$work/cases" --snapshots "$work/refs" --jobs 1 --shard "$shard/$(nproc)" "${render_flags[@]}" >/dev/null &
    others+=($!)
  done
  "$rowkit" check "$work/cases" --snapshots "$work/refs" --jobs 1 --shard "1/$(nproc)" "${render_flags[@]}" >/dev/null
  wait "${others[@]}"
}
playwright_run() {
  "$venv/bin/python" Benchmarks/suite/playwright_shots.py "$work/html" "$work/shots" "$(command -v chromium)"
}
mkdir -p "$work/shots"
declare -A rowkit_ms rowkit_cpu
has_jobs=""
if "$rowkit" check --help 2>&1 | grep -q -- '--jobs'; then has_jobs=yes; fi
# Each round times every contender once, one after the other, so that a machine whose speed
# drifts from minute to minute (a virtual machine's host at work) slows them all alike: the
# ratios come from one run.
one_times=(); all_times=(); side_times=(); shard_times=(); playwright_times=()
for _ in $(seq "$runs"); do
  if [ -n "$has_jobs" ]; then
    one_times+=("$(time_ms check_jobs 1)")
    all_times+=("$(time_ms check_jobs "$(nproc)")")
    if [ "$(nproc)" -ge 2 ]; then
      side_times+=("$(time_ms side_by_side)")
      shard_times+=("$(time_ms static_shards)")
    fi
  else
    one_times+=("$(time_ms "$rowkit" check "$work/cases" --snapshots "$work/refs" "${render_flags[@]}")")
  fi
  playwright_times+=("$(playwright_run)")
done
if [ -n "$has_jobs" ]; then
  summarize "rowkit check --jobs 1" "${one_times[@]}"
  rowkit_ms[1]=$(per_case "$best")
  summarize "rowkit check --jobs $(nproc)" "${all_times[@]}"
  rowkit_ms[$(nproc)]=$(per_case "$best")
  if [ "${#side_times[@]}" -gt 0 ]; then
    summarize "$(nproc) 1-job checks side by side" "${side_times[@]}"
    side_by_side_ms=$(per_case "$best")
    summarize "$(nproc) static shards side by side" "${shard_times[@]}"
  fi
  # Once more each for the processor time it takes (user + system), which a busy machine
  # changes less than the wall time; every case must pass.
  for jobs in 1 "$(nproc)"; do
    /usr/bin/time -f "%U %S" -o "$work/cpu" "$rowkit" check "$work/cases" --snapshots "$work/refs" --jobs "$jobs" "${render_flags[@]}" >/dev/null
    rowkit_cpu[$jobs]=$(per_case "$(awk '{ print ($1 + $2) * 1000 }' "$work/cpu")")
  done
else
  summarize "rowkit check (no --jobs: one at a time)" "${one_times[@]}"
  rowkit_ms[1]=$(per_case "$best")
  rowkit_ms[$(nproc)]=${rowkit_ms[1]}
fi
playwright_best=$(printf '%s\n' "${playwright_times[@]}" | sort -g | head -1)
echo
printf '%-40s %8s ms per case (processor time %s ms)\n' "rowkit check, 1 job" "${rowkit_ms[1]}" "${rowkit_cpu[1]:-?}"
printf '%-40s %8s ms per case (processor time %s ms)\n' "rowkit check, $(nproc) jobs" "${rowkit_ms[$(nproc)]}" "${rowkit_cpu[$(nproc)]:-?}"
printf '%-40s %8s ms per case (warm page, screenshots only)\n' "Playwright + Chromium $(chromium --version 2>/dev/null | awk '{print $2}')" "$playwright_best"
for jobs in 1 "$(nproc)"; do
  printf 'Playwright ÷ rowkit (%d job%s): %.1f×\n' "$jobs" "$([ "$jobs" = 1 ] || echo s)" \
    "$(awk -v p="$playwright_best" -v r="${rowkit_ms[$jobs]}" 'BEGIN { print p / r }')"
done
# The same ratios round by round (each round's contenders ran one after the other), and
# their median: steadier than best against best where the machine's speed drifts.
median_of() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
round_ratios() {  # numerator times, denominator times (as two strings), factor
  paste -d' ' <(printf '%s\n' $1) <(printf '%s\n' $2) | awk -v f="$3" '{ printf "%.4f\n", f * $1 / $2 }'
}
printf 'rowkit check, %d jobs against 1 job: %.2f× as fast (best against best)\n' "$(nproc)" \
  "$(awk -v one="${rowkit_ms[1]}" -v all="${rowkit_ms[$(nproc)]}" 'BEGIN { print one / all }')"
if [ -n "$has_jobs" ]; then
  speedups=($(round_ratios "${one_times[*]}" "${all_times[*]}" 1))
  printf 'rowkit check, %d jobs against 1 job: %.2f× as fast (median of the rounds: %s)\n' "$(nproc)" \
    "$(median_of "${speedups[@]}")" "${speedups[*]}"
fi
if [ -n "${side_by_side_ms:-}" ]; then
  # N processes check the suite N times over in the side-by-side time: N × one ÷ that is how
  # many times one process's throughput the machine gives N independent ones.
  ceilings=($(round_ratios "${one_times[*]}" "${side_times[*]}" "$(nproc)"))
  ceiling="$(median_of "${ceilings[@]}")"
  printf '%d separate 1-job checks at once: %.2f× the throughput of one (this machine'"'"'s ceiling; median of the rounds: %s)\n' \
    "$(nproc)" "$ceiling" "${ceilings[*]}"
  awk -v s="$(median_of "${speedups[@]}")" -v c="$ceiling" -v n="$(nproc)" \
    'BEGIN { printf "rowkit check, %d jobs: %.0f%% of that ceiling\n", n, 100 * s / c }'
  shard_speedups=($(round_ratios "${one_times[*]}" "${shard_times[*]}" 1))
  printf '%d static shards at once against 1 job: %.2f× as fast (median of the rounds: %s); --jobs %d gets %.0f%% of that\n' \
    "$(nproc)" "$(median_of "${shard_speedups[@]}")" "${shard_speedups[*]}" "$(nproc)" \
    "$(awk -v s="$(median_of "${speedups[@]}")" -v t="$(median_of "${shard_speedups[@]}")" 'BEGIN { print 100 * s / t }')"
fi
