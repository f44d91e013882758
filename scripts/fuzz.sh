#!/usr/bin/env bash
# Runs RowKit's libFuzzer harnesses (Fuzz/Package.swift; issue 11).
#
#   bash scripts/fuzz.sh --list                 the targets
#   bash scripts/fuzz.sh TARGET SECONDS [ARGS]  build, then fuzz TARGET for SECONDS
#   bash scripts/fuzz.sh TARGET --runs N [ARGS] build, then fuzz TARGET for N executions
#   bash scripts/fuzz.sh --smoke [SECONDS]      build, then each target for SECONDS (3)
#   bash scripts/fuzz.sh --build                build only
#
# Each run starts from a copy of Fuzz/Corpus/TARGET in a temporary folder (the committed
# corpus never grows; the copy is removed afterwards), with -timeout=10 (a hang) and
# -rss_limit_mb=2048 (a memory blow-up), and prints libFuzzer's execution count and speed.
# Anything found is kept under .build-fuzzer/findings/TARGET/ (ignored by git; not
# .build-fuzzer/artifacts/, which SwiftPM empties), named in the output, and the script
# exits 1. Reproduce one with
#   .build-fuzzer/release/TARGET .build-fuzzer/findings/TARGET/crash-…
# Extra ARGS go to libFuzzer (e.g. -seed=1, -only_ascii=1). FUZZ_BUILD=debug builds and
# runs a debug build (faster to build, slower to run) instead of a release one.
set -euo pipefail
cd "$(dirname "$0")/.."

targets=(document-yaml document-json stylesheet design markup png jpeg webp compare)
scratch=.build-fuzzer
# release (default): the harnesses run several times faster; debug builds in less time,
# which is what the smoke run of scripts/test.sh wants.
configuration=${FUZZ_BUILD:-release}
case "$configuration" in
  debug | release) ;;
  *) echo "fuzz: FUZZ_BUILD is debug or release, not '$configuration'" >&2; exit 2 ;;
esac

usage() {
  sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

build() {
  # SwiftPM hands `--sanitize=fuzzer --sanitize=address` to the compiler as two flags, and
  # swiftc keeps only the last, so without the -Xswiftc line nothing would be instrumented
  # for coverage (libFuzzer would run blind on 3,000 counters of C code instead of 100,000).
  swift build -c "$configuration" --package-path Fuzz --scratch-path "$scratch" \
    --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address \
    -Xswiftc -warnings-as-errors >&2
}

dictionary_for() {
  case "$1" in
    document-yaml | document-json | stylesheet | design) echo "Fuzz/Dictionaries/yaml.dict" ;;
    markup) echo "Fuzz/Dictionaries/markup.dict" ;;
  esac
}

# run TARGET LIMIT-FLAG [ARGS…]: one fuzzing session; prints a summary line.
run() {
  local target=$1 limit=$2
  shift 2
  local binary="$scratch/$configuration/$target"
  local work artifacts dict
  work=$(mktemp -d "${TMPDIR:-/tmp}/rowkit-fuzz-$target.XXXXXX")
  artifacts="$scratch/findings/$target"
  mkdir -p "$artifacts"
  cp -R "Fuzz/Corpus/$target/." "$work/corpus"
  local flags=(-timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -detect_leaks=0
    -artifact_prefix="$artifacts/" "$limit")
  dict=$(dictionary_for "$target")
  if [ -n "$dict" ]; then flags+=(-dict="$dict"); fi
  local before status=0
  before=$(ls "$artifacts" | wc -l)
  # LeakSanitizer is off: fontconfig's, Pango's and the font caches live for the process
  # and would be reported as leaks of the first input. Memory growth is caught by the RSS
  # limit instead.
  # Swift's own backtracer is off: it waits for a key on a terminal, and its crash
  # handler trips AddressSanitizer; libFuzzer and ASan print the stack instead.
  SWIFT_BACKTRACE=enable=no ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" "$binary" "${flags[@]}" "$@" "$work/corpus" </dev/null >"$work/log" 2>&1 || status=$?
  local execs speed rss
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log" | tail -1)
  speed=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work/log" | tail -1)
  rss=$(sed -n 's/^stat::peak_rss_mb: *//p' "$work/log" | tail -1)
  local found
  found=$(($(ls "$artifacts" | wc -l) - before))
  printf '%-14s %10s executions  %6s exec/s  peak RSS %5s MB  exit %s\n' \
    "$target" "${execs:-?}" "${speed:-?}" "${rss:-?}" "$status"
  if [ "$status" -ne 0 ] || [ "$found" -gt 0 ]; then
    # The report: from libFuzzer's or the sanitizer's first line about the finding.
    grep -n -m1 -E '^==[0-9]+==|^ERROR:|Fatal error|deadly signal|ALARM|out-of-memory' "$work/log" >/dev/null &&
      sed -n "$(grep -n -m1 -E '^==[0-9]+==|Fatal error|deadly signal|ALARM|out-of-memory' "$work/log" | cut -d: -f1),\$p" "$work/log" | head -60 >&2
    echo "fuzz: $target found something; artifacts in $artifacts:" >&2
    ls -t "$artifacts" | head -5 | sed "s|^|  $artifacts/|" >&2
    rm -rf "$work"
    return 1
  fi
  rm -rf "$work"
}

case "${1:-}" in
  --list) printf '%s\n' "${targets[@]}" ;;
  --build) build ;;
  --smoke)
    seconds=${2:-3}
    build
    failed=0
    for target in "${targets[@]}"; do run "$target" "-max_total_time=$seconds" || failed=1; done
    exit $failed
    ;;
  "" | -h | --help) usage ;;
  *)
    target=$1
    [[ " ${targets[*]} " == *" $target "* ]] || { echo "fuzz: no target '$target' (see --list)" >&2; exit 2; }
    if [ "${2:-}" = "--runs" ]; then
      [[ "${3:-}" =~ ^[0-9]+$ ]] || usage
      limit="-runs=$3"
      shift 3
    else
      [[ "${2:-}" =~ ^[0-9]+$ ]] || usage
      limit="-max_total_time=$2"
      shift 2
    fi
    build
    run "$target" "$limit" "$@"
    ;;
esac
