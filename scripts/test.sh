#!/usr/bin/env bash
# The whole test suite, as CI runs it: set up, then build everything with warnings as
# errors and run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --tests
swift test -Xswiftc -warnings-as-errors
