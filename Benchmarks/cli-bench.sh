#!/usr/bin/env bash
# Times `rowkit render` on a long table document, as a user runs it: the YAML is parsed,
# every row laid out, painted and streamed into the PNG. Prints the wall time and the peak
# memory (GNU time's maximum resident set size) on one worker and on one per core.
#
#   bash Benchmarks/cli-bench.sh [rows]        # default 100000
#
# The rows are rowkit-bench's subtitle rows (`rowkit-bench yaml`), so the figures compare
# with `rowkit-bench stream`, which renders the same rows from Swift values.
set -euo pipefail
cd "$(dirname "$0")/.."
rows="${1:-100000}"

source Benchmarks/common.sh
require_command /usr/bin/time time
build_rowkit
swift build -c release --product rowkit-bench >/dev/null 2>&1
bench="$(swift build -c release --show-bin-path)/rowkit-bench"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$bench" yaml --rows "$rows" > "$work/rows.yaml"
echo "rowkit render: $rows subtitle rows from a $(( $(stat -c %s "$work/rows.yaml") / 1048576 )) MB YAML document, $(nproc) cores"
for jobs in 1 "$(nproc)"; do
  /usr/bin/time -f "%e %M" -o "$work/time" "$rowkit" render "$work/rows.yaml" -o "$work/table.png" --jobs "$jobs" --no-progress
  read -r wall kilobytes < "$work/time"
  bytes=$(cat "$work"/table*.png | wc -c)
  printf '%d job(s): %7.1f s  %6.0f rows/s  peak memory %6.1f MB  (PNG %.1f MB)\n' "$jobs" "$wall" \
    "$(awk -v r="$rows" -v w="$wall" 'BEGIN { print r / w }')" "$(awk -v k="$kilobytes" 'BEGIN { print k / 1024 }')" \
    "$(awk -v b="$bytes" 'BEGIN { print b / 1048576 }')"
  rm -f "$work"/table*.png
done
