#!/usr/bin/env bash
# Peak memory (GNU time's maximum resident set size) of `rowkit check` on a long table
# document, and of `rowkit diff` on a large pair of PNGs: figures that must stay flat however
# tall the images are.
#
#   bash Benchmarks/check-memory.sh [rows]        # default 20000
#   ROWKIT_BINARY=path/to/rowkit bash Benchmarks/check-memory.sh    # that binary, build nothing
#
# The document has `rows` subtitle rows. Its reference is recorded (`--record all`), checked
# as it is (passes), and checked after one row in the middle changed (fails, and writes the
# report with the case's artifacts: the actual image, the diff image and the composite). The
# PNGs are 8000×5000 pixels, a 50×100 block apart (Benchmarks/memory/png_pair.py).
set -euo pipefail
cd "$(dirname "$0")/.."
rows="${1:-20000}"

source Benchmarks/common.sh
require_command /usr/bin/time time
require_command python3 python3
build_rowkit
render_every_case
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

document() {  # the text of the middle row
  awk -v n="$rows" -v middle="$1" 'BEGIN {
    print "items:"
    for (i = 1; i <= n; i++) {
      printf "  - { type: subtitle, text: \"%s\", subtitle: \"The subtitle of row %d\" }\n", (i == int(n / 2) ? middle : "Row " i), i
    }
  }'
}

peak() {  # label, the exit statuses expected (space-separated), command…
  local label="$1" expected="$2" status=0
  shift 2
  /usr/bin/time -f "%e %M" -o "$work/time" "$@" >"$work/output" 2>&1 || status=$?
  if [[ " $expected " != *" $status "* ]]; then
    echo "$label: exit status $status" >&2
    tail -5 "$work/output" >&2
    exit 1
  fi
  local wall kilobytes
  # GNU time puts "Command exited with non-zero status" first when the status is not 0.
  read -r wall kilobytes < <(tail -1 "$work/time")
  printf '%-60s peak %7.1f MB %8.1f s\n' "$label" "$(awk -v k="$kilobytes" 'BEGIN { print k / 1024 }')" "$wall"
}

megabytes() { du -cm "$@" | tail -1 | cut -f1; }

mkdir "$work/cases"
document "Row $((rows / 2))" > "$work/cases/long.yaml"
echo "rowkit check: $rows subtitle rows, $(nproc) cores"
peak "render -o (for scale)" 0 "$rowkit" render "$work/cases/long.yaml" -o "$work/render.png" --no-progress
rm -f "$work"/render*.png
peak "check --record all (records the reference)" 1 "$rowkit" check "$work/cases" --snapshots "$work/refs" --record all
echo "  the reference: $(ls "$work/refs"/long*.png | wc -l) files, $(megabytes "$work/refs"/long*.png) MB"
peak "check (passes)" 0 "$rowkit" check "$work/cases" --snapshots "$work/refs" "${render_flags[@]}"
document "Changed" > "$work/cases/long.yaml"
peak "check with one row changed (fails; --report with artifacts)" 1 \
  "$rowkit" check "$work/cases" --snapshots "$work/refs" --report "$work/report" "${render_flags[@]}"
echo "  the artifacts: $(find "$work/report/cases" -name '*.png' | wc -l) files, $(megabytes "$work/report/cases") MB"

python3 Benchmarks/memory/png_pair.py 8000 5000 "$work/a.png" "$work/b.png"
echo
echo "rowkit diff: two 8000×5000 PNGs of $(( $(stat -c %s "$work/a.png") / 1024 )) KB"
peak "diff" 1 "$rowkit" diff "$work/a.png" "$work/b.png"
peak "diff -o diff.png --composite composite.png" 1 \
  "$rowkit" diff "$work/a.png" "$work/b.png" -o "$work/diff.png" --composite "$work/composite.png"
