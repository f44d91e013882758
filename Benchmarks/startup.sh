#!/usr/bin/env bash
# Times what a script pays each time it calls rowkit: `rowkit --help`, and a render of a
# one-row table, as whole processes (start, dynamic loading, argument parsing, fonts, render,
# PNG written). Prints the best and median wall time over `runs` runs (default 41).
#
#   bash Benchmarks/startup.sh [runs]
#   ROWKIT_BINARY=path/to/rowkit bash Benchmarks/startup.sh    # time that binary, build nothing
#
# The font scan cache (Sources/RowKitSnapshot/RowKitSnapshot.docc/Determinism.md) lives in its own folder for the benchmark:
# the first render fills it and is timed on its own ("no font cache yet"); the runs after it
# read it, as every run after the first on a user's machine does.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-41}"

source Benchmarks/common.sh
build_rowkit

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export XDG_CACHE_HOME="$work/cache"
cat > "$work/one.yaml" <<'YAML'
sections:
  - items:
      - type: text
        text: Hello
YAML
render=("$rowkit" render "$work/one.yaml" -o "$work/one.png")
echo "rowkit startup on $(nproc) cores, $runs runs each: $rowkit"
printf '%-44s %5d ms\n' "one-row render, no font cache yet" "$(time_ms "${render[@]}")"
"${render[@]}" >/dev/null 2>&1 || { echo "startup: the one-row render failed" >&2; "${render[@]}"; exit 1; }
measure "rowkit --help" "$rowkit" --help
measure "rowkit --version" "$rowkit" --version
measure "one-row render" "${render[@]}"
