#!/usr/bin/env bash
# The whole test suite, as CI runs it: set up, check the JSON Schemas against the samples and
# the bad-input fixtures, then build everything with warnings as errors and run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --tests
.venv/bin/python scripts/check-schemas.py
swift test -Xswiftc -warnings-as-errors
