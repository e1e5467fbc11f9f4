#!/usr/bin/env bash
# Issue 17: the warp instructions each ARC-SW sequence issues per call, counted by Nsight Compute
# on the microbenchmark's primitive kernels (arc_microbench OUT --prims-count: every prims.csv
# row once, full chip, untimed). The timing model charges a call's SW cost on the sub-core's
# shuffle/match (MIO) port in cycles (prims.csv) and its instructions on the dispatch port
# shared with the workload's compute (sw_dispatch_* in cosim/configs/h100.toml): these counts
# give the instructions.
# Usage: scripts/gpu-microbench-count.sh OUT_DIR [ARC_MICROBENCH]
#   writes OUT_DIR/prims_count.csv (the launch order), OUT_DIR/ncu.csv (raw counts),
#   OUT_DIR/prims_inst.csv (warp instructions per step per warp of each row) and OUT_DIR/count.log
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:?OUT_DIR}
micro=${2:-$root/.devcarry/arc_microbench}
mkdir -p "$out"
. "$root/scripts/gpu-common.sh"  # gpu_smi
command -v ncu > /dev/null || { echo "ncu not found" >&2; exit 1; }
{
  echo "# $(date -u +%FT%TZ) $(gpu_smi name), driver $(gpu_smi driver_version)"
  time timeout -k 5 400 ncu --clock-control none -k regex:prim_kernel --metrics smsp__inst_executed.sum --csv \
    "$micro" "$out" --prims-count > "$out/ncu.csv" 2> "$out/ncu.err"
  echo "ncu exit $?"
  python3 - "$out" <<'PY'
import csv, sys
out = sys.argv[1]
order = list(csv.DictReader(open(f"{out}/prims_count.csv")))
rows = [r for r in csv.DictReader(l for l in open(f"{out}/ncu.csv") if l.startswith('"'))
        if r.get("Metric Name") == "smsp__inst_executed.sum"]
if len(rows) != len(order):
    sys.exit(f"{len(rows)} counted launches, {len(order)} rows in prims_count.csv")
with open(f"{out}/prims_inst.csv", "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["kind", "groups", "threshold", "np", "warps", "n", "warp_instructions", "inst_per_step_per_warp"])
    for o, r in zip(order, rows):
        inst = float(r["Metric Value"].replace(",", ""))
        per = inst / (float(o["warps"]) * float(o["n"]))
        w.writerow([o["kind"], o["groups"], o["threshold"], o["np"], o["warps"], o["n"], int(inst), f"{per:.2f}"])
print(f"{len(order)} rows -> {out}/prims_inst.csv")
PY
} > "$out/count.log" 2>&1
cat "$out/count.log"
