#!/usr/bin/env bash
# Two arc_bench builds capture the same scenes on the GPU machine (one call, <= 10 min); their
# traces must hold the same content (`arcsim trace compare`: warps, masks and addresses, and
# for the full form values and partial sums; not placement, gaps or metadata, which the GPU
# decides at run time), the new build's full-form trace must verify, and the log keeps each capture's wall time, the host's peak resident memory
# (getrusage) and the record buffers' size on the GPU where the build prints it.
#  1. pulsar 160x90, 2083 spheres, SW-S threshold 2 (tests/data/pulsar-sws-h100.arctrace's shape), full form;
#  2. gs-il 480x270, 31,250 Gaussians, the traced floor, timing-only (tests/data/gs-il-floor-h100.arctrace's shape);
#  3. gs 1920x1080, 500,000 Gaussians, Baseline, timing-only (the benchmark's full 1080p pass,
#     scripts/gpu-full-capture.sh TIMING_ONLY=1), then simulated by the new build in baseline
#     on 2 cores (issue 16: under 60 s per mode).
# OUT_DIR/ab.log gets every step; OUT_DIR/ab.csv one row per capture.
#
# Usage: [SCENES="pulsar gsil gs"] scripts/gpu-capture-ab.sh OUT_DIR OLD_ARC_BENCH NEW_ARC_BENCH [ARCSIM]
#   ARCSIM defaults to .devcarry/arcsim (its shared libraries in .devcarry/lib).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 3 ] || { echo "usage: $0 OUT_DIR OLD_ARC_BENCH NEW_ARC_BENCH [ARCSIM]" >&2; exit 2; }
out=$1; old=$2; new=$3; sim=${4:-$root/.devcarry/arcsim}
for b in "$old" "$new" "$sim"; do [ -x "$b" ] || { echo "gpu-capture-ab.sh: $b is not executable" >&2; exit 2; }; done
scenes=${SCENES:-pulsar gsil gs}
for s in $scenes; do
  case $s in pulsar|gsil|gs) ;; *) echo "gpu-capture-ab.sh: unknown scene '$s' (pulsar gsil gs)" >&2; exit 2 ;; esac
done
[ -d "$root/.devcarry/lib" ] && export LD_LIBRARY_PATH=$root/.devcarry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d /tmp/arcsim-ab.XXXXXX)
trap 'rm -rf "$work"' EXIT  # the traces (~210 MB with gs)
log=$out/ab.log
echo "scene,build,form,wall_s,host_peak_rss_mb,record_buffers_mb,instructions,lanes,bytes,exit" > "$out/ab.csv"
fail=0
capture() {  # name build-label binary form args...
  local name=$1 label=$2 bin=$3 form=$4; shift 4
  local f=$work/$name-$label.arctrace extra=()
  [ "$form" = timing ] && extra=(--trace-timing-only)
  local t0 t1 rc
  t0=$(date +%s.%N)
  # (python3's getrusage for the peak RSS: GNU time may be missing on the GPU machine)
  python3 -c 'import resource, subprocess, sys
rc = subprocess.run(sys.argv[2:]).returncode
open(sys.argv[1], "w").write("peak_rss_kb %d\n" % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
sys.exit(rc)' "$work/time.txt" timeout -k 5 240 "$bin" --trace "$f" "$@" "${extra[@]}" > "$work/cap.log" 2>&1
  rc=$?
  t1=$(date +%s.%N)
  cat "$work/cap.log" >> "$log"
  local rss mb ins lanes bytes wall
  wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f", b - a}')
  rss=$(awk '/peak_rss_kb/ {printf "%.0f", $2 / 1024}' "$work/time.txt")
  mb=$(sed -n 's/.*record buffers \([0-9.]*\) MB on the GPU.*/\1/p' "$work/cap.log")
  read -r ins lanes bytes < <(sed -n 's/.*, \([0-9]*\) instructions, \([0-9]*\) lanes, \([0-9]*\) bytes.*/\1 \2 \3/p' "$work/cap.log")
  echo "$name $label ($form): exit $rc, wall $wall s, host peak RSS ${rss} MB, record buffers ${mb:+$mb MB}${mb:-not printed by this build}" >> "$log"
  echo "$name,$label,$form,$wall,$rss,${mb:-},$ins,$lanes,$bytes,$rc" >> "$out/ab.csv"
  [ "$rc" = 0 ] || fail=1
}
pair() {  # name form args...: both builds, then compare (and verify the full form)
  local name=$1 form=$2; shift 2
  echo "## $name ($form): $*" >> "$log"
  capture "$name" old "$old" "$form" "$@"
  capture "$name" new "$new" "$form" "$@"
  if "$sim" trace compare "$work/$name-old.arctrace" "$work/$name-new.arctrace" >> "$log" 2>&1; then
    echo "$name: old and new traces agree" >> "$log"
  else
    echo "$name: old and new traces DIFFER (or a capture failed)" >> "$log"; fail=1
  fi
  if [ "$form" = full ]; then
    "$sim" verify --trace "$work/$name-new.arctrace" > "$work/verify.txt" 2>&1
    local rc=$?
    tail -3 "$work/verify.txt" >> "$log"
    echo "$name: verify of the new build's trace: exit $rc" >> "$log"
    [ "$rc" = 0 ] || fail=1
  fi
}
{
  echo "# $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1); $(nproc) cores; old $old, new $new"
} > "$log"
for s in $scenes; do
  case $s in
    pulsar) pair pulsar full --trace-workload pulsar --trace-method sws --trace-threshold 2 --trace-size 160x90 --trace-prims 2083 ;;
    gsil) pair gsil timing --trace-workload gs-il --trace-method floor --trace-size 480x270 --trace-prims 31250 ;;
    gs)
      pair gs timing --trace-workload gs --trace-method baseline --trace-size 1920x1080 --trace-prims 500000
      echo "## gs: the new build's timing-only trace simulated, baseline, 2 cores (h100.toml)" >> "$log"
      TIMEFORMAT='mode baseline: wall %R s, user %U s, sys %S s'
      { time timeout -k 5 200 taskset -c 0,1 "$sim" sim --config "$root/cosim/configs/h100.toml" \
          --trace "$work/gs-new.arctrace" --mode baseline --json > "$out/sim-baseline.json" 2> "$work/sim.err"; } 2>> "$log"
      rc=$?
      echo "mode baseline: exit $rc" >> "$log"
      [ "$rc" = 0 ] || fail=1
      tail -3 "$work/sim.err" >> "$log" ;;
  esac
done
echo "gpu-capture-ab.sh: $([ $fail = 0 ] && echo all agree || echo FAILED)" >> "$log"
exit $fail
