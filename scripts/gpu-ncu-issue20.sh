#!/usr/bin/env bash
# Issue 20: what bounds the backward kernels, read from the H100's counters (Nsight Compute,
# clocks left alone). One launch per row: tex Baseline-v4 against regroup-v4 (L2 requests and
# sectors of the REDs, the L2's busiest units), pulsar's floor, the no-atomics bound,
# Baseline-v4, SW-S-v4 at X = 2 and 32, Adaptive-v4 and tile-v4 (warp instructions, SM and L2
# throughput, RED requests). Made for the device tool; builds nothing.
# Usage: scripts/gpu-ncu-issue20.sh OUT_DIR [ARC_BENCH]   (writes OUT_DIR/ncu-{tex,pulsar}.log)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?OUT_DIR}
bin=${2:-$root/.devcarry/arc_bench}
mkdir -p "$out"
command -v ncu > /dev/null || { echo "ncu not found" >&2; exit 1; }
status=0
tex_metrics=gpu__time_duration.sum,lts__t_requests_srcunit_tex_op_red.sum,lts__t_sectors_srcunit_tex_op_red.sum
tex_metrics+=,l1tex__t_requests_pipe_lsu_mem_global_op_red.sum,smsp__inst_executed.sum
tex_metrics+=,breakdown:lts__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed
timeout 200 ncu --clock-control none -k regex:backward --metrics "$tex_metrics" "$bin" --no-check --reps 1 --warmup 0 \
  --workloads tex --methods baseline-v4,regroup-v4 --out "$out/ncu-tex-bench" > "$out/ncu-tex.log" 2>&1 || status=1
p_metrics=gpu__time_duration.sum,smsp__inst_executed.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed
p_metrics+=,lts__throughput.avg.pct_of_peak_sustained_elapsed,lts__t_requests_srcunit_tex_op_red.sum
timeout 300 ncu --clock-control none -k regex:backward --metrics "$p_metrics" "$bin" --no-check --reps 1 --warmup 0 \
  --workloads pulsar --methods floor,baseline-v4-noatomic,baseline-v4,sws-v4,adaptive-v4,tile-v4 --thresholds 2,32 \
  --opt-thresholds 2,32 --out "$out/ncu-pulsar-bench" > "$out/ncu-pulsar.log" 2>&1 || status=1
rm -rf "$out/ncu-tex-bench" "$out/ncu-pulsar-bench"
for f in "$out"/ncu-*.log; do
  echo "== $f"; grep -vE '^==PROF==|Warning' "$f" | grep -E 'backward|__' | sed 's/ \{2,\}/ /g'
done
exit $status
