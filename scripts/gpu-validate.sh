#!/usr/bin/env bash
# Issue 17 on the GPU machine: the data behind scripts/validate.py's full-size validation.
# One script, run in parts (each part one device call of <= 10 min):
#   micro  sw/microbench (scalar and vector RED patterns, warp collectives): OUT/microbench/
#   bench  the benchmark's timings of every validated method on gs-il, pulsar and tex
#          (OUT/bench/bench.json: the measured side; median of 20)
#   small  bench, then pulsar and tex (1920x1080) captured and simulated in every validated
#          mode: OUT/sim/
#   traces pulsar and tex captured only (with KEEP_TRACES=1 they come back)
#   gstrace gs-il (1920x1080, 500,000 Gaussians) captured only (KEEP_TRACES=1: its ~100 MB in
#          15 MB pieces, more than one call brings back: move some aside for a second call)
#   sim    (any machine) the traces TRACE_DIR/W.arctrace for W in $WORKLOADS (default pulsar tex)
#          simulated again by this checkout's model: OUT/sim/ (BENCH_JSON names the timings)
#   bundle gs-il at a reduced size (BUNDLE_SIZE, default 480x270, BUNDLE_PRIMS Gaussians, default
#          31250: 1080p's density), benchmarked (median of 20), captured (floor, timing-only) and
#          simulated: the small real capture bundled in tests/data (KEEP_TRACES=1 brings it back)
#   gs     gs-il (1920x1080, 500,000 Gaussians) captured in Baseline (timing-only) and simulated
#          in every validated mode, 2 cores per mode: OUT/sim/ (needs OUT/bench/bench.json from
#          `small` for the best thresholds: run "small gs" in one call, or BENCH_JSON=path)
# Prediction = one trace per workload, replayed in each method's mode at the threshold the GPU
# found best (`--vector 4` for the -v4 rows); nothing is fitted to a method's timing. With ncu
# present each capture also gets its issue rate (the floor's warp instructions over the trace's
# gaps, sim/W.issue.json) and the replays run at it (--gap-issue-rate); RATE0=1 replays each job
# at rate 0 too (tagged -r0: the model without the dispatch). The trace
# is the compute floor's (CAPTURE_METHOD, default floor: Baseline's calls recorded, no atomic
# issued), so its compute gaps (arc::DevTrace: from the end of one reduce call to the start of
# the next) carry no atomic traffic; CAPTURE_METHOD=baseline records them under Baseline's
# own atomics. The traces stay on the device machine unless KEEP_TRACES=1.
#
# Usage: [KEEP_TRACES=1] scripts/gpu-validate.sh OUT_DIR "PART..." [ARC_BENCH] [ARCSIM] [ARC_MICROBENCH]
#   PART: micro, small, gs (several in one call: "micro small"); defaults
#   .devcarry/{arc_bench,arcsim,arc_microbench}, arcsim's shared libraries in .devcarry/lib.
#   What comes back (the device returns at most 8 files): OUT_DIR/PART.log and
#   OUT_DIR/PART.tar.gz (microbench/, bench/, sim/ of that part); KEEP_TRACES=1 adds the
#   timing-only traces as OUT_DIR/traces-W.arctrace.part-* (15 MB pieces, `cat` joins them).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?OUT_DIR}
parts=${2:?part: micro, bench, small, traces, sim, bundle or gs}
bench=${3:-$root/.devcarry/arc_bench}
sim=${4:-$root/.devcarry/arcsim}
micro=${5:-$root/.devcarry/arc_microbench}
[ -d "$root/.devcarry/lib" ] && export LD_LIBRARY_PATH=$root/.devcarry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
mkdir -p "$out"
top=$(cd "$out" && pwd)
cfg=$root/cosim/configs/h100.toml
TIMEFORMAT='wall %R s'
smi() { nvidia-smi --query-gpu="$1" --format=csv,noheader 2>/dev/null | head -1; }

# The validated methods (issue 17): arc_bench method -> model mode and vector width.
methods=baseline,floor,baseline-noatomic,sws,swb,cub,adaptive,baseline-v4,sws-v4,swb-v4,adaptive-v4

# Best threshold per workload and method (fastest median; default $3) from BENCH_JSON, else from
# the bench of an earlier part of this call (bench or small: its bench.json is kept here when
# the part's folder is packed and removed).
latest_bench=$(mktemp /tmp/arcsim-val-bench.XXXXXX.json)
trap 'rm -f "$latest_bench"' EXIT
best_x() {
  python3 - "${BENCH_JSON:-$latest_bench}" "$1" "$2" "$3" <<'PY'
import json, sys
path, w, m, default = sys.argv[1:]
try:
    rows = [r for r in json.load(open(path))["rows"] if r["workload"] == w and r["method"] == m and r.get("check_ok", True)]
    print(min(rows, key=lambda r: r["grad_ms"])["threshold"] if rows else "")
except Exception:
    print(default)
PY
}

