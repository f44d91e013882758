#!/usr/bin/env bash
# The whole test suite, as CI runs it: set up, then build everything with warnings as
# errors and run every test; then a short fuzz smoke run (every libFuzzer harness of Fuzz/
# for a few seconds on its seed corpus), so that a harness that stops building or a seed
# that crashes is caught here (a debug build: it builds in a third of the time).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --tests
swift test -Xswiftc -warnings-as-errors
FUZZ_BUILD=debug bash scripts/fuzz.sh --smoke 3
