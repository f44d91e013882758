#!/usr/bin/env bash
# rowkit preview: the time from saving a cell design file to the new image of the table that
# uses it shown in the browser. A document of R rows mapped to one design file (a title and a
# two-line subtitle beside an image slot); the page is opened in Debian's Chromium through
# Playwright, and the design's title color is switched S times, the script waiting for the
# page to load each new image (Tests/Browser/preview-page.py --bench). Prints min, median and
# max. The server looks at the files every 50 ms, so a save waits 25 ms for it on average.
#
#   bash Benchmarks/preview-bench.sh [rows] [saves]      # default 50 rows, 10 saves
set -euo pipefail
cd "$(dirname "$0")/.."
rows="${1:-50}"
saves="${2:-10}"

source Benchmarks/common.sh
require_command chromium chromium
build_rowkit_review
bash scripts/setup.sh --tests >/dev/null
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/preview"
cat > "$work/preview/card.yaml" <<'YAML'
padding: [10, 12, 10, 12]
body:
  hstack:
    spacing: 12
    align: center
    children:
      - image: { bind: image, width: 44, height: 44 }
      - vstack:
          grow: 1
          spacing: 2
          children:
            - label: { bind: title, font: "Inter Semi-Bold 17", color: "#000000", lines: 1, name: title }
            - label: { bind: subtitle, font: "Inter 15", color: "#5F6B7A", lines: 2, name: subtitle }
YAML
python3 - "$work/preview/table.yaml" "$rows" <<'PY'
import sys
path, rows = sys.argv[1], int(sys.argv[2])
with open(path, "w") as out:
    out.write("table: { width: 375, scale: 2, style: plain }\ncells: { Card: card.yaml }\nitems:\n")
    for row in range(rows):
        out.write(f'  - {{ type: Card, image: null, title: "Row {row + 1}", subtitle: "A subtitle long enough to wrap onto a second line of the row" }}\n')
PY
echo "a table of $rows rows of one design, $saves saves of the design ($(nproc) cores)"
.venv/bin/python Tests/Browser/preview-page.py "$rowkit" "$work/preview" --bench "$saves" table card.yaml '"#000000"' '"#1A73E8"'
