#!/usr/bin/env python3
"""Issue 17: what a GPC level must do to give the SM sweep's knee, in a fluid model.

Reads one sw/microbench/placement.cu run (results/h100/validation/full/placement/runN) and
predicts the SM sweep's own launches (`launch` rows: n blocks, one per SM, on the SM ids the
H100 gave them) from caps measured on OTHER SM sets of the same run, with every block doing
the same work and each cap shared max-min fairly (water-filling) among the blocks still
running; a launch's rate is its lane atomics over the time its last block ends.

  per SM        one_per_gpc n = 1 (one SM alone)
  per group     a group = the SMs a GPC's thread-block clusters reached (gpc_map.csv), or the
                tail TPCs homed in that GPC (per_sm.csv tpc_in_gpc, as scripts/fit_gpc.py);
                its cap = the `gpc` row of those cluster SMs, or `top8` for GPC 0's tail
                (SMs 124-131); a group no set measured alone has no cap of its own
  per GPC       GPCs whose cluster SMs are the whole GPC: their `gpc` row; a GPC of two
                groups (GPC 0): the smallest cap its tpc_in_gpc sets allow (its cluster
                group's cap plus one of its tail TPCs at the per-SM rate: those rows reach
                it), so a LOWER BOUND
  chip          the `first` row of n = 132 (every SM)

Patterns: distinct (one lane per 128 B line) and coalesced (32 lanes on one line), in lane
atomics per cycle. Prints a markdown table of the launch rows (measured, fluid, error) and
the per-block finish times of the launch of --blocks SMs (per_sm.csv) beside the fluid's.

Usage: scripts/gpc_fluid.py [RUN_DIR=results/h100/validation/full/placement/run4] [--blocks 33]
"""
import argparse
import csv
import os
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import placement_summary  # noqa: E402

PATTERNS = ("distinct", "coalesced")


def water_fill(active, per_sm, caps):
    """Max-min fair rates of the SMs in `active` under per_sm and caps [(members, cap)]."""
    rate = {s: 0.0 for s in active}
    left = [c for _, c in caps]
    free = set(active)
    while free:
        inc = min(per_sm - rate[s] for s in free)
        for i, (m, _) in enumerate(caps):
            k = len(free & m)
            if k:
                inc = min(inc, left[i] / k)
        for s in free:
            rate[s] += inc
        for i, (m, _) in enumerate(caps):
            left[i] -= inc * len(free & m)
        done = {s for s in free if rate[s] >= per_sm - 1e-12}
        for i, (m, _) in enumerate(caps):
            if left[i] <= 1e-12:
                done |= free & m
        free -= done
    return rate


def launch(sms, per_sm, caps):
    """Fluid run of one block per SM, equal work: (lane atomics per cycle, finish time per SM)."""
    work = {s: 1.0 for s in sms}
    t, end, active = 0.0, {}, set(sms)
    while active:
        r = water_fill(active, per_sm, [(m & active, c) for m, c in caps if m & active])
        dt = min(work[s] / r[s] for s in active)
        t += dt
        for s in list(active):
            work[s] -= r[s] * dt
            if work[s] <= 1e-9:
                end[s] = t
                active.discard(s)
    return len(sms) / t, end


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("run", nargs="?", default="results/h100/validation/full/placement/run4")
    ap.add_argument("--blocks", type=int, default=33, help="the launch whose per-block times to print")
    a = ap.parse_args()
    members, big, sm_gpc, tail = placement_summary.gpc_layout(a.run, "gpc_fluid.py")
    gpc = {sm: g for g, m in members.items() for sm in m}
    rows = list(csv.DictReader(open(os.path.join(a.run, "placement.csv"))))
    rate = {(r["set"], int(r["param"]), r["pattern"]): float(r["lane_ops_per_clk"]) for r in rows}
    smids = {(r["set"], int(r["param"])): [int(x) for x in r["smids"].split("-")] for r in rows}

    def need(key):
        if key not in rate:
            sys.exit(f"gpc_fluid.py: {a.run}/placement.csv has no {key[0]} row {key[1]} ({key[2]})")
        return rate[key]

    top8 = set(smids.get(("top8", 124), []))
    model = {}
    for pat in PATTERNS:
        per_sm = need(("one_per_gpc", 1, pat))
        caps = []
        for g in big:
            cl = need(("gpc", g, pat))
            if tail[g] == top8 and top8:  # a GPC of two measured groups: each its cap, the GPC a bound
                tl = need(("top8", 124, pat))
                pair = min(tail[g])
                bound = cl + 2 * per_sm if ("tpc_in_gpc", pair, pat) in rate else cl + tl
                caps += [(members[g], cl), (tail[g], tl), (members[g] | tail[g], bound)]
            else:  # the cluster SMs are the GPC; its tail TPCs (two SMs) run at their own pace
                caps.append((members[g], cl))
        caps.append((set(gpc), need(("first", 132, pat))))
        model[pat] = (per_sm, caps)

    print(f"## Fluid model of per-SM, per-group and per-GPC caps ({a.run})\n")
    for pat in PATTERNS:
        per_sm, caps = model[pat]
        print(f"- {pat}: per SM {per_sm:.3f}; caps " +
              ", ".join(f"{len(m)} SMs {c:.2f}" for m, c in caps) + " (lane atomics per cycle)")
    print("\n| pattern | blocks | measured | fluid | error |")
    print("| --- | --- | --- | --- | --- |")
    errs = []
    for r in rows:
        if r["set"] != "launch" or r["pattern"] not in PATTERNS or int(r["n"]) == 132:
            continue
        got, _ = launch(smids[("launch", int(r["param"]))], *model[r["pattern"]])
        m = float(r["lane_ops_per_clk"])
        errs.append(abs(got / m - 1))
        print(f"| {r['pattern']} | {r['n']} | {m:.2f} | {got:.2f} | {100 * (got / m - 1):+.1f}% |")
    if errs:
        print(f"\nMean absolute error {100 * sum(errs) / len(errs):.1f}% over {len(errs)} launch rows (1-99 blocks).")
    ends = defaultdict(dict)
    for r in csv.DictReader(open(os.path.join(a.run, "per_sm.csv"))):
        if r["set"] == "launch" and int(r["param"]) == a.blocks and r["pattern"] in PATTERNS:
            ends[r["pattern"]][int(r["smid"])] = int(r["block_ns"])
    if ends:
        print(f"\nPer-block finish time, launch of {a.blocks} blocks, relative to the fastest block:\n")
        print("| pattern | SM | GPC | measured | fluid |")
        print("| --- | --- | --- | --- | --- |")
        for pat in PATTERNS:
            if not ends[pat]:
                continue
            _, fl = launch(smids[("launch", a.blocks)], *model[pat])
            m0, f0 = min(ends[pat].values()), min(fl.values())
            rest = 0
            for sm in sorted(ends[pat], key=lambda s: (-ends[pat][s], s)):
                if ends[pat][sm] <= 1.02 * m0 and fl.get(sm, 0) <= 1.02 * f0:
                    rest += 1
                    continue
                g = gpc[sm] if gpc[sm] in big else next((h for h, t in tail.items() if sm in t), "?")
                print(f"| {pat} | {sm} | {g} | {ends[pat][sm] / m0:.2f} | {fl.get(sm, 0) / f0:.2f} |")
            print(f"| {pat} | the other {rest} | | <= 1.02 | <= 1.02 |")


if __name__ == "__main__":
    main()
