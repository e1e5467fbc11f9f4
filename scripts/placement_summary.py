#!/usr/bin/env python3
"""Issue 17: the SM sweep's knee across H100 machines.

Reads sw/microbench/placement.cu's CSVs (results/h100/validation/full/placement/run*/) and the
SM sweep rows of every committed throughput.csv, and prints (markdown) what they show: the
rate of the SM sweep's own launches (n blocks, one per SM) per machine, the same SMs' rate
when other SM sets run (first n ids, every s-th id, 8 consecutive ids), and the per-block
spread inside one launch.

Usage: scripts/placement_summary.py [RESULTS_DIR=results/h100]
"""
import csv
import glob
import os
import sys
from collections import defaultdict


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "results/h100"
    # 1. The SM sweep in every committed microbenchmark run.
    sweep = defaultdict(list)
    for path in sorted(glob.glob(os.path.join(root, "**", "throughput.csv"), recursive=True)):
        for r in csv.DictReader(open(path)):
            if r["sweep"] in ("sms_distinct", "sms_coalesced", "sms_same") and r["op"] == "red":
                sweep[(r["sweep"], int(r["sms"]))].append(float(r["lane_ops_per_clk"]))
    runs = sorted(glob.glob(os.path.join(root, "validation/full/placement/run*/placement.csv")))
    for path in runs:
        for r in csv.DictReader(open(path)):
            if r["set"] == "launch":
                sweep[("sms_" + r["pattern"], int(r["n"]))].append(float(r["lane_ops_per_clk"]))
    print("## SM sweep, lane atomics per cycle: every device run (throughput.csv sms_*, placement.csv launch)\n")
    print("| pattern | SMs | runs | min | max | max/min |")
    print("| --- | --- | --- | --- | --- | --- |")
    for (pat, n), v in sorted(sweep.items()):
        print(f"| {pat} | {n} | {len(v)} | {min(v):.2f} | {max(v):.2f} | {max(v) / min(v):.3f} |")
    # 2. Per run: sets of SMs.
    for path in runs:
        run = os.path.basename(os.path.dirname(path))
        rows = list(csv.DictReader(open(path)))
        where = defaultdict(list)
        for r in csv.DictReader(open(os.path.join(os.path.dirname(path), "where.csv"))):
            where[int(r["launch_blocks"])].append(int(r["smid"]))
        print(f"\n## {run}: SM sets (distinct / coalesced / same, lane atomics per cycle per SM)\n")
        print(f"The SM sweep's 8-block launch ran on SM ids {sorted(where[8])}.\n")
        print("| set | n | distinct | coalesced | same |")
        print("| --- | --- | --- | --- | --- |")
        table = defaultdict(dict)
        for r in rows:
            if r["set"] == "pair0":
                continue
            table[(r["set"], int(r["param"]), int(r["n"]))][r["pattern"]] = float(r["lane_ops_per_clk"]) / int(r["n"])
        for (s, p, n), v in table.items():
            name = f"{s} {p}" if s in ("stride", "stride_odd", "octet", "gpc", "gpc0_first", "one_per_gpc", "tpc_in_gpc") else s
            print(f"| {name} | {n} | {v.get('distinct', 0):.3f} | {v.get('coalesced', 0):.3f} | {v.get('same', 0):.3f} |")
        gpc_section(run, os.path.dirname(path), rows, where)
        per_sm = os.path.join(os.path.dirname(path), "per_sm.csv")
        if os.path.exists(per_sm):
            spans = defaultdict(list)
            for r in csv.DictReader(open(per_sm)):
                spans[(r["set"], int(r["param"]), r["pattern"])].append((int(r["block_ns"]), int(r["smid"])))
            print(f"\n{run}: per-block run time inside one launch (slowest / fastest block; the kernel takes the slowest)\n")
            print("| set | pattern | blocks | fastest us | slowest us | slowest / fastest | slowest SMs |")
            print("| --- | --- | --- | --- | --- | --- | --- |")
            for (s, p, pat), v in spans.items():
                if s != "launch" or p < 8:
                    continue
                v.sort()
                slow = sorted(sm for ns, sm in v if ns >= 0.97 * v[-1][0])
                print(f"| launch {p} | {pat} | {len(v)} | {v[0][0] / 1e3:.0f} | {v[-1][0] / 1e3:.0f} | "
                      f"{v[-1][0] / v[0][0]:.3f} | {' '.join(map(str, slow[:12]))} |")


