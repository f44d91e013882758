#!/usr/bin/env bash
# `rowkit review` of a large report in a real browser: Debian's Chromium driven by Playwright
# (from .venv: bash scripts/setup.sh --tests). CASES failed cases, GROUP of them one group;
# prints, best and median of RUNS runs, the server's start, the page opened until the first
# case is shown, the group accepted, and that accept undone. See Benchmarks/review-bench.py.
#
#   bash Benchmarks/review-bench.sh [cases] [group] [runs]      # default 2000 cases, 500, 3 runs
set -euo pipefail
cd "$(dirname "$0")/.."
cases="${1:-2000}"
group="${2:-500}"
runs="${3:-3}"

source Benchmarks/common.sh
[ -x .venv/bin/python ] && .venv/bin/python -c 'import playwright' 2>/dev/null || {
  echo "review-bench: Playwright is not in .venv: run bash scripts/setup.sh --tests" >&2
  exit 2
}
build_rowkit_review
.venv/bin/python Benchmarks/review-bench.py "$rowkit" "$cases" "$group" "$runs"
