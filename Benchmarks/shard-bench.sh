#!/usr/bin/env bash
# Shards by cost against shards by count, on a suite whose cases cost about 50 times more
# than each other: L long tables of 400 subtitle rows placed at random (seeded) among S
# one-row cases, as long tables land wherever their names sort. The suite is checked once
# whole with --report (every case's time); then each of its N shards is checked on its own
# (one after the other, as N machines would each run one; best of R runs each), split by
# count and by cost from that report's timings, rendering every case (--no-cache). Prints
# each shard's time and the spread, slowest ÷ fastest − 1: what a CI run waits for beyond
# the even share.
#
#   bash Benchmarks/shard-bench.sh [shards] [long] [short] [runs]   # default 4, 12, 600, 3
set -euo pipefail
cd "$(dirname "$0")/.."
shards="${1:-4}"
long="${2:-12}"
short="${3:-600}"
runs="${4:-3}"

source Benchmarks/common.sh
build_rowkit
render_every_case
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 - "$work/cases" "$long" "$short" <<'PY'
import os, random, sys
folder, long, short = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
os.makedirs(folder, exist_ok=True)
random.seed(27)
total = long + short
long_cases = set(random.sample(range(total), long))
for case in range(total):
    rows = 400 if case in long_cases else 1
    with open(os.path.join(folder, f"{case:04d}.yaml"), "w") as out:
        out.write("table: { width: 375, scale: 2, style: plain }\nitems:\n")
        for row in range(rows):
            out.write(f'  - {{ type: subtitle, text: "Case {case} row {row + 1}", subtitle: "A subtitle of the row" }}\n')
PY
CI= "$rowkit" check "$work/cases" --snapshots "$work/refs" --record all >/dev/null || [ $? -eq 1 ]
export CI=true
"$rowkit" check "$work/cases" --snapshots "$work/refs" --report "$work/timings" "${render_flags[@]}" | tail -1
echo "$long tables of 400 rows and $short of 1 row, $shards shards, each shard alone, best of $runs runs ($(nproc) cores)"
spread() { printf '%s\n' "$@" | sort -n | awk 'NR == 1 { min = $1 } { max = $1 } END { printf "%.2f", max / min - 1 }'; }
for split in count cost; do
  times=()
  for index in $(seq "$shards"); do
    flags=(--shard "$index/$shards" --shard-by "$split")
    [ "$split" = cost ] && flags+=(--timings "$work/timings")
    runs_ms=()
    for _ in $(seq "$runs"); do
      runs_ms+=("$(time_ms "$rowkit" check "$work/cases" --snapshots "$work/refs" "${flags[@]}" "${render_flags[@]}")")
    done
    times+=("$(printf '%s\n' "${runs_ms[@]}" | sort -n | head -1)")
  done
  printf '%-6s shards: %s ms; spread %s\n' "$split" "${times[*]}" "$(spread "${times[@]}")"
done
"$rowkit" shards plan "$shards" --timings "$work/timings"
