#!/usr/bin/env bash
# Build the libFuzzer targets with clang (+ASan/UBSan) in build-fuzz/ and run them over the
# committed corpus (tests/fuzz/corpus/<target>/): the trace reader, the GPU-config loader, and
# the timing path's host adder against MPFR (fp32_native).
#   scripts/fuzz.sh --smoke        each target for 20,000 runs (CI)
#   scripts/fuzz.sh --runs N       each target for N runs; new inputs go to build-fuzz/corpus-new/
#   scripts/fuzz.sh --merge        minimize build-fuzz/corpus-new into the committed corpus
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${ARCSIM_FUZZ_BUILD_DIR:-$root/build-fuzz}
runs=20000; merge=0
case "${1:---smoke}" in
  --smoke) ;;
  --runs) runs=${2:?--runs needs a count} ;;
  --merge) merge=1 ;;
  *) echo "usage: fuzz.sh [--smoke | --runs N | --merge]" >&2; exit 2 ;;
esac
command -v clang++ >/dev/null || { echo "fuzz.sh: clang++ not found (Debian package clang)" >&2; exit 2; }
CC=clang CXX=clang++ cmake -S "$root" -B "$build" -DARCSIM_FUZZ=ON -DARCSIM_CUDA=OFF \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" --target fuzz_trace_reader fuzz_gpu_config fuzz_fp32_native trace_to_recipe -j "${ARCSIM_JOBS:-$(nproc)}" >/dev/null
total_fail=0
targets=(trace_reader gpu_config fp32_native)
for t in "${targets[@]}"; do
  corpus="$root/tests/fuzz/corpus/$t"
  new="$build/corpus-new/$t"
  mkdir -p "$new"
  if [ "$merge" = 1 ]; then
    "$build/tests/fuzz/fuzz_$t" -merge=1 "$corpus" "$new"
    continue
  fi
  log="$build/fuzz_$t.log"
  if "$build/tests/fuzz/fuzz_$t" -runs="$runs" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
       -print_final_stats=1 "$new" "$corpus" >"$log" 2>&1; then
    execs=$(grep -m1 'stat::number_of_executed_units' "$log" | awk '{print $2}')
    echo "fuzz_$t: ${execs:-?} executions, 0 crashes"
  else
    echo "fuzz_$t: FAILED (see $log)"; tail -40 "$log"; total_fail=$((total_fail + 1))
  fi
done
[ "$merge" = 1 ] && exit 0
echo "fuzz: $((${#targets[@]} - total_fail)) passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
