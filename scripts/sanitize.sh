#!/usr/bin/env bash
# Runs the whole test suite under a sanitizer: `bash scripts/sanitize.sh thread` (data races)
# or `bash scripts/sanitize.sh address` (memory errors). Each builds into its own folder
# (.build-thread, .build-address) so the ordinary build is left alone.
set -euo pipefail
cd "$(dirname "$0")/.."
kind="${1:-}"
case "$kind" in
  thread | address) ;;
  *) echo "usage: bash scripts/sanitize.sh thread|address" >&2; exit 2 ;;
esac
bash scripts/setup.sh --tests
# Reports go to stderr and fail the run; halt_on_error keeps the first report readable.
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1 second_deadlock_stack=1}"
# LeakSanitizer would report the process-lifetime caches (fonts, Pango's and fontconfig's
# own) that are freed only at exit; leaks are checked separately ("Checking for leaks" in
# Sources/RowKit/RowKit.docc/Contributing.md).
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0 halt_on_error=1}"
swift test --sanitize="$kind" --scratch-path ".build-$kind" -Xswiftc -warnings-as-errors
