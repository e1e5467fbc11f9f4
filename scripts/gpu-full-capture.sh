#!/usr/bin/env bash
# Issue 16 on the GPU machine, one call (<= 10 min): the benchmark's full-size scenes captured
# with `arc_bench --trace` and simulated there.
#  1. gs (1920x1080, 500,000 Gaussians, Baseline): captured (full form), made timing-only with
#     `arcsim trace strip`, and the timing-only trace simulated in four modes at once, each on
#     its own 2 cores (taskset: baseline, sw-s, sw-b, arc-hw dynamic), each mode's wall time and
#     peak RSS logged, its JSON kept (OUT_DIR/sim-MODE.json).
#  2. pulsar and tex (1920x1080, the benchmark's defaults: 300,000 spheres, 1024x1024 texture),
#     Baseline: captured, stripped, `trace info`.
# The traces stay on the device machine (several GB). OUT_DIR/full.log gets every step's output
# and wall time.
#
# Usage: [SIM_MODES="baseline ..."] [SCENES="pulsar tex"] [TIMING_ONLY=1] [SIM_TIMEOUT=330] [KEEP_DIR=DIR] scripts/gpu-full-capture.sh OUT_DIR [ARC_BENCH] [ARCSIM]
#   SIM_MODES: the gs modes to simulate side by side (default all four; one mode = a clean timing)
#   SCENES: the other scenes to capture (default pulsar tex; "" = none)
#   TIMING_ONLY=1: capture gs in the timing-only form directly (arc_bench --trace-timing-only),
#     no full form and no strip; SIM_TIMEOUT: seconds each mode may run (default 330)
#   KEEP_DIR: write the traces there (default: a new folder under /tmp); they stay either way
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
out=$(cd "$out" && pwd)
if [ -n "${KEEP_DIR:-}" ]; then
  mkdir -p "$KEEP_DIR"
  work=$(cd "$KEEP_DIR" && pwd)
else
  work=$(mktemp -d /tmp/arcsim-full.XXXXXX)
fi
cfg=$root/cosim/configs/h100.toml
TIMEFORMAT='wall %R s, user %U s, sys %S s'
{
  echo "# $(nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader 2>&1); $(nproc) cores"
  if [ "${TIMING_ONLY:-0}" = 1 ]; then
    echo "## capture: gs 1920x1080, 500000 Gaussians, baseline (timing-only form, arc_bench --trace-timing-only)"
    time timeout -k 5 200 "$bench" --trace "$work/gs-t.arctrace" --trace-workload gs --trace-method baseline \
      --trace-size 1920x1080 --trace-prims 500000 --trace-timing-only
    ls -l "$work"
  else
    echo "## capture: gs 1920x1080, 500000 Gaussians, baseline (full form)"
    time timeout -k 5 200 "$bench" --trace "$work/gs.arctrace" --trace-workload gs --trace-method baseline \
      --trace-size 1920x1080 --trace-prims 500000
    ls -l "$work"
    echo "## timing-only form"
    time timeout -k 5 100 "$sim" trace strip "$work/gs.arctrace" -o "$work/gs-t.arctrace"
  fi
  echo "## simulate the timing-only trace: modes ${SIM_MODES:-baseline sw-s sw-b arc-hw} at once, each on its own 2 cores (h100.toml)"
  cpu=0
  for mode in ${SIM_MODES:-baseline sw-s sw-b arc-hw}; do
    ( TIMEFORMAT="mode $mode: wall %R s, user %U s, sys %S s"
      time timeout -k 5 ${SIM_TIMEOUT:-330} taskset -c $cpu,$((cpu + 1)) "$sim" sim --config "$cfg" --trace "$work/gs-t.arctrace" \
        --mode "$mode" --json --host-cost > "$out/sim-$mode.json" 2> "$work/sim-$mode.err"
      echo "mode $mode: exit $?" ) 2>&1 &
    cpu=$((cpu + 2))
  done
  wait
  for mode in ${SIM_MODES:-baseline sw-s sw-b arc-hw}; do
    echo "### $mode"; cat "$work/sim-$mode.err"
    python3 - "$out/sim-$mode.json" <<'PY'
import json, sys
try:
    j = json.load(open(sys.argv[1]))
except Exception as e:
    print(f"no JSON: {e}"); sys.exit(0)
for r, h in zip(j.get("runs", []), j.get("host_cost", {}).get("runs", [])):
    print(f"{r['mode']}: cycles {r['total_cycles']}, L2 requests {r['requests_to_l2']}, cpu {h['cpu_seconds']:.1f} s, "
          f"peak RSS {h['peak_rss_mb']:.0f} MB, read ahead {h['read_ahead_instructions']} instructions "
          f"({h['read_ahead_bytes'] / 1e6:.1f} MB)")
hc = j.get('host_cost', {})
print(f"first pass {hc.get('first_pass_cpu_seconds', 0):.1f} cpu s" + (" (the warp table: no pass)" if hc.get('warp_table') else ""))
PY
  done
  for w in ${SCENES-pulsar tex}; do
    echo "## capture: $w 1920x1080, baseline (full form), strip, info"
    prims=300000
    time timeout -k 5 120 "$bench" --trace "$work/$w.arctrace" --trace-workload $w --trace-method baseline \
      --trace-size 1920x1080 --trace-prims $prims
    time timeout -k 5 60 "$sim" trace strip "$work/$w.arctrace" -o "$work/$w-t.arctrace"
    timeout -k 5 60 "$sim" trace info "$work/$w-t.arctrace" | grep -E "^(trace|kernel|instructions|lane updates|warps|size|launch)"
  done
  ls -l "$work"
} > "$out/full.log" 2>&1
cat "$out/full.log"
