#!/usr/bin/env bash
# What this machine gives two processes at once, before any of RowKit's own work: the ceiling
# that `rowkit check --jobs 2` is measured against. Two small C programs, each run alone and
# then as two copies at once, a few rounds in turn:
#   - a loop of multiplications in registers (the processors' own speed);
#   - copies back and forth between two buffers of each size given (memory: within the
#     caches, both copies keep their speed; past the shared cache, they share memory's).
#
#   bash Benchmarks/host-scaling.sh [rounds] [buffer sizes in KB...]   # default 3; 1024 8192 16384
#
# Prints, for each program, the time alone and two at once (best of the rounds) and the
# throughput of two against one: 2.00× is two processors that do not slow each other.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${1:-3}"
shift || true
sizes=("${@:-}")
[ -n "${sizes[0]}" ] || sizes=(1024 8192 16384)

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
compiler="$(command -v gcc || command -v clang || command -v cc)"
cat > "$work/spin.c" <<'EOF'
#include <stdint.h>
int main(void) {
  volatile uint64_t sink;
  uint64_t a = 1;
  for (uint64_t i = 0; i < 400000000ULL; i++) a = a * 6364136223846793005ULL + 1442695040888963407ULL;
  sink = a;
  return (int)(sink & 1);
}
EOF
cat > "$work/copy.c" <<'EOF'
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv) {
  size_t n = (size_t)atol(argv[1]) * 1024;
  char *a = malloc(n), *b = malloc(n);
  memset(a, 1, n);
  memset(b, 2, n);
  long passes = (long)(4L * 1024 * 1024 * 1024 / n);  /* 4 GB copied, whatever the size */
  for (long i = 0; i < passes; i++) memcpy(i & 1 ? a : b, i & 1 ? b : a, n);
  return a[5] + b[7] == 0;
}
EOF
"$compiler" -O2 -o "$work/spin" "$work/spin.c"
"$compiler" -O2 -o "$work/copy" "$work/copy.c"

ms_of() { local start end; start=$(date +%s%N); "$@"; end=$(date +%s%N); echo $(( (end - start) / 1000000 )); }
both() { "$@" & "$@"; wait; }
measure() {  # label, command...
  local label="$1" alone=() together=()
  shift
  for _ in $(seq "$rounds"); do
    alone+=("$(ms_of "$@")")
    together+=("$(ms_of both "$@")")
  done
  local a b
  a="$(printf '%s\n' "${alone[@]}" | sort -n | head -1)"
  b="$(printf '%s\n' "${together[@]}" | sort -n | head -1)"
  awk -v l="$label" -v a="$a" -v b="$b" \
    'BEGIN { printf "%-38s alone %6d ms   two at once %6d ms   %.2f× the throughput of one\n", l, a, b, 2 * a / b }'
}

echo "two processes at once on this machine ($(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)), best of $rounds rounds"
measure "arithmetic in registers" "$work/spin"
for size in "${sizes[@]}"; do
  measure "copies between two $size KB buffers" "$work/copy" "$size"
done
