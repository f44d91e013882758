#!/usr/bin/env bash
# The whole test suite, as CI runs it: set up; check each target's folders for cycles; build
# everything (the snippets of Snippets/ too) with warnings as errors; check the JSON Schemas
# (rowkit writes them) against the samples and the bad-input fixtures; run each snippet and
# every test; build the documentation; then a short fuzz smoke run (every libFuzzer harness
# of Fuzz/ for a few seconds on its seed corpus), so that a harness that stops building or a
# seed that crashes is caught here (a debug build: it builds in a third of the time); last,
# rowkit without ISA-L, against the same references.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --tests
# Each target's folders are layers: a cycle between them fails here, before any build.
for target in Sources/RowKit Sources/RowKitGraphics Sources/RowKitSnapshot Sources/RowKitReview Sources/rowkit; do
  python3 scripts/folder-graph.py "$target" >/dev/null || { python3 scripts/folder-graph.py "$target"; exit 1; }
done
# Everything, with warnings as errors: the libraries, rowkit, the tests, and every program of
# Snippets/ (SwiftPM builds each file there as a program of its own; the DocC articles show
# them with @Snippet).
swift build --build-tests -Xswiftc -warnings-as-errors
# The JSON Schemas: Schemas/ is what the rowkit just built writes (`rowkit schema --check`),
# and the samples and bad-input fixtures are judged by them as the decoders judge them.
.venv/bin/python scripts/check-schemas.py
# Each snippet runs, in an empty folder of its own, which goes with what it wrote (a reader
# who runs one keeps its PNGs); one that fails fails here.
bin="$(swift build --show-bin-path)"
scratch=""
trap '[ -z "$scratch" ] || rm -rf "$scratch"' EXIT
for snippet in Snippets/*.swift; do
  name="$(basename "$snippet" .swift)"
  scratch="$(mktemp -d)"
  (cd "$scratch" && "$bin/$name" >/dev/null) || { echo "test: $snippet failed" >&2; exit 1; }
  rm -rf "$scratch"
  scratch=""
done
trap - EXIT
swift test --skip-build
# The text, determinism and snapshot tests once more with the fallbacks: RowKit's hooks into
# Pango refused (every worker shares the fonts under the text lock), which must draw the same
# pixels as the committed references, and OpenSSL refused (SHA-256 in Swift), which must give
# the same digests, so the same render-cache keys and fingerprints.
ROWKIT_PANGO_HOOKS=off ROWKIT_LIBCRYPTO=off swift test --skip-build \
  --filter 'RowKitSnapshotTests|RowKitGraphicsTests|Determinism|ParallelText|SnapshotTests|PangoHooks|OpenSSLDigest'
# The DocC catalogs and every doc comment: a broken symbol link is an error here.
swift package generate-documentation --target RowKit --target RowKitGraphics --target RowKitSnapshot --warnings-as-errors
# Every public symbol of those modules has a summary line of its own: read from the symbol
# graphs the DocC step just extracted into .build, so nothing is built again.
python3 scripts/check-doc-summaries.py --scratch-path .build
# The swift-snapshot-testing integration is a package of its own (RowKit's users never build
# swift-snapshot-testing); its build folder lives inside it, ignored by git.
(cd Integrations/RowKitSnapshotTesting && swift test --scratch-path .build-integration -Xswiftc -warnings-as-errors)
FUZZ_BUILD=debug bash scripts/fuzz.sh --smoke 3
# Without ISA-L: rowkit built without the package's ISAL trait (zlib compresses, inflates and
# checksums PNG data) links no libisal, draws the committed references' pixels, and writes
# PNGs that the default build reads as the same pixels.
swift build --product rowkit --disable-default-traits --scratch-path .build-zlib -Xswiftc -warnings-as-errors
zlib_rowkit="$(swift build --disable-default-traits --scratch-path .build-zlib --show-bin-path)/rowkit"
if ldd "$zlib_rowkit" | grep -q libisal; then echo "test: the build without ISA-L links libisal" >&2; exit 1; fi
root="$PWD"
# Removed however the step ends: a failing check stops the script here.
trap '[ -z "$scratch" ] || rm -rf "$scratch"' EXIT
scratch="$(mktemp -d)"
(
  cd "$scratch"
  # A failure's images stay in the scratch folder, which the trap removes.
  export ROWKIT_SNAPSHOT_ARTIFACTS="$scratch/artifacts"
  "$zlib_rowkit" check "$root/Assets/Samples" --snapshots "$root/Snapshots/Samples" --no-cache
  # References of its own to check with the default build: recorded with CI unset, since a
  # check under CI never records. Recording exits 1 (new references are for review).
  env -u CI "$zlib_rowkit" check "$root/Assets/Samples" --snapshots "$scratch/refs" --record all >/dev/null || [ $? -eq 1 ]
  "$bin/rowkit" check "$root/Assets/Samples" --snapshots "$scratch/refs" --no-cache
)
