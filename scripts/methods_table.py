#!/usr/bin/env python3
"""The method x workload table of an arc_bench run (bench.json) as markdown: per cell the
median gradient-step time, the speedup vs Baseline and the fraction of the way from
Baseline to the no-atomics bound (0 = Baseline, 1 = the bound), best threshold for the
thresholded methods. Rows of the bound say WRONG numerics; failed checks are flagged.
Runs with a compute floor row (issue 20) add `to_floor` (0 = Baseline, 1 = the floor; the
floor row is labelled as a floor, never a result), runs with a gsplat row (issue 23) the
speedup over gsplat.
Usage: scripts/methods_table.py bench.json > table.md"""
import json
import sys


def main(path):
    with open(path) as f:
        d = json.load(f)
    rows = d["rows"]
    workloads = list(dict.fromkeys(r["workload"] for r in rows))
    methods = list(dict.fromkeys(r["method"] for r in rows))
    best = {}  # (workload, method) -> the fastest row over thresholds
    for r in rows:
        k = (r["workload"], r["method"])
        if k not in best or r["grad_ms"] < best[k]["grad_ms"]:
            best[k] = r
    print("| method | " + " | ".join(workloads) + " |")
    print("| --- |" + " --- |" * len(workloads))
    for m in methods:
        cells = []
        label = m
        for w in workloads:
            r = best.get((w, m))
            if r is None:
                cells.append("n/a")
                continue
            if r["no_atomics_bound"]:
                label = f"{m} (bound; WRONG numerics)"
            if r.get("floor"):
                label = f"{m} (compute floor: no gradient writes; a floor, not a result)"
            x = f" (X={r['threshold']})" if r["threshold"] >= 0 else ""
            fb = r["frac_to_bound"]
            fb = f", {fb:.2f}" if fb is not None else ""
            tf = r.get("to_floor")
            tf = f", to_floor {tf:.2f}" if tf is not None else ""
            vg = r.get("speedup_vs_gsplat")
            vg = f", {vg:.3f}x vs gsplat" if vg is not None else ""
            bad = "" if r["no_atomics_bound"] or r.get("floor") or r["check_ok"] else " CHECK FAILED"
            cells.append(f"{r['grad_ms']:.3f}{x} {r['speedup_grad']:.2f}x{fb}{tf}{vg}{bad}")
        print(f"| {label} | " + " | ".join(cells) + " |")
    checks = d.get("checks", [])
    if checks:
        print()
        for k, v in checks.items():
            print(f"- {k}: {v}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: methods_table.py bench.json")
    main(sys.argv[1])