# One workload's simulations, in parallel (2 cores each): baseline and adaptive, scalar and
# 4-wide, and each measured method at its best X. A method the benchmark did not run (pulsar has no SW-B) is
# skipped.
simulate() {
  local w=$1 trace=$2
  local jobs=$work/jobs-$w.txt
  : > "$jobs"
  printf '%s\n' "baseline 0 1" "baseline 0 4" "adaptive 0 1" "adaptive 0 4" >> "$jobs"
  # CUB: SW-B's branch at n >= 2 (arc_bench runs it at threshold 0), where the benchmark ran it
  [ -n "$(best_x "$w" cub "")" ] && echo "sw-b 2 1" >> "$jobs"
  for pair in "sw-s sws 1" "sw-b swb 1" "sw-s sws-v4 4" "sw-b swb-v4 4"; do
    set -- $pair
    local x
    x=$(best_x "$w" "$2" "")
    [ -n "$x" ] && echo "$1 $x $3" >> "$jobs"
  done
  sort -u -o "$jobs" "$jobs"
  # Each job at the workload's issue rate (W.issue.json; 0 without one); RATE0=1 also at 0
  # (gaps as latency only), tagged -r0, to compare.
  local rate=0
  [ -f "$out/sim/$w.issue.json" ] && rate=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["gap_issue_rate"])' "$out/sim/$w.issue.json")
  if [ "${RATE0:-0}" = 1 ] && [ "$rate" != 0 ]; then
    sed "s/\$/ 0/" "$jobs" > "$jobs.r0"
  else
    : > "$jobs.r0"
  fi
  sed -i "s/\$/ $rate/" "$jobs"
  cat "$jobs.r0" >> "$jobs"
  echo "## simulate $w: $(wc -l < "$jobs") runs ($(tr '\n' ';' < "$jobs"))"
  local par=${SIM_PAR:-$(( $(nproc) / 2 ))}
  # shellcheck disable=SC2016
  xargs -P "$par" -L 1 bash -c '
    mode=$0 x=$1 v=$2
    tag=$mode; [ "$x" != 0 ] && tag=$tag-x$x; [ "$v" != 1 ] && tag=$tag-v$v
    th=$x; [ "$x" = 0 ] && th=2
    rate=$3; [ "$rate" != '"$rate"' ] && tag=$tag-r0
    start=$(date +%s)
    timeout -k 5 '"${SIM_TIMEOUT:-420}"' "'"$sim"'" sim --config "'"$cfg"'" --trace "'"$trace"'" --mode "$mode" \
      --threshold "$th" --vector "$v" --gap-issue-rate "$rate" --json --host-cost > "'"$out/sim/$w"'.$tag.json" 2> "'"$work/$w"'.$tag.err"
    rc=$?
    echo "sim '"$w"' $tag: exit $rc, wall $(( $(date +%s) - start )) s $(tail -c 300 "'"$work/$w"'.$tag.err" | tr "\n\r" "  " | tail -c 160)"
  ' < "$jobs"
}

capture() {  # workload prims [size] -> timing-only Baseline trace (default 1920x1080)
  local w=$1 prims=$2 size=${3:-1920x1080}
  echo "## capture $w $size (prims ${prims:-the default}), ${CAPTURE_METHOD:-floor}, timing-only"
  # shellcheck disable=SC2086
  time timeout -k 5 240 "$bench" --trace "$work/$w.arctrace" --trace-workload "$w" --trace-method "${CAPTURE_METHOD:-floor}" \
    --trace-size "$size" ${prims:+--trace-prims $prims} --trace-timing-only
  timeout -k 5 120 "$sim" trace info "$work/$w.arctrace" | grep -E "^(trace|kernel|instructions|lane updates|warps|size|launch|gap)"
  issue_rate "$w" "$prims" "$size"
}

# The workload's compute as dispatch work (arcsim sim --gap-issue-rate): the untraced compute
# floor's warp instructions (ncu smsp__inst_executed.sum, clocks left alone, the same scene)
# over the trace's summed gaps -> OUT/sim/W.issue.json. No ncu: no file, and the replays run
# with gaps as latency only.
issue_rate() {
  local w=$1 prims=$2 size=$3 scene=()
  command -v ncu > /dev/null || { echo "## issue rate $w: no ncu, gaps stay latency only"; return; }
  case $w in
    gs*) scene=(--gaussians "$prims") ;;
    pulsar) scene=(--spheres "$prims") ;;
  esac
  [ -z "$prims" ] && scene=()
  echo "## issue rate $w: ncu smsp__inst_executed.sum of the floor kernel"
  timeout -k 5 240 ncu --clock-control none -k regex:backward --metrics smsp__inst_executed.sum "$bench" --no-check \
    --reps 1 --warmup 0 --workloads "$w" --methods floor --size "$size" "${scene[@]}" --out "$work/ncu-$w" \
    > "$out/sim/$w.ncu-floor.log" 2>&1 || echo "ncu exit $?"
  "$sim" trace info --json "$work/$w.arctrace" > "$work/$w.info.json"
  python3 - "$out/sim/$w.ncu-floor.log" "$work/$w.info.json" "$out/sim/$w.issue.json" <<'PY'
