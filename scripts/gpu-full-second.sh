#!/usr/bin/env bash
# Issue 16, the second device call after scripts/gpu-full-capture.sh (same machine, its traces
# still in /tmp/arcsim-full.*): three simulations at once, each on its own 2 cores:
#  - gs arc-hw (dynamic) with a 560 s limit (the first call's 330 s were not enough),
#  - gs baseline again (its JSON with --host-cost),
#  - the full pulsar capture in baseline, sw-b and arc-hw.
# Usage: scripts/gpu-full-second.sh OUT_DIR [ARCSIM]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?OUT_DIR}
sim=${2:-$root/.devcarry/arcsim}
[ -d "$root/.devcarry/lib" ] && export LD_LIBRARY_PATH=$root/.devcarry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
cfg=$root/cosim/configs/h100.toml
t=$(ls -d /tmp/arcsim-full.*/ 2>/dev/null | head -1)
[ -n "$t" ] || { echo "gpu-full-second.sh: no /tmp/arcsim-full.* (run scripts/gpu-full-capture.sh first)" >&2; exit 2; }
echo "trace dir: $t"; ls -la "$t"
mkdir -p "$out"
TIMEFORMAT='wall %R s, user %U s, sys %S s'
( time timeout -k 5 560 taskset -c 0,1 "$sim" sim --config "$cfg" --trace "$t/gs-t.arctrace" --mode arc-hw ) \
  > "$out/arc-hw.log" 2>&1 &
( time timeout -k 5 400 taskset -c 8,9 "$sim" sim --config "$cfg" --trace "$t/gs-t.arctrace" --mode baseline --json \
  --host-cost > "$out/sim-baseline-alone.json" ) > "$out/baseline-alone.log" 2>&1 &
( time timeout -k 5 300 taskset -c 12,13 "$sim" sim --config "$cfg" --trace "$t/pulsar-t.arctrace" \
  --mode baseline,sw-b,arc-hw ) > "$out/pulsar.log" 2>&1 &
wait
for f in arc-hw baseline-alone pulsar; do echo "## $f"; tr '\r' '\n' < "$out/$f.log" | grep -v '^\s*$' | tail -8; done
