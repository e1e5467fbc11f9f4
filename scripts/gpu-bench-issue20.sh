#!/usr/bin/env bash
# Issues 20 and 23 on the GPU in one call (made for the device tool: builds nothing, <= 8 min on
# an H100): the compute floor (`floor`), gsplat's reduction (`gsplat`, gs only), the transposed
# reduce-scatter (`swt`, `swt-v4`) and the new Adaptive beside Baseline, SW-S, SW-B, CUB, the
# float4 variants and the no-atomics bound, on gs, pulsar and tex at the benchmark sizes, with
# finite differences of every checked method, a repeat pass (run-to-run spread), and trace
# captures of the new methods on small crops (for `arcsim verify` on the CPU machine), two of
# them a pulsar capture taken twice (issue 23: deterministic lane groups). Phase 2 (issue 20's
# to_floor gap): the block-level shared-memory privatization (`shm`, `shm-v4`; pulsar and tex;
# kept as a measured negative result on pulsar, not one of Adaptive's options), Adaptive rule
# v3 (sw/include/arc/reduce.cuh: every match group of >= 2 lanes summed, one emission site, no
# spills) and gs-depth (issue 23: the inverse-depth gradient, 10 values per call);
# Phase 3 (2026-11-27): Adaptive rule v4 (its groups summed by the group tree, all groups at
# once), tex's `regroup` (Baseline's taps with lanes regrouped per texel row: fewer 32 B sectors
# per RED instruction) and pulsar's `tile` (warp-private sums per tile-list place: a measured
# negative result, kept as one); Phase 4 (2026-11-27): Adaptive rule v5, tex's taps as pair calls
# (arc::reduce_pair: Adaptive sends a bilinear row's two taps regrouped, as `regroup` does), with
# tex Baseline and Floor captures that mark the pair calls (the timing model regroups them in
# adaptive mode) beside tex Adaptive's pair-send capture. scripts/adaptive_check.py writes the done-when verdict (adaptive and adaptive-v4 also against
# the fastest row of their own width).
#
# Usage: scripts/gpu-bench-issue20.sh OUT_DIR [ARC_BENCH]
#   ARC_BENCH defaults to .devcarry/arc_bench (built on the CPU machine: nvcc 13.0, sm_90);
#   .devcarry/lib (libzstd.so.1) goes on LD_LIBRARY_PATH.
# Output (8 files): OUT_DIR/bench.{json,csv,log}, OUT_DIR/gpu.txt, OUT_DIR/repeat/bench.{json,csv},
#   OUT_DIR/traces.tar.gz (*.arctrace + capture logs), OUT_DIR/adaptive_check.md (the verdict).
# Exit status: 1 if a step failed; the done-when verdict is in adaptive_check.md, not the status
#   (a failed verdict is a result, not a failed run).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?OUT_DIR}
bin=${2:-$root/.devcarry/arc_bench}
[ -d "$root/.devcarry/lib" ] && export LD_LIBRARY_PATH=$root/.devcarry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
mkdir -p "$out"
# shellcheck source=gpu-common.sh
source "$root/scripts/gpu-common.sh"
status=0
gpu_record_before "$out/gpu.txt" "before"
meta=(--meta "gpu_name=$(gpu_smi name)" --meta "driver=$(gpu_smi driver_version)"
      --meta "clocks_max_sm=$(gpu_smi clocks.max.sm)" --meta "power_limit=$(gpu_smi power.limit)"
      --meta "binary=arc_bench built on the CPU machine (nvcc 13.0, sm_90), scripts/gpu-bench-issue20.sh")

# 1. Every method on every workload in ONE run (each row's speedup, to_bound, to_floor and
#    speedup over gsplat from that run's own rows). Thresholds 1..32 for SW-S / SW-B / SW-T.
#    gs at 1080p on three scene types (issue 23): gs = the uniform fog (gauss-frustum-v1),
#    gs-garden and gs-object = Gaussians on surfaces (gauss-surface-v1), 500,000 each, all with
#    the real codes' separate gradient arrays (scalar atomics); gs-il = the fog with the
#    interleaved 12-word record (the float4 rows); gs-abs = the fog with gsplat's absgrad too
#    (11 values per call into separate arrays). The scene statistics (per-tile counts,
#    blended per pixel, early stops) land in bench.json meta. gs-depth = the fog with the
#    inverse-depth gradient (10 values per call, separate arrays). shm / shm-v4 run on pulsar
#    and tex only (the gs workloads skip them), tile on pulsar only, regroup on tex only.
methods=baseline,floor,gsplat,sws,swb,swt,cub,adaptive,shm,tile,regroup
methods+=,baseline-v4,sws-v4,swb-v4,swt-v4,adaptive-v4,shm-v4,tile-v4,regroup-v4
methods+=,baseline-noatomic,baseline-v4-noatomic
timeout 320 "$bin" --fd --reps 30 --workloads gs,gs-il,gs-garden,gs-object,gs-abs,gs-depth,pulsar,tex \
  --methods "$methods" --out "$out" "${meta[@]}" > "$out/bench.log" 2>&1 || status=1
