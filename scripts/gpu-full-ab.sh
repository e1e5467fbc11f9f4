#!/usr/bin/env bash
# Issue 16 on the GPU machine, one call: two arcsim builds on the same full 1080p gs capture,
# one after the other on the same machine. The capture (arc_bench, timing-only form) is made
# first unless TRACE already exists. Each build then simulates it in four modes at once, each
# mode on its own 2 cores (taskset: baseline, sw-s, sw-b, arc-hw dynamic), like
# gpu-full-capture.sh; OUT_DIR/ab.log gets each mode's wall time and cycles per build, and
# whether the two builds' runs agree (every statistic but the host costs and lsu_full_rejects,
# whose definition changed at 8519ea1: per port and cycle). Build B's JSON runs are copied to
# OUT_DIR (sim-MODE.json); the rest stays beside the trace.
#
# ALONE=1: instead, one run at a time on 2 cores, per mode a b a b (no neighbour runs sharing
# the caches): a cleaner timing than four at once; ORDER changes that sequence (e.g. ORDER=b:
# build b once per mode). MODES: the modes (default all four).
#
# Usage: [ALONE=1 [ORDER="a b a b"]] [MODES="..."] scripts/gpu-full-ab.sh OUT_DIR ARCSIM_A ARCSIM_B [ARC_BENCH] [TRACE]
#   defaults: ARC_BENCH .devcarry/arc_bench, TRACE /tmp/keep/gs-t.arctrace; shared libraries
#   from .devcarry/lib.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?OUT_DIR}
sim_a=${2:?ARCSIM_A}
sim_b=${3:?ARCSIM_B}
bench=${4:-$root/.devcarry/arc_bench}
trace=${5:-/tmp/keep/gs-t.arctrace}
[ -d "$root/.devcarry/lib" ] && export LD_LIBRARY_PATH=$root/.devcarry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
mkdir -p "$out" "$(dirname "$trace")"
work=$(mktemp -d "$(dirname "$trace")/ab.XXXXXX")
cfg=$root/cosim/configs/h100.toml
modes=${MODES:-baseline sw-s sw-b arc-hw}
{
  echo "# $(nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader 2>&1); $(nproc) cores"
  if [ ! -f "$trace" ]; then
    echo "## capture: gs 1920x1080, 500000 Gaussians, baseline (timing-only form)"
    TIMEFORMAT='capture: wall %R s'
    time timeout -k 5 200 "$bench" --trace "$trace" --trace-workload gs --trace-method baseline \
      --trace-size 1920x1080 --trace-prims 500000 --trace-timing-only
  fi
  "$sim_b" trace info "$trace" | head -3
  if [ "${ALONE:-0}" = 1 ]; then
    echo "## one run at a time on cores 2-3, per mode builds ${ORDER:-a b a b} (h100.toml)"
    for mode in $modes; do
      for build in ${ORDER:-a b a b}; do
        sim=$sim_a
        [ $build = b ] && sim=$sim_b
        TIMEFORMAT="build $build mode $mode: wall %R s, user %U s"
        time timeout -k 5 330 taskset -c 2,3 "$sim" sim --config "$cfg" --trace "$trace" \
          --mode "$mode" --json --host-cost > "$work/$build-$mode.json" 2> "$work/$build-$mode.err"
      done
    done
  fi
  for build in a b; do
    [ "${ALONE:-0}" = 1 ] && break
    sim=$sim_a
    [ $build = b ] && sim=$sim_b
    echo "## build $build ($sim): modes $modes at once, each on its own 2 cores (h100.toml)"
    cpu=0
    for mode in $modes; do
      ( TIMEFORMAT="build $build mode $mode: wall %R s, user %U s"
        time timeout -k 5 330 taskset -c $cpu,$((cpu + 1)) "$sim" sim --config "$cfg" --trace "$trace" \
          --mode "$mode" --json --host-cost > "$work/$build-$mode.json" 2> "$work/$build-$mode.err"
        echo "build $build mode $mode: exit $?" ) 2>&1 &
      cpu=$((cpu + 2))
    done
    wait
  done
  echo "## agreement (every statistic of each run but host_cost and lsu_full_rejects)"
  python3 - "$work" $modes <<'PY'
import json, sys
out, modes = sys.argv[1], sys.argv[2:]
def strip(o):
    if isinstance(o, dict):
        return {k: strip(v) for k, v in o.items() if k not in ("host_cost", "lsu_full_rejects")}
    if isinstance(o, list):
        return [strip(v) for v in o]
    return o
import os
for m in modes:
    if not os.path.exists(f"{out}/a-{m}.json"):
        b = json.load(open(f"{out}/b-{m}.json"))["runs"][0]
        print(f"{m}: cycles {b['total_cycles']} (build b only)")
        continue
    a, b = (json.load(open(f"{out}/{x}-{m}.json")) for x in "ab")
    ra, rb = a["runs"][0], b["runs"][0]
    same = strip(a["runs"]) == strip(b["runs"])
    print(f"{m}: cycles {ra['total_cycles']} vs {rb['total_cycles']}, "
          f"cpu {a['host_cost']['runs'][0]['cpu_seconds']:.1f} vs {b['host_cost']['runs'][0]['cpu_seconds']:.1f} s, "
          f"{'identical' if same else 'DIFFERENT'}")
PY
  for mode in $modes; do cp "$work/b-$mode.json" "$out/sim-$mode.json"; done
} 2>&1 | tee "$out/ab.log"
