#!/usr/bin/env bash
# Issue 17: the RED microbenchmarks (sw/microbench/atomics.cu) at several placements of their
# pattern buffer on one GPU (ARC_MB_OFFSET_MB: the same patterns on other physical pages), on the
# GPU machine; scripts/placement_spread.py then gives each row's spread over the placements.
#   scripts/gpu-microbench-placements.sh OUT_DIR [BINARY]   (BINARY: default .devcarry/arc_microbench,
#   built with nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -Isw/include
#   sw/microbench/atomics.cu -o .devcarry/arc_microbench)
# Writes OUT_DIR/gpu.txt and OUT_DIR/off<MB>[b]/{throughput.csv,clock.csv,run.log} (b: a second
# run at that offset). OFFSETS="0 0 2 ..." overrides the offsets (MB).
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: scripts/gpu-microbench-placements.sh OUT_DIR [BINARY]" >&2; exit 2; }
out=$1
bin=${2:-.devcarry/arc_microbench}
[ -x "$bin" ] || { echo "gpu-microbench-placements.sh: $bin is not an executable (build it with nvcc, see the header)" >&2; exit 2; }
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm --format=csv > "$out/gpu.txt"
for off in ${OFFSETS:-0 0 2 6 14 30 62 126 254 510}; do
  d=$out/off$off
  [ -d "$d" ] && d=${d}b
  mkdir -p "$d"
  ARC_MB_OFFSET_MB=$off timeout -k 5 120 "$bin" "$d" > "$d/run.log" 2>&1
  rm -f "$d/latency.csv" "$d/prims.csv"  # the placement does not move these: not kept
done
