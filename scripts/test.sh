#!/usr/bin/env bash
# The whole test suite, as CI runs it: set up, check the JSON Schemas against the samples and
# the bad-input fixtures and the library's folders for cycles, then build everything with warnings as errors and run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --tests
.venv/bin/python scripts/check-schemas.py
# The library's folders are layers: a cycle between them fails here, before any build.
python3 scripts/folder-graph.py Sources/RowKit >/dev/null || { python3 scripts/folder-graph.py Sources/RowKit; exit 1; }
swift test -Xswiftc -warnings-as-errors
