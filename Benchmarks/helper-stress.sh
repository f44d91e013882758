#!/usr/bin/env bash
# Many short checks with helper processes, one after another, for a while: how often a check
# (or one of its helpers) dies of a signal. `rowkit check --jobs 8` over 16 cases of 8 rows
# starts 7 helpers, each read through a pipe until it exits; a check's end, when every helper
# exits at once, is where a crash in Dispatch's event loop (SIGSEGV in
# `_dispatch_event_loop_drain`) happened now and then while the pipes were read through
# Dispatch's reading channel.
#
#   bash Benchmarks/helper-stress.sh [seconds]      # default 180
#   ROWKIT_BINARY=path/to/rowkit bash Benchmarks/helper-stress.sh
#
# Prints the checks run, those killed by a signal, those that failed otherwise, those whose
# output mentions a helper (one that stopped before its cases were done is noted), and the
# segfaults the kernel logged meanwhile (from `dmesg`, when it may be read), which count
# helpers too: a helper that dies after its last result leaves no other trace.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-180}"

source Benchmarks/common.sh
build_rowkit
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 Benchmarks/suite/make_cases.py 16 "$work"
# Recording exits 1 (new references are for review); anything else is a failure.
"$rowkit" check "$work/cases" --snapshots "$work/refs" --record all >/dev/null || [ $? -eq 1 ]

segfaults() { dmesg 2>/dev/null | grep -c "segfault" || true; }
before="$(segfaults)"
runs=0 killed=0 failed=0 noted=0
end=$(( $(date +%s) + seconds ))
while [ "$(date +%s)" -lt "$end" ]; do
  status=0
  "$rowkit" check "$work/cases" --snapshots "$work/refs" --jobs 8 --no-cache >/dev/null 2>"$work/stderr" || status=$?
  runs=$((runs + 1))
  if [ "$status" -ge 128 ]; then killed=$((killed + 1)); elif [ "$status" -ne 0 ]; then failed=$((failed + 1)); fi
  if grep -q "helper" "$work/stderr"; then noted=$((noted + 1)); fi
done
after="$(segfaults)"
echo "rowkit check --jobs 8 of 16 cases, $seconds s ($(nproc) cores)"
echo "$runs checks: $killed killed by a signal, $failed failed otherwise, $noted noted a helper"
if dmesg >/dev/null 2>&1; then
  echo "segfaults in the kernel log meanwhile (checks and helpers): $((after - before))"
else
  echo "segfaults in the kernel log: not readable here (dmesg needs root)"
fi
