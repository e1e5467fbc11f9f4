#!/usr/bin/env python3
"""The ARC paper's simulation study (sections 7.1-7.2, Figures 18-23) on ARCsim: runs
`arcsim sim --json` for every GPU config x workload trace and method, two at a time, and writes
the raw JSON to OUT/raw; scripts/paper_eval_report.py turns them into summary.json, the plots and
README.md. Called by scripts/paper_eval.sh, which names the traces.

Per GPU x workload (each invocation one forked child per mode, in the order given):
  main     baseline, arc-hw (dynamic scheduler), lab-ideal, phi
  lab-P    lab with lab_partition_pct = P for P in LAB_PCT (the paper takes the best partition)
  X-N      sw-s, sw-b, arc-hw (threshold scheduler) at balancing threshold X = N, N in THRESHOLDS
  rop-F    baseline, sw-b (X = ROP_X), arc-hw (dynamic), lab-ideal with rop_units x F
"""
import argparse
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

GPUS = ["rtx4090", "rtx3060", "h100"]
THRESHOLDS = [2, 4, 8, 16, 24]
LAB_PCT = [25, 50, 100]
ROP_FACTORS = [0.5, 2.0]
ROP_X = 8
# Shared memory the workload's backward kernel holds per SM (smem_bytes_per_sm: what LAB and
# PHI cannot use). gs: sw/workloads/gs_kernels.cuh, 256-thread blocks with s_id (4 B), s_xy
# (8 B), s_co (16 B), s_col (12 B) per thread + s_invd[1] = 10244 B per block, times the blocks
# one SM holds at full occupancy (warps per SM / 8). pulsar, tex: backward_kernel declares no
# __shared__ (sw/workloads/pulsar.cu, tex.cu).
SMEM_PER_BLOCK = {"gs": 10244, "pulsar": 0, "tex": 0}


def gpu_info(arcsim, gpu):
    out = subprocess.run([arcsim, "config", "show", "--gpu", gpu, "--json"], check=True, capture_output=True,
                         text=True).stdout
    return json.loads(out)["gpu"]


def jobs_for(gpu, info, wl, trace):
    warps_per_sm = info["warps_per_subcore"] * info["subcores_per_sm"]
    smem = SMEM_PER_BLOCK[wl] * (warps_per_sm // 8)
    common = ["--gpu", gpu, "--trace", trace, "--set", f"smem_bytes_per_sm={smem}"]
    jobs = [("main", common + ["--mode", "baseline,arc-hw,lab-ideal,phi", "--sched", "dynamic"])]
    for p in LAB_PCT:
        jobs.append((f"lab-{p}", common + ["--mode", "lab", "--set", f"lab_partition_pct={p}"]))
    for x in THRESHOLDS:
        jobs.append((f"X-{x}", common + ["--mode", "sw-s,sw-b,arc-hw", "--sched", "threshold", "--threshold", str(x)]))
    for f in ROP_FACTORS:
        units = max(1, int(round(info["rop_units"] * f)))
        jobs.append((f"rop-{f:g}", common + ["--mode", "baseline,sw-b,arc-hw,lab-ideal", "--sched", "dynamic",
                                              "--threshold", str(ROP_X), "--set", f"rop_units={units}"]))
    return [(gpu, wl, tag, args) for tag, args in jobs]


BULKY = ("per_sm", "per_subcore", "per_rop", "histograms", "series")


def slim(doc):
    """The run totals and the configuration; the per-unit breakdowns would make raw/ megabytes."""
    for r in doc["runs"]:
        for k in BULKY:
            r.pop(k, None)
    return doc


def run_one(arcsim, out_dir, job, counter, total, t0):
    gpu, wl, tag, args = job
    path = os.path.join(out_dir, "raw", f"{gpu}-{wl}-{tag}.json")
    if os.path.exists(path) and os.environ.get("PAPER_EVAL_REUSE") == "1":
        counter.append(path)
        print(f"[{len(counter)}/{total}] {gpu} {wl} {tag}: reused {path}", flush=True)
        return
    start = time.time()
    res = subprocess.run([arcsim, "sim", "--json"] + args, capture_output=True, text=True)
    if res.returncode != 0:
        raise RuntimeError(f"arcsim sim {' '.join(args)} failed: {res.stderr.strip().splitlines()[-1:]}")
    doc = slim(json.loads(res.stdout))
    doc["paper_eval"] = {"gpu": gpu, "workload": wl, "tag": tag, "args": args}
    with open(path, "w") as f:
        json.dump(doc, f)
    counter.append(path)
    runs = ", ".join(f"{r['mode']} {r['total_cycles']}" for r in doc["runs"])
    print(f"[{len(counter)}/{total}] {gpu} {wl} {tag}: {time.time() - start:.0f} s ({runs}); "
          f"{time.time() - t0:.0f} s so far", flush=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--arcsim", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--trace", action="append", default=[], metavar="WORKLOAD=PATH",
                    help="a workload's trace (gs, pulsar, tex); a missing file is skipped with a message")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--gpus", default=",".join(GPUS))
    a = ap.parse_args()
    os.makedirs(os.path.join(a.out, "raw"), exist_ok=True)
    traces = {}
    for kv in a.trace:
        wl, _, path = kv.partition("=")
        if wl not in SMEM_PER_BLOCK:
            sys.exit(f"paper_eval: unknown workload '{wl}' (gs, pulsar, tex)")
        if not os.path.isfile(path):
            print(f"paper_eval: SKIPPING {wl}: no trace at {path} (capture one, or point the variable in "
                  f"scripts/paper_eval.sh at it)", flush=True)
            continue
        traces[wl] = path
    if not traces:
        sys.exit("paper_eval: no trace found")
    jobs = []
    for gpu in a.gpus.split(","):
        info = gpu_info(a.arcsim, gpu)
        for wl, path in traces.items():
            jobs += jobs_for(gpu, info, wl, path)
    print(f"paper_eval: {len(jobs)} arcsim invocations, {a.jobs} at a time; traces: "
          + ", ".join(f"{k}={v}" for k, v in traces.items()), flush=True)
    with open(os.path.join(a.out, "raw", "traces.json"), "w") as f:
        json.dump(traces, f, indent=1)
    done, t0 = [], time.time()
    with ThreadPoolExecutor(max_workers=a.jobs) as pool:
        futures = [pool.submit(run_one, a.arcsim, a.out, j, done, len(jobs), t0) for j in jobs]
        for fu in futures:
            fu.result()
    print(f"paper_eval: {len(done)} invocations in {time.time() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    main()
