#!/usr/bin/env bash
# Issue 16: one full-size trace simulated in each mode, one mode at a time on this machine's
# cores (the fast level; each mode alone, so its wall time is the mode's own), logging wall
# time, CPU time, the summary (the trace's warp table, or a first pass over an older trace) and
# peak RSS per mode. cosim/sim/BENCHMARK.md quotes the log.
#   scripts/bench-full-trace.sh TRACE OUT_DIR [MODES...]   (default: baseline sw-s sw-b arc-hw)
# OUT_DIR gets sim-MODE.json (arcsim sim --json --host-cost) and bench.log. ARCSIM_BUILD_DIR: the
# folder of the arcsim to time (default build/); BUILD_LABEL: how the log names it (default the
# checkout's commit).
set -euo pipefail
case "${1:-}" in -h|--help) sed -n 2,9p "$0"; exit 0 ;; esac
root=$(cd "$(dirname "$0")/.." && pwd)
trace=${1:?TRACE}
out=${2:?OUT_DIR}
shift 2
modes=${*:-baseline sw-s sw-b arc-hw}
sim=${ARCSIM_BUILD_DIR:-$root/build}/arcsim
[ -x "$sim" ] || { echo "bench-full-trace.sh: $sim not built (scripts/build.sh)" >&2; exit 2; }
[ -f "$trace" ] || { echo "bench-full-trace.sh: no trace file $trace" >&2; exit 2; }
mkdir -p "$out"
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
{
  echo "# $(date -u +%F), $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), ${BUILD_LABEL:-arcsim $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo '(no git)')}"
  echo "# trace $trace ($(stat -c %s "$trace") bytes), --gpu h100, fast level, one mode at a time"
  for mode in $modes; do
    s0=$(date +%s.%N)
    "$sim" sim --gpu h100 --mode "$mode" --trace "$trace" --json --host-cost > "$out/sim-$mode.json"
    s1=$(date +%s.%N)
    python3 - "$out/sim-$mode.json" "$mode" "$s0" "$s1" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
r, h = j["runs"][0], j["host_cost"]["runs"][0]
wall = float(sys.argv[4]) - float(sys.argv[3])
print(f"mode {sys.argv[2]}: wall {wall:.1f} s; {r['total_cycles']:,} cycles; {r['instructions']:,} warp instructions, "
      f"{r['lane_updates']:,} lane updates ({r['lane_updates'] / wall / 1e6:.1f} M/s, {r['instructions'] / wall / 1e6:.2f} M "
      f"instructions/s of wall); {'warp table' if j['host_cost'].get('warp_table') else 'first pass'} "
      f"{j['host_cost']['first_pass_cpu_seconds']:.1f} cpu s, run {h['cpu_seconds']:.1f} cpu s; "
      f"peak RSS {h['peak_rss_mb']:.0f} MB; read ahead {h['read_ahead_instructions']:,} instructions ({h['read_ahead_bytes'] / 1e6:.0f} MB)")
PY
  done
} 2>&1 | tee "$out/bench.log"
