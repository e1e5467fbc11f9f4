#!/usr/bin/env bash
# Issue 16: a full-size trace simulated in arc-hw at both levels (the Verilated RTL ARC units and
# the fast level), each timed, and their results compared key by key (every statistic of the
# run's JSON; only `fidelity` may differ). Exit 0 when they agree, 1 when they do not.
#   scripts/rtl-vs-fast.sh TRACE OUT_DIR [--gpu h100] [ARCSIM]
# OUT_DIR gets rtl.json, fast.json (arcsim sim --json --host-cost) and compare.log. The RTL
# level runs on one core (taskset -c 1 where there are 2), the fast level on all of them.
set -euo pipefail
case "${1:-}" in -h|--help) sed -n 2,7p "$0"; exit 0 ;; esac
root=$(cd "$(dirname "$0")/.." && pwd)
trace=${1:?TRACE}
out=${2:?OUT_DIR}
gpu=h100
[ "${3:-}" = --gpu ] && { gpu=$4; shift 2; }
sim=${3:-${ARCSIM_BUILD_DIR:-$root/build}/arcsim}
[ -x "$sim" ] || { echo "rtl-vs-fast.sh: $sim not built (scripts/build.sh)" >&2; exit 2; }
[ -f "$trace" ] || { echo "rtl-vs-fast.sh: no trace file $trace" >&2; exit 2; }
mkdir -p "$out"
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
pin=""; [ "$(nproc)" -ge 2 ] && pin="taskset -c 1"
{
  echo "# $(date -u +%F), $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), arcsim $(git -C "$root" rev-parse --short HEAD)"
  echo "# trace $trace ($(stat -c %s "$trace") bytes), --gpu $gpu --mode arc-hw"
  for level in rtl fast; do
    p=""; [ $level = rtl ] && p=$pin
    s0=$(date +%s.%N)
    $p "$sim" sim --gpu "$gpu" --mode arc-hw --fidelity $level --trace "$trace" --json --host-cost > "$out/$level.json"
    s1=$(date +%s.%N)
    printf '%s: wall %.1f s%s\n' "$level" "$(echo "$s1 - $s0" | bc)" "${p:+ (one core)}"
  done
  python3 - "$out/rtl.json" "$out/fast.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
ra, rb = a["runs"][0], b["runs"][0]
keys = sorted(set(ra) | set(rb))
bad = [k for k in keys if ra.get(k) != rb.get(k)]
top = [k for k in set(a) | set(b) if k not in ("runs", "host_cost", "fidelity") and a.get(k) != b.get(k)]
for lv, j in (("rtl", a), ("fast", b)):
    h = j["host_cost"]["runs"][0]
    print(f"{lv}: {j['runs'][0]['total_cycles']:,} cycles, first pass {j['host_cost']['first_pass_cpu_seconds']:.1f} cpu s, "
          f"run {h['cpu_seconds']:.1f} cpu s ({j['runs'][0]['lane_updates'] / h['cpu_seconds'] / 1e6:.2f} M lane updates per cpu s), "
          f"peak RSS {h['peak_rss_mb']:.0f} MB")
print(f"compared {len(keys)} statistics of the run: {len(keys) - len(bad)} equal" + (f"; DIFFER: {', '.join(bad + top)}" if bad or top else ""))
print("rtl vs fast: " + ("agree, cycle for cycle" if not bad and not top else "DIFFER"))
sys.exit(1 if bad or top else 0)
PY
} 2>&1 | tee "$out/compare.log"
exit "${PIPESTATUS[0]}"
