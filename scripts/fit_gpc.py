#!/usr/bin/env python3
"""Issue 17: the model's GPC level (gpc_of_sm, icnt_gpc_header_bytes, icnt_gpc_bytes_per_cycle)
from one sw/microbench/placement.cu run (results/h100/validation/full/placement/runN).

  gpc_of_sm    gpc_map.csv (SMs linked by shared thread-block clusters: GPCs 0-7), with each TPC
               no cluster placed put in the GPC whose pace it keeps beside that GPC's SMs
               (per_sm.csv tpc_in_gpc, scripts/placement_summary.py's test); a TPC with no single
               such GPC is an error
  rates        placement.csv `gpc` rows: each GPC's SMs (those clusters placed) all issuing REDs,
               one lane per 128 B line (distinct: d one-lane requests/cycle) and 32 lanes on one
               line (coalesced: c lanes/cycle, c/32 requests of 32 values). A link of C bytes/cycle
               where a request takes H + 4 bytes per value gives d = C / (H + 4) and
               c / 32 = C / (H + 128). H is fitted over the GPCs of 16 such SMs (least squares on
               log rates, one H for all); each GPC's C then from both of its rates (geometric mean:
               its distinct and coalesced predictions err by the same factor either way).

Prints the three config lines and the fit's per-GPC predictions; --json writes them.
Usage: scripts/fit_gpc.py [RUN_DIR=results/h100/validation/full/placement/run4] [--json OUT]
"""
import argparse
import csv
import json
import math
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import placement_summary  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("run", nargs="?", default="results/h100/validation/full/placement/run4")
    ap.add_argument("--json")
    a = ap.parse_args()
    for f in ("gpc_map.csv", "placement.csv", "per_sm.csv"):
        if not os.path.exists(os.path.join(a.run, f)):
            sys.exit(f"fit_gpc.py: {os.path.join(a.run, f)} is missing (a placement.cu run directory?)")
    gpc = {int(r["smid"]): int(r["gpc"]) for r in csv.DictReader(open(os.path.join(a.run, "gpc_map.csv")))}
    members = defaultdict(list)
    for sm, g in gpc.items():
        members[g].append(sm)
    big = sorted(g for g in members if len(members[g]) > 2)
    home = placement_summary.tpc_pace(a.run, members)[3]
    sm_gpc = {}
    for sm, g in gpc.items():
        if g in big:
            sm_gpc[sm] = g
        else:
            t = sm - sm % 2
            if t not in home:
                sys.exit(f"fit_gpc.py: SM {sm} (TPC {t}) keeps pace with no single GPC in {a.run}/per_sm.csv")
            sm_gpc[sm] = home[t]
    n = max(sm_gpc) + 1
    if sorted(sm_gpc) != list(range(n)):
        sys.exit(f"fit_gpc.py: gpc_map.csv does not list SMs 0..{n - 1}")
    rate = {(int(r["param"]), r["pattern"]): float(r["lane_ops_per_clk"])
            for r in csv.DictReader(open(os.path.join(a.run, "placement.csv"))) if r["set"] == "gpc"}
    req = {g: (rate[(g, "distinct")], rate[(g, "coalesced")] / 32) for g in big}
    # One H: on log scale, log d - log(c/32) = log(H + 128) - log(H + 4) for every full GPC.
    full = [g for g in big if len(members[g]) == max(len(members[x]) for x in big)]
    target = sum(math.log(req[g][0] / req[g][1]) for g in full) / len(full)
    lo, hi = 0.0, 1000.0
    for _ in range(200):  # log((H + 128) / (H + 4)) falls with H: bisect
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if math.log((mid + 128) / (mid + 4)) > target else (lo, mid)
    h = round((lo + hi) / 2)
    caps = {g: round(math.sqrt(req[g][0] * (h + 4) * req[g][1] * (h + 128))) for g in big}
    lines = [f'gpc_of_sm = "{"".join(str(sm_gpc[s]) for s in range(n))}"',
             f"icnt_gpc_header_bytes = {h}",
             f'icnt_gpc_bytes_per_cycle = "{",".join(str(caps[g]) for g in big)}"']
    print("\n".join(lines) + "\n")
    print("| GPC | SMs (model) | SMs measured | distinct measured / fit | coalesced lanes measured / fit |")
    print("| --- | --- | --- | --- | --- |")
    out = []
    for g in big:
        d_fit, c_fit = caps[g] / (h + 4), 32 * caps[g] / (h + 128)
        size = sum(1 for s in sm_gpc.values() if s == g)
        print(f"| {g} | {size} | {len(members[g])} | {req[g][0]:.2f} / {d_fit:.2f} | {32 * req[g][1]:.1f} / {c_fit:.1f} |")
        out.append({"gpc": g, "sms": size, "bytes_per_cycle": caps[g], "distinct": req[g][0], "distinct_fit": d_fit,
                    "coalesced": 32 * req[g][1], "coalesced_fit": c_fit})
    if a.json:
        json.dump({"run": a.run, "header_bytes": h, "config": lines, "gpcs": out}, open(a.json, "w"), indent=1)


if __name__ == "__main__":
    main()
