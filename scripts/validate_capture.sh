#!/usr/bin/env bash
# Issue 9 validation, the GPU half (run on the H100): captures traces of each workload x method
# on a reduced scene (same per-pixel primitive density as the benchmark's 1080p scenes), times
# exactly those configurations with arc_bench (median of 30 runs), and - since the traces are
# too large to bring back (the trace format stores every lane's address and float value, ~4.5
# bytes per lane after zstd) - replays them there in the timing model (`arcsim sim`, fast
# fidelity), one process per job, in parallel on the machine's CPU cores.
#
# Usage: scripts/validate_capture.sh OUT_DIR [ARC_BENCH] [ARCSIM] [LIBDIR]
#   defaults: .valcarry/arc_bench .valcarry/arcsim .valcarry/lib (shared libraries arcsim needs)
# Output: OUT_DIR/results.tar.gz with bench/<w>/bench.json, traces/*.log (capture lines),
#         sim/*.json (one per arcsim job), scenes.txt (the sizes used), gpu.txt, sim_jobs.txt.
# scripts/validate.py turns that into the table, plot and predictions.
set -uo pipefail
out=${1:?OUT_DIR}
bench=${2:-.valcarry/arc_bench}
arcsim=${3:-.valcarry/arcsim}
lib=${4:-.valcarry/lib}
export LD_LIBRARY_PATH=$(cd "$lib" && pwd)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
w=/tmp/arcval
rm -rf "$w"
mkdir -p "$w/bench" "$w/traces" "$w/sim"
q=name,driver_version,pstate,clocks.sm,clocks.max.sm,clocks.mem,power.limit,temperature.gpu
nvidia-smi --query-gpu=$q --format=csv > "$w/gpu.txt" 2>&1

# Best thresholds of the 1080p benchmark (results/h100/bench.json): SW-S gs 16, pulsar 2,
# tex 1; SW-B gs 8, tex 8.
declare -A XS=([gs]=16 [pulsar]=2 [tex]=1) XB=([gs]=8 [tex]=8)
# Scene per workload: candidate sizes, largest first; the first whose Baseline capture fits the
# capture buffer (2^21 warp instructions, sw/bench/main.cu) is used for every capture and timing.
# Primitive counts keep the 1080p density: gs 500,000 / (1920*1080), pulsar 300,000 / (1920*1080).
declare -A SIZES=([gs]="256x160:9877 192x128:5926 128x96:2963"
                  [pulsar]="960x540:75000 640x360:33333"
                  [tex]="1920x1080:0 960x540:0")