tail -80 "$out/bench.log"

# 2. The same binary again (subset, fewer thresholds): the run-to-run spread.
mkdir -p "$out/repeat"
timeout 110 "$bin" --no-check --reps 20 --workloads gs,gs-il,gs-garden,pulsar,tex \
  --methods baseline,floor,gsplat,sws,swb,swt,adaptive,baseline-v4,sws-v4,swb-v4,swt-v4,adaptive-v4,regroup-v4,tile-v4 \
  --thresholds 2,12,16 --out "$out/repeat" >> "$out/bench.log" 2>&1 || status=1

# 3. Traces (32x32 crops, 100 primitives; the pulsar pair at 96x64, 889 spheres = the 1080p density, SW-S X=2).
t=$(mktemp -d)
cap() {  # NAME WORKLOAD METHOD THRESHOLD SIZE PRIMS [arc_bench flags...]
  if timeout 10 "$bin" --trace "$t/$1.arctrace" --trace-workload "$2" --trace-method "$3" --trace-threshold "$4" \
       --trace-size "$5" --trace-prims "$6" "${@:7}" "${meta[@]}" > "$t/$1.log" 2>&1; then
    echo "trace $1: $(tail -1 "$t/$1.log")"
  else
    echo "trace $1 FAILED:"; cat "$t/$1.log"; status=1
  fi
}
cap gs-gsplat gs-il gsplat 1 32x32 100 >> "$t/captures.txt"
cap gs-swt gs-il swt 1 32x32 100 >> "$t/captures.txt"
cap gs-adaptive gs-il adaptive 0 32x32 100 >> "$t/captures.txt"
cap gs-garden-swt gs-garden-il swt 1 32x32 100 >> "$t/captures.txt"
cap tex-swt tex swt 1 32x32 100 >> "$t/captures.txt"
cap tex-adaptive tex adaptive 0 32x32 100 >> "$t/captures.txt"
cap pulsar-adaptive pulsar adaptive 0 32x32 100 >> "$t/captures.txt"
cap pulsar-sws-run1 pulsar sws 2 96x64 889 >> "$t/captures.txt"
cap pulsar-sws-run2 pulsar sws 2 96x64 889 >> "$t/captures.txt"
# Adaptive v2 at the 1080p densities (pulsar: divergent groups; tex: its per-lane path).
cap pulsar-adaptive-96 pulsar adaptive 0 96x64 889 >> "$t/captures.txt"
cap tex-adaptive-96 tex adaptive 0 96x64 100 >> "$t/captures.txt"
cap tex-baseline-96 tex baseline 0 96x64 100 >> "$t/captures.txt"
cap tex-floor-96 tex floor 0 96x64 100 --trace-timing-only >> "$t/captures.txt"
cat "$t/captures.txt" | tee -a "$out/bench.log"
tar -C "$t" -czf "$out/traces.tar.gz" . || status=1
rm -rf "$t"

gpu_record_after "$out/gpu.txt" "# nvidia-smi (after)"
ls -la "$out" "$out/repeat"
# Issue 20's "done when" per workload (also in bench.log): Adaptive vs the fastest checked row,
# to_floor, the floor's margin, speedups over gsplat and of swt over swb.
if command -v python3 > /dev/null; then
  python3 "$root/scripts/adaptive_check.py" "$out/bench.json" > "$out/adaptive_check.md" 2>&1
  echo "adaptive_check.py exit status $? (0 = issue 20's done-when holds)" >> "$out/adaptive_check.md"
  tee -a "$out/bench.log" < "$out/adaptive_check.md"
  python3 "$root/scripts/methods_table.py" "$out/bench.json" >> "$out/bench.log" 2>&1
fi
exit $status
