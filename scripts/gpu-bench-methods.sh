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
# shellcheck source=gpu-common.sh
source "$root/scripts/gpu-common.sh"
bin=${ARC_BENCH_BIN:-}
if [ -z "$bin" ]; then
  gpu_sw_build arc_bench
  bin=$GPU_BUILD/sw/arc_bench
fi
gpu_record_before "$out/gpu.txt" "before"
status=0
methods=baseline,baseline-noatomic,baseline-v4-noatomic,baseline-skip,baseline-clamp,baseline-cas
methods+=,sws,swb,cub,adaptive,sws-cas,swb-cas,adaptive-cas,adaptive-clamp
methods+=,block,block-v4,block-clamp,block-cas,block-cas-clamp
"$bin" --fd --reps 30 --workloads gs,pulsar,tex --methods "$methods" --out "$out" \
  --meta "gpu_name=$(gpu_smi name)" --meta "driver=$(gpu_smi driver_version)" --meta "clocks_max_sm=$(gpu_smi clocks.max.sm)" \
  "$@" 2>&1 | tee "$out/bench.log" || status=1
gpu_record_after "$out/gpu.txt" "# nvidia-smi (after)"
python3 "$root/scripts/methods_table.py" "$out/bench.json" > "$out/table.md" || status=1
exit $status