: > "$w/scenes.txt"
for wl in gs pulsar tex; do
  ok=
  for s in ${SIZES[$wl]}; do
    size=${s%%:*} n=${s##*:}
    prims=(); [ "$n" != 0 ] && prims=(--trace-prims "$n")
    if "$bench" --trace "$w/traces/$wl-baseline.arctrace" --trace-workload "$wl" --trace-method baseline \
         --trace-threshold 1 --trace-size "$size" "${prims[@]}" > "$w/traces/$wl-baseline.log" 2>&1; then
      ok=$s; break
    fi
    cat "$w/traces/$wl-baseline.log"
  done
  [ -z "$ok" ] && { echo "no size fits for $wl"; continue; }
  echo "$wl $ok" | tee -a "$w/scenes.txt"
  cat "$w/traces/$wl-baseline.log"
  size=${ok%%:*} n=${ok##*:}
  prims=(); [ "$n" != 0 ] && prims=(--trace-prims "$n")
  "$bench" --trace "$w/traces/$wl-sws.arctrace" --trace-workload "$wl" --trace-method sws \
     --trace-threshold "${XS[$wl]}" --trace-size "$size" "${prims[@]}" 2>&1 | tee "$w/traces/$wl-sws.log"
  thr=${XS[$wl]}; meth=baseline,sws
  if [ -n "${XB[$wl]:-}" ]; then
    "$bench" --trace "$w/traces/$wl-swb.arctrace" --trace-workload "$wl" --trace-method swb \
       --trace-threshold "${XB[$wl]}" --trace-size "$size" "${prims[@]}" 2>&1 | tee "$w/traces/$wl-swb.log"
    thr=$thr,${XB[$wl]}; meth=$meth,swb
  fi
  # The same scene timed: median of 30 runs after 3 warm-ups (plus the checks vs Baseline).
  mkdir -p "$w/bench/$wl"
  np=(); [ "$wl" = gs ] && np=(--gaussians "$n"); [ "$wl" = pulsar ] && np=(--spheres "$n")
  "$bench" --workloads "$wl" --methods "$meth" --thresholds "$thr" --size "$size" "${np[@]}" \
     --reps 30 --out "$w/bench/$wl" > "$w/bench/$wl.log" 2>&1 || echo "bench $wl failed"
  tail -5 "$w/bench/$wl.log"
done
nvidia-smi --query-gpu=$q --format=csv,noheader >> "$w/gpu.txt" 2>&1

# Model jobs: name|trace|args. Baseline traces on every GPU config; method traces on the H100.
jobs=$w/sim_jobs.txt
: > "$jobs"
for wl in gs pulsar tex; do
  [ -f "$w/traces/$wl-baseline.arctrace" ] || continue
  t=$w/traces/$wl-baseline.arctrace
  for g in h100 rtx4090 rtx3060; do
    echo "$g-$wl-base-hw|$t|--gpu $g --mode baseline,arc-hw --sched never,always,dynamic" >> "$jobs"
    for x in 2 4 8 16; do echo "$g-$wl-base-thr$x|$t|--gpu $g --mode arc-hw --sched threshold --threshold $x" >> "$jobs"; done
    echo "$g-$wl-base-sws|$t|--gpu $g --mode sw-s --threshold ${XS[$wl]}" >> "$jobs"
    [ -n "${XB[$wl]:-}" ] && echo "$g-$wl-base-swb|$t|--gpu $g --mode sw-b --threshold ${XB[$wl]}" >> "$jobs"
  done
  [ -f "$w/traces/$wl-sws.arctrace" ] &&
    echo "h100-$wl-sws-sws|$w/traces/$wl-sws.arctrace|--gpu h100 --mode baseline,sw-s --threshold ${XS[$wl]}" >> "$jobs"
  [ -f "$w/traces/$wl-swb.arctrace" ] &&
    echo "h100-$wl-swb-swb|$w/traces/$wl-swb.arctrace|--gpu h100 --mode baseline,sw-b --threshold ${XB[$wl]}" >> "$jobs"
done
cfgdir=$(pwd)/cosim/configs
sim_one() {
  IFS='|' read -r name t args <<< "$1"
  args=${args/--gpu /--config $cfgdir/}
  args=$(echo "$args" | sed -E "s#--config ([^ ]+)/([a-z0-9]+)#--config \1/\2.toml#")
  local s=$SECONDS
  timeout "${SIM_TIMEOUT:-280}" "$arcsim" sim --trace "$t" $args --json > "$w/sim/$name.json" 2> "$w/sim/$name.err"
  echo "$name rc=$? $((SECONDS - s))s"
}
export -f sim_one; export w arcsim cfgdir
echo "$(wc -l < "$jobs") model jobs on $(nproc) cores"
xargs -a "$jobs" -d '\n' -P "$(nproc)" -I{} bash -c 'sim_one "$1"' _ {} | tee "$w/sim_times.txt"
for f in "$w"/traces/*.arctrace; do "$arcsim" trace info "$f" > "${f%.arctrace}.info" 2>&1; done
ls -la "$w/traces" > "$w/traces_ls.txt"
mkdir -p "$out"
tar -C "$w" --exclude='*.arctrace' -czf "$out/results.tar.gz" .  # the GPU machine has no zstd
ls -la "$out"
