# Shared by the benchmark scripts, sourced from the repository's root.

# Installs Debian's package $2 unless the command $1 exists.
require_command() {
  command -v "$1" >/dev/null 2>&1 && return
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$2" >/dev/null
}

# How rowkit and rowkit-review are built to be installed: release, the Swift runtime and
# Foundation linked in statically, and generic types' metadata reached through accessor
# functions rather than mangled names (see "Install the rowkit command" in
# Sources/RowKit/RowKit.docc/GettingStarted.md).
install_flags=(-c release --static-swift-stdlib --scratch-path .build-install
  -Xswiftc -Xfrontend -Xswiftc -disable-concrete-type-metadata-mangled-name-accessors)

# Builds rowkit as it is installed and sets $rowkit to the binary; with ROWKIT_BINARY set,
# uses that binary instead and builds nothing.
build_rowkit() {
  if [ -n "${ROWKIT_BINARY:-}" ]; then rowkit="$ROWKIT_BINARY"; return; fi
  swift build "${install_flags[@]}" --product rowkit >/dev/null 2>&1
  rowkit="$(swift build "${install_flags[@]}" --show-bin-path)/rowkit"
}

# build_rowkit, and `rowkit review`'s server beside it (`rowkit review` runs the
# rowkit-review found beside rowkit); with ROWKIT_BINARY set, that binary's own neighbour.
build_rowkit_review() {
  build_rowkit
  if [ -n "${ROWKIT_BINARY:-}" ]; then return; fi
  swift build "${install_flags[@]}" --product rowkit-review >/dev/null 2>&1
}

# Compiles the C floor (Benchmarks/c-bench/subtitle-rows.c: the same subtitle rows drawn
# straight on Cairo, Pango and a PNG encoder) into the folder $1 and sets $c_floor to it.
build_c_floor() {
  local compiler
  compiler="$(command -v gcc || command -v clang || command -v cc)"
  # shellcheck disable=SC2046
  "$compiler" -O2 -o "$1/subtitle-rows" Benchmarks/c-bench/subtitle-rows.c \
    $(pkg-config --cflags --libs pangocairo pangoft2 fontconfig libpng libisal zlib) -lm
  c_floor="$1/subtitle-rows"
}

time_ms() {  # prints the wall time of one run of "$@" in milliseconds, whatever it exits with
  local start end
  start=$(date +%s%N)
  "$@" >/dev/null 2>&1 || true
  end=$(date +%s%N)
  echo $(( (end - start) / 1000000 ))
}

measure() {  # label, command…: best and median of $runs runs, also left in $best and $median
  local label="$1"; shift
  local times=()
  for _ in $(seq "$runs"); do times+=("$(time_ms "$@")"); done
  summarize "$label" "${times[@]}"
}

summarize() {  # label, times in ms…: prints their best and median, also left in $best and $median
  local label="$1"; shift
  local sorted=($(printf '%s\n' "$@" | sort -n))
  best="${sorted[0]}"
  median="${sorted[$(( ${#sorted[@]} / 2 ))]}"
  printf '%-44s best %5d ms   median %5d ms\n' "$label" "$best" "$median"
}

# Sets $render_flags to what makes `rowkit check` render every case: --no-cache where the
# binary has a render cache (which would pass unchanged cases without rendering them).
render_every_case() {
  render_flags=()
  if "$rowkit" check --help 2>&1 | grep -q -- '--no-cache'; then render_flags=(--no-cache); fi
}
