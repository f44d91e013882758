#!/usr/bin/env bash
# The render cache (`rowkit check` passing cases whose inputs are unchanged without rendering
# them): N cases of 8 subtitle rows, each using one of ten stylesheets, references recorded
# once. Times, best and median of R runs:
#   1. `rowkit check` with nothing changed (every case passes from the cache),
#   2. the same check with --no-cache (every case renders), and their ratio;
#   3. `rowkit check` after one stylesheet variable changed that reaches a tenth of the cases
#      (those render and fail, the rest pass from the cache), against
#   4. `rowkit check --no-cache` of that tenth alone, and their ratio.
#
#   bash Benchmarks/cache-bench.sh [cases] [runs]      # default 2000 cases, 3 runs
set -euo pipefail
cd "$(dirname "$0")/.."
cases="${1:-2000}"
runs="${2:-3}"

source Benchmarks/common.sh
build_rowkit
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 - "$cases" "$work" <<'PY'
import os, random, sys
count, folder = int(sys.argv[1]), sys.argv[2]
words = "table row cell label image layout render paint pixel scale section header item Cairo Pango Three20".split()
random.seed(27)
os.makedirs(os.path.join(folder, "cases"), exist_ok=True)
os.makedirs(os.path.join(folder, "styles"), exist_ok=True)
for group in range(10):
    with open(os.path.join(folder, "styles", f"group-{group}.yaml"), "w") as out:
        out.write(f'extends: default\nvars: {{ tableSubTextColor: "#4F59{group:02d}" }}\n')
for case in range(count):
    with open(os.path.join(folder, "cases", f"{case:04d}.yaml"), "w") as out:
        out.write(f"table: {{ width: 375, scale: 2, style: plain }}\nstylesheet: ../styles/group-{case % 10}.yaml\nitems:\n")
        for row in range(8):
            title = " ".join(random.choice(words).capitalize() for _ in range(random.randint(2, 4)))
            subtitle = " ".join(random.choice(words) for _ in range(random.randint(5, 15)))
            out.write(f'  - {{ type: subtitle, text: "{case * 8 + row + 1}. {title}", subtitle: "{subtitle}", url: "app://row" }}\n')
PY
# Recording exits 1 (new references are for review); anything else is a failure.
CI= "$rowkit" check "$work/cases" --snapshots "$work/refs" --record all >/dev/null || [ $? -eq 1 ]
echo "$cases cases of 8 subtitle rows, 375 points at scale 2, best of $runs runs ($(nproc) cores)"
# Checks run as in CI: nothing is written beside the references; failure images go to the
# benchmark's own folder.
export CI=true
artifacts=(--artifacts "$work/artifacts")
"$rowkit" check "$work/cases" --snapshots "$work/refs" | tail -1

measure "rowkit check, nothing changed (cached)" "$rowkit" check "$work/cases" --snapshots "$work/refs"
cached_best=$best
measure "rowkit check --no-cache" "$rowkit" check "$work/cases" --snapshots "$work/refs" --no-cache
uncached_best=$best

# One variable of one stylesheet: a tenth of the cases change color, render and fail.
sed -i 's/#4F5900/#C02000/' "$work/styles/group-0.yaml"
"$rowkit" check "$work/cases" --snapshots "$work/refs" "${artifacts[@]}" | tail -1 || true
measure "rowkit check, a tenth changed" "$rowkit" check "$work/cases" --snapshots "$work/refs" "${artifacts[@]}"
changed_best=$best
mkdir -p "$work/alone/cases" "$work/alone/refs"
ln -s "$work/styles" "$work/alone/styles"
cp "$work/refs/environment.json" "$work/alone/refs/"
for file in "$work"/cases/*.yaml; do
  name="$(basename "$file" .yaml)"
  if [ $((10#$name % 10)) -eq 0 ]; then
    cp "$file" "$work/alone/cases/"
    cp "$work/refs/$name.png" "$work/refs/$name.layout.json" "$work/alone/refs/"
  fi
done
measure "rowkit check --no-cache, that tenth alone" "$rowkit" check "$work/alone/cases" --snapshots "$work/alone/refs" --no-cache "${artifacts[@]}"
alone_best=$best

echo
awk -v c="$cached_best" -v u="$uncached_best" 'BEGIN { printf "nothing changed: %d ms, %.1f× faster than --no-cache (%d ms)\n", c, u / c, u }'
awk -v c="$changed_best" -v a="$alone_best" 'BEGIN { printf "a tenth changed: %d ms, %.2f× the time of rendering that tenth alone (%d ms)\n", c, c / a, a }'