def tpc_pace(folder, members):
    """placement.cu's tpc_in_gpc sets: a TPC that no cluster placed, run beside each whole GPC.
    Its blocks' run time against the GPC's own blocks' (per_sm.csv): a TPC of that GPC runs as
    slowly as the GPC's blocks (they share its cap); another TPC runs at its own pace.
    Returns (tpcs, groups, ratio[(tpc, group)], home: TPC (first SM) -> the one GPC it keeps
    pace with (ratio >= 0.95), where exactly one); empty when the run has no such sets."""
    path = os.path.join(folder, "per_sm.csv")
    if not os.path.exists(path):
        return [], [], {}, {}
    spans = defaultdict(dict)
    for r in csv.DictReader(open(path)):
        if r["set"] == "tpc_in_gpc" and r["pattern"] == "coalesced":
            spans[int(r["param"])][int(r["smid"])] = int(r["block_ns"])
    tpcs = sorted({p % 1000 for p in spans})
    groups = sorted({p // 1000 for p in spans})
    ratio, home = {}, {}
    for t in tpcs:
        near = []
        for g in groups:
            d = spans.get(g * 1000 + t, {})
            own = [d[sm] for sm in members.get(g, []) if sm in d]
            mine = [d[sm] for sm in (t, t + 1) if sm in d]
            if own and mine:
                ratio[(t, g)] = max(mine) / max(own)
                if ratio[(t, g)] >= 0.95:
                    near.append(g)
        if len(near) == 1:
            home[t] = near[0]
    return tpcs, groups, ratio, home


def tpc_membership(run, folder, members):
    """Prints tpc_pace()'s table; returns its `home`."""
    tpcs, groups, ratio, home = tpc_pace(folder, members)
    if not tpcs:
        return {}
    print(f"\n{run}: TPCs no cluster placed, each beside a whole GPC (coalesced): the TPC's blocks' time / "
          "the GPC's slowest block's time in the same launch (about 1: it shares that GPC's cap)\n")
    print("| TPC (first SM) | " + " | ".join(f"GPC {g}" for g in groups) + " |")
    print("| --- | " + " | ".join("---" for _ in groups) + " |")
    for t in tpcs:
        cells = [f"{ratio[(t, g)]:.2f}" if (t, g) in ratio else "" for g in groups]
        print(f"| {t} | " + " | ".join(cells) + " |")
    return home


def gpc_section(run, folder, rows, where):
    """The run's GPC map (gpc_map.csv: SMs linked by shared thread-block clusters), each GPC's
    own rate (all its SMs at once) and how the SM sweep's launches spread over the GPCs."""
    path = os.path.join(folder, "gpc_map.csv")
    if not os.path.exists(path):
        return
    gpc = {int(r["smid"]): int(r["gpc"]) for r in csv.DictReader(open(path))}
    members = defaultdict(list)
    for sm, g in gpc.items():
        members[g].append(sm)
    rate = {(int(r["param"]), r["pattern"]): float(r["lane_ops_per_clk"]) for r in rows if r["set"] == "gpc"}
    print(f"\n{run}: GPCs from thread-block clusters (gpc_map.csv), each with all its SMs issuing at once "
          "(lane atomics per cycle, the whole group)\n")
    print("| GPC | SMs | SM ids | distinct | coalesced |")
    print("| --- | --- | --- | --- | --- |")
    for g in sorted(members):
        ids = sorted(members[g])
        print(f"| {g} | {len(ids)} | {' '.join(map(str, ids))} | {rate.get((g, 'distinct'), 0):.2f} | "
              f"{rate.get((g, 'coalesced'), 0):.2f} |")
    home = tpc_membership(run, folder, members)
    # What per-GPC caps alone predict for a launch: each block runs at min(one SM's rate, its
    # group's cap / the launch's blocks in that group), the kernel ends with the slowest block.
    # The TPCs no cluster placed (groups of 2 SMs) are taken three ways: uncapped; all together
    # as one group at the smallest measured cap; in the GPC whose pace they keep (`home`, from
    # the tpc_in_gpc sets; where none was measured, as uncapped).
    single = {r["pattern"]: float(r["lane_ops_per_clk"]) for r in rows if r["set"] == "gpc0_first" and r["n"] == "1"}
    big = {g for g in members if len(members[g]) > 2}
    def predict(blocks, pat, how):
        count = defaultdict(int)
        for sm in blocks:
            g = gpc.get(sm, -1)
            if g not in big:
                g = {"own": "tail", "home": ("home", home.get(sm - sm % 2, g))}.get(how, g)
                if isinstance(g, tuple):
                    g = g[1]
            count[g] += 1
        worst = 0.0
        for g, c in count.items():
            cap = min(rate[(x, pat)] for x in big) if g == "tail" else rate[(g, pat)] if g in big else float("inf")
            worst = max(worst, 1.0 / min(single[pat], cap / c))
        return len(blocks) / worst
    measured = {(int(r["n"]), r["pattern"]): float(r["lane_ops_per_clk"]) for r in rows if r["set"] == "launch"}
    print(f"\n{run}: the SM sweep's launches, blocks per GPC, and what per-GPC caps alone predict "
          "(lane atomics per cycle; the TPCs no cluster placed taken as uncapped / as one group at the "
          "smallest cap / in the GPC whose pace they keep)\n")
    print("| launch | blocks per GPC (GPC: blocks) | distinct measured | predicted | coalesced measured | predicted |")
    print("| --- | --- | --- | --- | --- | --- |")
    for n in sorted(where):
        count = defaultdict(int)
        for sm in where[n]:
            count[gpc.get(sm, -1)] += 1
        cells = []
        for pat in ("distinct", "coalesced"):
            if not single or (n, pat) not in measured:
                cells += ["", ""]
                continue
            cells += [f"{measured[(n, pat)]:.1f}",
                      " / ".join(f"{predict(where[n], pat, how):.1f}" for how in ("uncapped", "own", "home"))]
        print(f"| {n} | {', '.join(f'{g}: {c}' for g, c in sorted(count.items()))} | {' | '.join(cells)} |")


def gpc_layout(run, tool):
    """The die's GPCs from one placement.cu run: (members: GPC -> its cluster SMs (a set), big:
    the GPCs of more than 2 such SMs, sm_gpc: SM -> its GPC, each tail TPC (no cluster placed
    it) in the GPC whose pace it keeps, tail: GPC -> its tail TPCs' SMs). Exits naming `tool`
    and the file when a file is missing, a TPC keeps pace with no single GPC, or the map skips
    an SM."""
    for f in ("gpc_map.csv", "placement.csv", "per_sm.csv"):
        if not os.path.exists(os.path.join(run, f)):
            sys.exit(f"{tool}: {os.path.join(run, f)} is missing (a placement.cu run directory?)")
    gpc = {int(r["smid"]): int(r["gpc"]) for r in csv.DictReader(open(os.path.join(run, "gpc_map.csv")))}
    members = defaultdict(set)
    for sm, g in gpc.items():
        members[g].add(sm)
    big = sorted(g for g in members if len(members[g]) > 2)
    home = tpc_pace(run, {g: sorted(m) for g, m in members.items()})[3]
    sm_gpc, tail = {}, defaultdict(set)
    for sm, g in gpc.items():
        if g in big:
            sm_gpc[sm] = g
            continue
        t = sm - sm % 2
        if t not in home:
            sys.exit(f"{tool}: SM {sm} (TPC {t}) keeps pace with no single GPC in {run}/per_sm.csv")
        sm_gpc[sm] = home[t]
        tail[home[t]].add(sm)
    n = max(sm_gpc) + 1
    if sorted(sm_gpc) != list(range(n)):
        sys.exit(f"{tool}: gpc_map.csv does not list SMs 0..{n - 1}")
    return members, big, sm_gpc, tail


if __name__ == "__main__":
    main()
