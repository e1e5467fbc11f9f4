#!/usr/bin/env bash
# Issue 16's yardstick on one core of this machine: its synthetic 1M-instruction trace (the exact
# `trace gen` command, timing-only form unless FORMS says otherwise) simulated in baseline at the
# fast level under `taskset -c CORE`, N rounds, the given arcsim builds interleaved in each round
# (so a slow spell of a shared machine hits every build alike). Writes OUT_DIR/walls.csv (every
# run), OUT_DIR/onecore.json and OUT_DIR/onecore.md (per build and form: min and median wall,
# warp instructions/s and lane updates/s at each, the machine's CPU and caches).
#
# Usage: [N=5] [CORE=0] [FORMS="timing full"] scripts/bench-onecore.sh OUT_DIR ARCSIM [ARCSIM...]
#   Runs anywhere the builds run (the device machine too: LD_LIBRARY_PATH from .devcarry/lib
#   when that folder exists). The first build generates the traces.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage() { echo "usage: [N=5] [CORE=0] [FORMS=\"timing full\"] $0 OUT_DIR ARCSIM [ARCSIM...]" >&2; exit 2; }
[ $# -ge 2 ] || usage
out=$1; shift
for b in "$@"; do [ -x "$b" ] || { echo "bench-onecore.sh: $b is not an executable arcsim build" >&2; exit 2; }; done
n=${N:-5}; core=${CORE:-0}; forms=${FORMS:-timing}
case "$n" in ''|*[!0-9]*|0) echo "bench-onecore.sh: N must be a positive integer (got '$n')" >&2; exit 2;; esac
[ -d "$root/.devcarry/lib" ] && export LD_LIBRARY_PATH=$root/.devcarry/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gen=(-n 1000000 --sms 132 --warps-per-subcore 16 --gap-mean 400 --p-same 0.9)
for form in $forms; do
  case $form in
    timing) "$1" trace gen -o "$work/$form.trc" "${gen[@]}" --timing-only >/dev/null ;;
    full) "$1" trace gen -o "$work/$form.trc" "${gen[@]}" >/dev/null ;;
    *) echo "bench-onecore.sh: unknown form '$form' (timing, full)" >&2; exit 2 ;;
  esac
done
echo "round,build,form,wall_s,cycles,instructions,lane_updates" > "$out/walls.csv"
for r in $(seq "$n"); do
  echo "bench-onecore.sh: round $r of $n" >&2
  i=0
  for b in "$@"; do
    i=$((i + 1))
    for form in $forms; do
      j="$work/run.json"
      s0=$(date +%s%N)
      taskset -c "$core" "$b" sim --trace "$work/$form.trc" --gpu h100 --mode baseline --json > "$j"
      s1=$(date +%s%N)
      python3 - "$j" "$r" "$i" "$form" "$(( (s1 - s0) / 1000 ))" >> "$out/walls.csv" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
print(",".join(map(str, [sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]) / 1e6, run["total_cycles"],
                         run["instructions"], run["lane_updates"]])))
PY
    done
  done
done
python3 - "$out" "$@" <<'PY'
import csv, json, os, platform, statistics, subprocess, sys
out, builds = sys.argv[1], sys.argv[2:]
rows = list(csv.DictReader(open(os.path.join(out, "walls.csv"))))
def lscpu(key):
    for line in subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines():
        if line.split(":")[0].strip() == key: return line.split(":", 1)[1].strip()
    return "?"
machine = {"cpu": lscpu("Model name"), "cores": os.cpu_count(), "l2": lscpu("L2 cache"), "l3": lscpu("L3 cache"),
           "host": platform.node()}
res = []
for i, b in enumerate(builds, 1):
    for form in sorted({r["form"] for r in rows}):
        rs = [r for r in rows if r["build"] == str(i) and r["form"] == form]
        if not rs: continue
        walls = sorted(float(r["wall_s"]) for r in rs)
        ins, lanes = int(rs[0]["instructions"]), int(rs[0]["lane_updates"])
        if any(int(r["cycles"]) != int(rs[0]["cycles"]) for r in rs):
            sys.exit(f"bench-onecore.sh: build {b} gave different cycle counts across rounds")
        mn, md = walls[0], statistics.median(walls)
        res.append({"build": b, "form": form, "runs": len(walls), "cycles": int(rs[0]["cycles"]), "instructions": ins,
                    "lane_updates": lanes, "wall_min_s": mn, "wall_median_s": md, "warp_instr_per_s_min_wall": ins / mn,
                    "warp_instr_per_s_median_wall": ins / md, "lane_updates_per_s_min_wall": lanes / mn,
                    "lane_updates_per_s_median_wall": lanes / md})
json.dump({"machine": machine, "results": res}, open(os.path.join(out, "onecore.json"), "w"), indent=1)
with open(os.path.join(out, "onecore.md"), "w") as f:
    f.write(f"CPU {machine['cpu']}, {machine['cores']} cores, L2 {machine['l2']}, L3 {machine['l3']}; one core (taskset)\n\n")
    f.write("| build | form | runs | cycles | wall s min / median | warp instr/s at min / median | lane upd/s at min / median |\n")
    f.write("| --- | --- | --- | --- | --- | --- | --- |\n")
    for r in res:
        f.write(f"| {os.path.basename(r['build'])} | {r['form']} | {r['runs']} | {r['cycles']:,} | {r['wall_min_s']:.2f} / "
                f"{r['wall_median_s']:.2f} | {r['warp_instr_per_s_min_wall'] / 1e6:.2f} M / "
                f"{r['warp_instr_per_s_median_wall'] / 1e6:.2f} M | {r['lane_updates_per_s_min_wall'] / 1e6:.1f} M / "
                f"{r['lane_updates_per_s_median_wall'] / 1e6:.1f} M |\n")
print(open(os.path.join(out, "onecore.md")).read())
PY