import json, re, sys
log, info, dst = sys.argv[1:]
counts, floor = [], False
for line in open(log):
    if re.search(r"\(\d+, \d+, \d+\)x\(\d+, \d+, \d+\)", line):
        floor = "FloorSink" in line
    m = re.search(r"smsp__inst_executed\.sum\s+inst\s+([\d,]+)", line)
    if m and floor:
        counts.append(int(m.group(1).replace(",", "")))
gaps = json.load(open(info))["gap_sum"]
if not counts or not gaps:
    sys.exit("issue rate: no floor kernel count in the ncu log, or no gaps")
inst = counts[0]
json.dump({"floor_warp_instructions": inst, "floor_launches_counted": len(counts), "trace_gap_sum": gaps,
           "gap_issue_rate": inst / gaps,
           "source": "ncu --clock-control none smsp__inst_executed.sum of the untraced floor kernel / trace gap_sum"},
          open(dst, "w"), indent=1)
print(f"issue rate: {inst} floor warp instructions / {gaps} gap cycles = {inst / gaps:.5f}")
PY
}

keep() {  # workload: the trace back in 15 MB pieces
  [ "${KEEP_TRACES:-0}" = 1 ] && split -b 15M -d "$work/$1.arctrace" "$top/traces-$1.arctrace.part-"
}

for part in $parts; do
out=$top/data-$part
mkdir -p "$out/sim"
work=$(mktemp -d /tmp/arcsim-val.XXXXXX)
log=$top/$part.log
{
  echo "# $(date -u +%FT%TZ) part $part: $(smi name), driver $(smi driver_version), SM max $(smi clocks.max.sm), $(nproc) cores"
  # What the carried binaries were built from, where the packer wrote it down (.devcarry/BUILD.txt)
  [ -f "$root/.devcarry/BUILD.txt" ] && sed 's/^/# build: /' "$root/.devcarry/BUILD.txt"
  case $part in
    micro)
      mkdir -p "$out/microbench"
      time timeout -k 5 300 "$micro" "$out/microbench"
      ;;
    traces)
      capture pulsar 300000
      capture tex ""
      keep pulsar
      keep tex
      ;;
    bench|small)
      mkdir -p "$out/bench"
      echo "## benchmark: gs-il, pulsar, tex at 1920x1080, $methods, median of 20"
      time timeout -k 5 240 "$bench" --no-check --reps 20 --workloads gs-il,pulsar,tex --methods "$methods" \
        --thresholds 1,2,4,8,12,16 --out "$out/bench" --meta "gpu_name=$(smi name)" --meta "driver=$(smi driver_version)" \
        --meta "binary=arc_bench built on the CPU machine (nvcc 13.0, sm_90), scripts/gpu-validate.sh" > "$out/bench/bench.log" 2>&1
      echo "bench exit $?"; tail -5 "$out/bench/bench.log"
      cp "$out/bench/bench.json" "$latest_bench"
      if [ "$part" = small ]; then
        capture pulsar 300000
        capture tex ""
        keep pulsar
        keep tex
        simulate pulsar "$work/pulsar.arctrace" &
        simulate tex "$work/tex.arctrace" &
        wait
      fi
      ;;
    sim)
      for w in ${WORKLOADS:-pulsar tex}; do
        # the issue rate a device run measured for this trace, if it lies beside it
        [ -f "$TRACE_DIR/$w.issue.json" ] && cp "$TRACE_DIR/$w.issue.json" "$out/sim/"
        simulate "$w" "${TRACE_DIR:?TRACE_DIR}/$w.arctrace"
      done
      ;;
    bundle)
      mkdir -p "$out/bench"
      bs=${BUNDLE_SIZE:-480x270} bp=${BUNDLE_PRIMS:-31250}
      echo "## benchmark: gs-il at $bs, $bp Gaussians, median of 20"
      time timeout -k 5 240 "$bench" --no-check --reps 20 --workloads gs-il --size "$bs" --gaussians "$bp" \
        --methods baseline,floor,sws,swb,adaptive --thresholds 1,2,4,8,16 --out "$out/bench" \
        --meta "gpu_name=$(smi name)" --meta "driver=$(smi driver_version)" > "$out/bench/bench.log" 2>&1
      echo "bench exit $?"; tail -5 "$out/bench/bench.log"
      capture gs-il "$bp" "$bs"
      keep gs-il
      BENCH_JSON=$out/bench/bench.json simulate gs-il "$work/gs-il.arctrace"
      ;;
    gs)
      capture gs-il 500000
      simulate gs-il "$work/gs-il.arctrace"
      ;;
    gstrace)
      capture gs-il 500000
      keep gs-il
      ;;
    *) echo "unknown part $part"; exit 2 ;;
  esac
  ls -l "$work"
  echo "# done $(date -u +%FT%TZ)"
} > "$log" 2>&1
cat "$log"
rm -rf "$work"
tar czf "$top/$part.tar.gz" -C "$out" . && rm -rf "$out"
done
