#!/usr/bin/env python3
"""Issue 17: the model's shared links (cosim/configs/h100.toml: gpc_of_sm, icnt_gpc_*, group_of_sm,
icnt_group_*) from one sw/microbench/placement.cu run (results/h100/validation/full/placement/runN).

  gpc_of_sm    gpc_map.csv (SMs linked by shared thread-block clusters: GPCs 0-7), with each TPC
               no cluster placed put in the GPC whose pace it keeps beside that GPC's SMs
               (per_sm.csv tpc_in_gpc, scripts/placement_summary.py's test); a TPC with no single
               such GPC is an error
  GPC rates    placement.csv `gpc` rows: each GPC's cluster SMs all issuing REDs, one lane per
               128 B line (distinct: d one-lane requests/cycle) and 32 lanes on one line
               (coalesced: c lanes/cycle, c/32 requests of 32 values). A link of C bytes/cycle
               where a request takes H + 4 bytes per value gives d = C / (H + 4) and
               c / 32 = C / (H + 128). H is fitted over the GPCs of 16 such SMs (least squares on
               log rates, one H for all); each GPC's C then from both of its rates (geometric mean:
               its distinct and coalesced predictions err by the same factor either way).
  groups       inside each GPC, its cluster SMs and its tail TPCs. A GPC whose tail also ran
               alone (`top8`) has two measured groups: each its own rate (one header for the
               level, fitted as H from the two), and the GPC's link a lower bound: the most its
               `tpc_in_gpc` sets (cluster SMs beside one of its own tail TPCs) carried, in the
               larger of its distinct and coalesced bytes. Other groups: no link of their own ('-').

Prints the six config lines and the fit's per-GPC and per-group rates; --json writes them.
Output for run4: results/h100/validation/full/placement/run4/fit_gpc.md (and .json), in cosim/configs/h100.toml.
Usage: scripts/fit_gpc.py [RUN_DIR=results/h100/validation/full/placement/run4] [--json OUT]
"""
import argparse
import csv
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import placement_summary  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("run", nargs="?", default="results/h100/validation/full/placement/run4")
    ap.add_argument("--json")
    a = ap.parse_args()
    members, big, sm_gpc, tail = placement_summary.gpc_layout(a.run, "fit_gpc.py")
    n = max(sm_gpc) + 1
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
    # Groups: each GPC's cluster SMs, and the tail TPCs homed in it. A GPC whose tail placement.cu
    # also ran alone (`top8`: GPC 0's SMs 124-131) has two measured groups: each gets its own
    # rate (one header for the level, from those two, as H above) and the GPC's link a lower
    # bound, the most its tpc_in_gpc sets (its clusters' SMs beside one of its tail TPCs) carried.
    # Every other group has no cap of its own (the GPC's `gpc` row is its cluster's cap).
    top8 = [r for r in csv.DictReader(open(os.path.join(a.run, "placement.csv"))) if r["set"] == "top8"]
    top8_sms = {int(x) for x in top8[0]["smids"].split("-")} if top8 else set()
    split = [g for g in big if tail[g] and tail[g] == top8_sms]
    groups, group_caps, group_h, bounds = [], [], None, {}
    unbound = 1000000
    if split:
        t_req = {r["pattern"]: float(r["lane_ops_per_clk"]) for r in top8}
        pairs = [req[g] for g in split] + [(t_req["distinct"], t_req["coalesced"] / 32)]
        target = sum(math.log(d / c) for d, c in pairs) / len(pairs)
        lo, hi = 0.0, 1000.0
        for _ in range(200):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if math.log((mid + 128) / (mid + 4)) > target else (lo, mid)
        group_h = round((lo + hi) / 2)
        cap_of = lambda d, c: round(math.sqrt(d * (group_h + 4) * c * (group_h + 128)))  # noqa: E731
        tig = [r for r in csv.DictReader(open(os.path.join(a.run, "placement.csv"))) if r["set"] == "tpc_in_gpc"]
        for g in split:
            best = {}
            for r in tig:
                ids = {int(x) for x in r["smids"].split("-")}
                own = members[g]
                if ids - own and ids - own <= tail[g] and own <= ids:
                    best[r["pattern"]] = max(best.get(r["pattern"], 0.0), float(r["lane_ops_per_clk"]))
            if set(best) != {"distinct", "coalesced"}:
                sys.exit(f"fit_gpc.py: no tpc_in_gpc rows of GPC {g}'s cluster beside its own tail TPCs in {a.run}")
            bounds[g] = (best["distinct"], best["coalesced"])
            caps[g] = max(round(best["distinct"] * (h + 4)), round(best["coalesced"] / 32 * (h + 128)))
    group_of = {}  # SMs in a group with a cap of its own; the others: '-' (no group link)
    for g in big:
        for part, sms in (("cluster", members[g]), ("tail", tail[g])):
            if not sms:
                continue
            groups.append((g, part, len(sms)))
            if g in split:
                d, c = (req[g][0], req[g][1]) if part == "cluster" else (t_req["distinct"], t_req["coalesced"] / 32)
                group_caps.append(cap_of(d, c))
                for sm in sms:
                    group_of[sm] = sum(1 for x in group_caps if x != unbound) - 1
            else:
                group_caps.append(unbound)
    digit = "0123456789abcdefghijklmnopqrstuvwxyz"
    lines = [f'gpc_of_sm = "{"".join(str(sm_gpc[s]) for s in range(n))}"',
             f"icnt_gpc_header_bytes = {h}",
             f'icnt_gpc_bytes_per_cycle = "{",".join(str(caps[g]) for g in big)}"']
    if split:
        lines += [f'group_of_sm = "{"".join(digit[group_of[s]] if s in group_of else "-" for s in range(n))}"',
                  f"icnt_group_header_bytes = {group_h}",
                  f'icnt_group_bytes_per_cycle = "{",".join(str(c) for c in group_caps if c != unbound)}"']
    print("\n".join(lines) + "\n")
    print("| GPC | SMs (model) | SMs measured | distinct measured / fit | coalesced lanes measured / fit |")
    print("| --- | --- | --- | --- | --- |")
    out = []
    for g in big:
        d_fit, c_fit = caps[g] / (h + 4), 32 * caps[g] / (h + 128)
        size = sum(1 for s in sm_gpc.values() if s == g)
        d_m, c_m = bounds.get(g, (req[g][0], 32 * req[g][1]))
        note = " (a lower bound: cluster + own tail TPC)" if g in bounds else ""
        print(f"| {g} | {size} | {len(members[g])} | {d_m:.2f} / {d_fit:.2f} | {c_m:.1f} / {c_fit:.1f}{note} |")
        out.append({"gpc": g, "sms": size, "bytes_per_cycle": caps[g], "distinct": d_m, "distinct_fit": d_fit,
                    "coalesced": c_m, "coalesced_fit": c_fit, "lower_bound": g in bounds})
    if split:
        print("\n| group | GPC | part | SMs | bytes/cycle | distinct measured / fit | coalesced lanes measured / fit |")
        print("| --- | --- | --- | --- | --- | --- | --- |")
        k = 0
        for (g, part, size), cap in zip(groups, group_caps):
            if cap == unbound:
                print(f"| - | {g} | {part} | {size} | no link of its own | | |")
                continue
            k += 1
            d, c = (req[g][0], 32 * req[g][1]) if part == "cluster" else (t_req["distinct"], t_req["coalesced"])
            print(f"| {digit[k - 1]} | {g} | {part} | {size} | {cap} | {d:.2f} / {cap / (group_h + 4):.2f} | "
                  f"{c:.1f} / {32 * cap / (group_h + 128):.1f} |")
    if a.json:
        json.dump({"run": a.run, "header_bytes": h, "group_header_bytes": group_h, "config": lines, "gpcs": out,
                   "groups": [{"gpc": g, "part": part, "sms": size, "bytes_per_cycle": cap if cap != unbound else None}
                              for (g, part, size), cap in zip(groups, group_caps)]},
                  open(a.json, "w"), indent=1)


if __name__ == "__main__":
    main()
