#!/usr/bin/env bash
# Reproduces the ARC-SW GPU benchmark on an NVIDIA GPU (made for the H100, sm_90) in one
# command: builds arc_bench (unless ARC_BENCH_BIN names a built one), records the GPU
# (nvidia-smi: name, driver, clocks), checks Baseline's SASS for per-lane atomics, runs the
# finite-difference checks and the benchmark (every method vs Baseline), captures traces,
# and plots. Usage: scripts/gpu-bench.sh [OUT_DIR=results/h100] [extra arc_bench options]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/results/h100}
shift || true
mkdir -p "$out"
# shellcheck source=gpu-common.sh
source "$root/scripts/gpu-common.sh"
bin=${ARC_BENCH_BIN:-}
if [ -z "$bin" ]; then
  gpu_sw_build arc_bench arc_train
  bin=$GPU_BUILD/sw/arc_bench
fi
status=0

# 1. The GPU as found (clocks are read, never set).
gpu_record_before "$out/gpu.txt" "before the benchmark"
smi() { gpu_smi "$1"; }
meta=(--meta "gpu_name=$(smi name)" --meta "driver=$(smi driver_version)"
      --meta "clocks_sm_mhz_idle=$(smi clocks.sm)" --meta "clocks_max_sm=$(smi clocks.max.sm)"
      --meta "clocks_mem=$(smi clocks.mem)" --meta "power_limit=$(smi power.limit)"
      --meta "nvcc=$( (nvcc --version 2>/dev/null || /usr/local/cuda/bin/nvcc --version) | tail -1)")

# 2. SASS: per kernel, the atomic and warp-collective instructions the compiler emitted.
cuobjdump=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
if [ -x "$cuobjdump" ]; then
  "$cuobjdump" -sass "$bin" | awk '
    /Function :/ { if (f) print f, n["REDG"]+0, n["ATOMG"]+0, n["MATCH"]+0, n["VOTE"]+0, n["SHFL"]+0, n["REDUX"]+0;
                   f = $3; delete n }
    /REDG|ATOMG|MATCH|VOTE|SHFL|REDUX/ {
      if ($0 ~ /REDG/) n["REDG"]++; if ($0 ~ /ATOMG/) n["ATOMG"]++; if ($0 ~ /MATCH/) n["MATCH"]++;
      if ($0 ~ /VOTE/) n["VOTE"]++; if ($0 ~ /SHFL/) n["SHFL"]++; if ($0 ~ /REDUX/) n["REDUX"]++ }
    END { if (f) print f, n["REDG"]+0, n["ATOMG"]+0, n["MATCH"]+0, n["VOTE"]+0, n["SHFL"]+0, n["REDUX"]+0 }' |
    { echo "kernel REDG ATOMG MATCH VOTE SHFL REDUX"; grep backward_kernel; } > "$out/sass.txt"
  # The Baseline kernels' atomic lines verbatim (what one lane's update compiles to).
  "$cuobjdump" -sass "$bin" | awk '/Function :/ {keep = ($0 ~ /MethodE0ELi1E/)} keep && /REDG|ATOMG|MATCH|REDUX/' \
    | sed 's/^ *//' | sort | uniq -c | sort -rn | head -20 >> "$out/sass.txt"
else
  echo "cuobjdump not found: SASS not checked" > "$out/sass.txt"
fi

# 3. Finite differences (tiny scenes) + the benchmark at full size.
# Issue 11 adds: the block-level tree (block*; pulsar walks its tile list for it, tex falls back where a block names several texels), CAS-loop adds (*-cas), gradient
# clamping (*-clamp; checked against clamped Baseline), Baseline with the empty-warp skip, and
# the no-atomics bound (baseline-noatomic*: racy plain adds, a timing bound whose gradients are
# WRONG by construction; never checked, labelled in every table).
methods=baseline,sws,swb,cub,adaptive,block,baseline-v4,sws-v4,swb-v4,adaptive-v4,block-v4
methods+=,baseline-cas,sws-cas,swb-cas,cub-cas,adaptive-cas,block-cas,block-cas-clamp
methods+=,baseline-clamp,swb-clamp,adaptive-clamp,block-clamp,baseline-skip
methods+=,baseline-noatomic,baseline-v4-noatomic
"$bin" --fd --reps 30 --methods "$methods" --out "$out" "${meta[@]}" "$@" 2>&1 | tee "$out/bench.log" || status=1
# The same build timed a second time (a subset, its own folder): the run-to-run spread.
mkdir -p "$out/repeat"
"$bin" --no-check --reps 30 --methods baseline,swb,cub,adaptive,swb-v4,adaptive-v4 --thresholds 4,8,12,16 \
       --out "$out/repeat" "$@" >> "$out/bench.log" 2>&1 || status=1

# 4. Traces: every workload x method on a cropped frame (32x32 pixels, 100 primitives) into
#    $ARC_TRACE_DIR (default OUT/traces); the 3DGS SW-S one is also OUT/gs-sws.arctrace, the
#    fixture committed as tests/data/gs-sws-h100.arctrace.
tdir=${ARC_TRACE_DIR:-$out/traces}
mkdir -p "$tdir"
for w in gs pulsar tex; do
  for m in baseline sws swb cub adaptive; do
    [ "$w" = pulsar ] && { [ "$m" = swb ] || [ "$m" = cub ]; } && continue
    "$bin" --trace "$tdir/$w-$m.arctrace" --trace-workload "$w" --trace-method "$m" \
           --trace-threshold 1 --trace-size 32x32 --trace-prims 100 "${meta[@]}" 2>&1 | tee -a "$out/bench.log" \
      || status=1
  done
done
cp "$tdir/gs-sws.arctrace" "$out/gs-sws.arctrace" 2>/dev/null || status=1

gpu_record_after "$out/gpu.txt" "# nvidia-smi --query-gpu=$GPU_QUERY (after the benchmark)"

# 5. Plot (matplotlib; on a machine without it run scripts/plot_bench.py later).
if [ -z "${ARC_NO_PLOT:-}" ] && python3 -c "import matplotlib" 2>/dev/null; then
  python3 "$root/scripts/plot_bench.py" "$out/bench.json" "$out/bench.png" || status=1
fi
exit $status
