#!/usr/bin/env bash
# Issue 16 on the GPU machine, one call (<= 10 min): the benchmark's full 1080p gs backward pass
# (1920x1080, 500,000 Gaussians, Baseline) captured with `arc_bench --trace`, its timing-only
# form made with `arcsim trace strip`, and the timing-only trace simulated there on 2 cores
# (taskset) in baseline mode. The traces stay on the device machine (several GB); OUT_DIR/full.log
# gets the capture's and the simulation's output and wall times.
#
# Usage: scripts/gpu-full-capture.sh OUT_DIR [ARC_BENCH] [ARCSIM]
#   defaults .devcarry/arc_bench (nvcc 13.0, sm_90) and .devcarry/arcsim (stripped; its shared
#   libraries in .devcarry/lib).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?OUT_DIR}
bench=${2:-$root/.devcarry/arc_bench}
sim=${3:-$root/.devcarry/arcsim}
[ -d "$root/.devcarry/lib" ] && export LD_LIBRARY_PATH=$root/.devcarry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
mkdir -p "$out"
work=$(mktemp -d /tmp/arcsim-full.XXXXXX)
TIMEFORMAT='wall %R s, user %U s, sys %S s'
{
  echo "# $(nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader 2>&1); $(nproc) cores"
  echo "## capture: gs 1920x1080, 500000 Gaussians, baseline (full form)"
  time timeout -k 5 200 "$bench" --trace "$work/gs.arctrace" --trace-workload gs --trace-method baseline \
    --trace-size 1920x1080 --trace-prims 500000
  ls -l "$work"
  echo "## timing-only form"
  time timeout -k 5 100 "$sim" trace strip "$work/gs.arctrace" -o "$work/gs-t.arctrace"
  echo "## simulate the timing-only trace on 2 cores: arcsim sim --mode baseline (h100.toml)"
  time timeout -k 5 230 taskset -c 0,1 "$sim" sim --config "$root/cosim/configs/h100.toml" \
    --trace "$work/gs-t.arctrace" --mode baseline
  echo "exit $?"
} > "$out/full.log" 2>&1
cat "$out/full.log"
