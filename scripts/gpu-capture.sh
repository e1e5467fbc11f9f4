#!/usr/bin/env bash
# Issue 22, the GPU half of the recorder check (run on an H100 by the device tool): captures
# every workload x method with the per-warp-slot recorder (one record per reduce call, no global
# counter; sw/include/arc/trace_rec.cuh) on small scenes whose traces come back to be verified
# here (`arcsim verify`: RTL and golden model vs the GPU's partial sums, bit for bit), and on the
# validation-size scenes (results/h100/validation) for the recorder's own cost: the kernel
# untraced, counting calls, recording them (arc_bench prints the three times).
#
# Usage: scripts/gpu-capture.sh OUT_DIR [ARC_BENCH]   (default .devcarry/arc_bench; LD_LIBRARY_PATH
#        gets .devcarry/lib for the shared libraries it needs)
# Output: OUT_DIR/captures.tar.gz (small/*.arctrace, *.log), OUT_DIR/gpu.txt, OUT_DIR/capture.log
set -uo pipefail
out=${1:?OUT_DIR}
bench=${2:-.devcarry/arc_bench}
[ -d .devcarry/lib ] && export LD_LIBRARY_PATH=$(cd .devcarry/lib && pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
w=/tmp/arccap
rm -rf "$w"
mkdir -p "$w/small" "$w/full" "$out"
q=name,driver_version,pstate,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu
nvidia-smi --query-gpu=$q --format=csv > "$out/gpu.txt" 2>&1
fail=0
# capture DIR WORKLOAD METHOD THRESHOLD SIZE PRIMS(0 = default)
capture() {
  local dir=$1 wl=$2 m=$3 thr=$4 size=$5 n=$6
  local prims=(); [ "$n" != 0 ] && prims=(--trace-prims "$n")
  local f="$w/$dir/$wl-$m"
  if "$bench" --trace "$f.arctrace" --trace-workload "$wl" --trace-method "$m" --trace-threshold "$thr" \
       --trace-size "$size" "${prims[@]}" > "$f.log" 2>&1; then
    echo "$dir $(tail -1 "$f.log")"
  else
    echo "$dir $wl/$m FAILED:"; cat "$f.log"; fail=1
  fi
}
# Small scenes at the 1080p benchmark's primitive density (gs 500,000 and pulsar 300,000 per
# 1920x1080); thresholds: the benchmark's best (SW-S gs 16, pulsar 2, tex 1; SW-B 8).
declare -A SMALL=([gs]="64x64 988" [pulsar]="160x90 2083" [tex]="256x144 0")
declare -A XS=([gs]=16 [pulsar]=2 [tex]=1)
{
  for wl in gs pulsar tex; do
    set -- ${SMALL[$wl]}
    capture small "$wl" baseline 1 "$1" "$2"
    capture small "$wl" sws "${XS[$wl]}" "$1" "$2"
    [ "$wl" != pulsar ] && capture small "$wl" swb 8 "$1" "$2"
    capture small "$wl" adaptive 0 "$1" "$2"
  done
  # Validation-size scenes: the recorder's cost at scale (traces not kept).
  capture full gs sws 16 256x160 9877
  capture full gs swb 8 256x160 9877
  capture full pulsar sws 2 960x540 75000
  capture full tex sws 1 1920x1080 0
  rm -f "$w"/full/*.arctrace
} 2>&1 | tee "$out/capture.log"
tar -C "$w" -czf "$out/captures.tar.gz" small full
ls -la "$out"
exit $fail
