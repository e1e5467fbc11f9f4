#!/usr/bin/env bash
# Issue 11's method comparison on every workload (gs, pulsar, tex) in one command: the
# block-level tree, CAS-loop adds, clamping, the empty-warp skip and the no-atomics bound,
# beside Baseline and the best warp-level methods, all timed in ONE run so that each
# method's fraction of the way to the bound uses that run's own Baseline and bound.
# Builds arc_bench (unless ARC_BENCH_BIN names a built one), records nvidia-smi, runs the
# finite-difference checks and the benchmark, and writes the markdown table
# (scripts/methods_table.py). Usage: scripts/gpu-bench-methods.sh [OUT_DIR=results/h100/methods]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/results/h100/methods}
shift || true
mkdir -p "$out"
bin=${ARC_BENCH_BIN:-}
if [ -z "$bin" ]; then
  build=${ARCSIM_BUILD_DIR:-$root/build-gpu}
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
        -DARCSIM_SW_CHECK_ARCHS= || exit 1
  cmake --build "$build" --target arc_bench -j "${ARCSIM_JOBS:-$(nproc)}" || exit 1
  bin=$build/sw/arc_bench
fi
q=name,driver_version,pstate,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem,power.limit,temperature.gpu
smi() { nvidia-smi --query-gpu="$1" --format=csv,noheader 2>/dev/null | head -1 | sed 's/^ *//'; }
{ echo "# nvidia-smi --query-gpu=$q (before)"; nvidia-smi --query-gpu=$q --format=csv; } > "$out/gpu.txt" 2>&1
status=0
methods=baseline,baseline-noatomic,baseline-v4-noatomic,baseline-skip,baseline-clamp,baseline-cas
methods+=,sws,swb,cub,adaptive,sws-cas,swb-cas,adaptive-cas,adaptive-clamp
methods+=,block,block-v4,block-clamp,block-cas,block-cas-clamp
"$bin" --fd --reps 30 --workloads gs,pulsar,tex --methods "$methods" --out "$out" \
  --meta "gpu_name=$(smi name)" --meta "driver=$(smi driver_version)" --meta "clocks_max_sm=$(smi clocks.max.sm)" \
  "$@" 2>&1 | tee "$out/bench.log" || status=1
{ echo "# nvidia-smi (after)"; nvidia-smi --query-gpu=$q --format=csv,noheader; } >> "$out/gpu.txt" 2>&1
python3 "$root/scripts/methods_table.py" "$out/bench.json" > "$out/table.md" || status=1
exit $status
