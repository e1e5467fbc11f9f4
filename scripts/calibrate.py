#!/usr/bin/env python3
"""Derive the H100 timing-model values from the raw microbenchmark results (issue 9).

Reads the CSVs that scripts/gpu-microbench.sh writes (clock, throughput, latency, prims) and
prints/writes every derived value together with the measurement it came from:

  python3 scripts/calibrate.py [RAW_DIR=results/h100/microbench]
        [--json OUT.json] [--md OUT.md] [--toml cosim/configs/h100.toml] [--plot OUT.png]

--toml rewrites the calibrated keys of that config in place (value + comment naming the
measurement); every other line is kept. --plot needs matplotlib (e.g. /usr/bin/python3).
Python 3 standard library only otherwise. Method: docs/calibration.md.
"""
import argparse
import csv
import json
import os
import re
import statistics
import sys

# SASS of prim_kernel<4> (arc::reduce<SwB, 1>, uniform warp) in sass.txt: the loop body of one
# call, 0x5b0..0x810 (one unrolled copy), is 38 instructions; 8 of them are the loop/value/
# address work that a Baseline call also has (VOTEU.ANY, UIADD3, ISETP, FADD, ULOP3, IADD3,
# BRA, UIADD3) and 30 are the SW-B sequence (ballot, lowest lane, SHFL.IDX + VOTE.ALL
# eligibility, 5 x SHFL.DOWN + FADD, lane-0 branch, BSSY/BSYNC, address, one REDG). The
# one-lane REDG is what remains of Baseline's 32 per-lane REDs, so the sequence is counted
# whole as ARC-SW's added issue work. scripts/calibrate.py checks that sass.txt still holds
# that many SHFL.DOWN per copy (5) so a recompiled binary with another sequence is noticed.
SWB_CALL_INSTR = 38
SWB_SEQ_INSTR = 30


# Where the model needs another value than the measured one to reproduce that measurement
# (found by replaying the microbenchmark patterns, scripts/calibrate_sim.py; docs/calibration.md).
MODEL_FIT = {
    "lsu_issue_per_cycle": (2, "model value 2 so that it delivers the measured 1.00/cycle/SM: its SM-to-crossbar "
                               "link holds max(icnt_flits, lsu_issue) entries, visible a cycle later, so 1 gives 0.50 "
                               "(calibrate_sim.py one_sm); icnt_flits_per_cycle = 1 still caps the SM at 1"),
    "addr_hash": ('"linear"', "replay of 132-SM scattered REDs: ipoly folded onto 44 units overloads 20 of them "
                              "(30.8 vs 43.9 measured), linear gives 42.3 (calibrate_sim.py distinct); the H100's "
                              "own slice hash is not identified by the spread sweep"),
}


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def num(row, key):
    return float(row[key])


def pick(rows, **kw):
    out = [r for r in rows if all(str(r[k]) == str(v) for k, v in kw.items())]
    if not out:
        raise SystemExit(f"calibrate: no row with {kw}")
    return out


def one(rows, **kw):
    return pick(rows, **kw)[0]


def derive(raw):
    clock = read_csv(os.path.join(raw, "clock.csv"))
    tp = read_csv(os.path.join(raw, "throughput.csv"))
    lat = read_csv(os.path.join(raw, "latency.csv"))
    prims = read_csv(os.path.join(raw, "prims.csv"))
    nsm = max(int(r["sms"]) for r in tp)
    v = {}  # key -> dict(value, source, measured)

    mhz = [num(r, "mhz") for r in clock]
    v["clock_ghz"] = dict(
        value=round(statistics.mean(mhz) / 1000, 2),
        measured=mhz,
        source=f"NVIDIA H100 SXM5 datasheet 1.98 GHz max boost, confirmed by clock.csv: clock64 spin timed with cudaEvents, {min(mhz):.0f}-{max(mhz):.0f} MHz under load "
               "(start/end of the run)")

    # LSU: lane requests one SM sends per cycle (one block of 32 warps on one SM, REDs to one
    # address per lane line, or to a warp-uniform address: every lane is its own request).
    one_sm = [num(r, "lane_ops_per_clk") for r in tp if r["op"] == "red" and r["sms"] == "1"
              and r["sweep"] in ("sms_distinct", "sms_same")]
    lsu = statistics.mean(one_sm)
    v["lsu_issue_per_cycle"] = dict(
        value=max(1, round(lsu)), measured=lsu,
        source=f"throughput.csv sms_distinct/sms_same, red, 1 SM: {lsu:.3f} lane requests/cycle/SM "
               "(scattered lines and warp-uniform address alike)")
    v["icnt_flits_per_cycle"] = dict(
        value=max(1, round(lsu)), measured=lsu,
        source="same measurement as lsu_issue_per_cycle (one request = one flit in the model); "
               "a 32-lane line-coalesced RED takes 5 cycles/SM (sms_coalesced, 1 SM), i.e. ~5 flits")

    # Chip ceiling for single-lane requests (all SMs, scattered lines).
    ceil_rows = [r for r in tp if r["op"] == "red" and int(r["sms"]) == nsm and (
        r["sweep"] == "sms_distinct" or (r["sweep"] == "k_per_warp" and r["k"] == "32" and r["lane_stride"] == "32")
        or (r["sweep"] == "active_distinct" and r["active"] == "32"))]
    ceiling = max(num(r, "lane_ops_per_clk") for r in ceil_rows)
    v["rop_ops_per_cycle"] = dict(
        value=1, measured=None,
        source="one op per unit per cycle: the model's unit of work is one lane request; the same-address "
               "rate (hotspot) is below 1/cycle, so no unit needs more")
    v["rop_units"] = dict(
        value=int(round(ceiling)), measured=ceiling,
        source=f"throughput.csv, red, {nsm} SMs, one lane per 128 B line: ceiling {ceiling:.1f} lane "
               "requests/cycle chip-wide = rop_units x rop_ops_per_cycle (an effective count: the "
               "crossbar/L2 input limit, not a die count)")

    hot = one(tp, sweep="hotspot", op="red", k="1")
    hot_atom = one(tp, sweep="hotspot", op="atom", k="1")
    interval = 1.0 / num(hot, "lane_ops_per_clk")
    same_lat = [num(r, "cycles_per_op") for r in pick(lat, test="atom_same")]
    act = [int(r["active"]) for r in pick(lat, test="atom_same")]
    slope = (same_lat[-1] - same_lat[0]) / (act[-1] - act[0])
    v["rop_same_addr_interval"] = dict(
        value=round(interval, 2), measured=interval, knob=True,
        source=f"throughput.csv hotspot k=1 (all {nsm} SMs, one address): {num(hot, 'lane_ops_per_clk'):.4f} red "
               f"(atom {num(hot_atom, 'lane_ops_per_clk'):.4f}) lane ops/cycle = {interval:.2f} cycles per op; "
               f"latency.csv atom_same: +{slope:.2f} cycles per extra same-address lane in one warp")

    ld = num(one(lat, test="ld_cg_l2"), "cycles_per_op")
    at1 = num(one(lat, test="atom_same", active="1"), "cycles_per_op")
    v["icnt_latency"] = dict(
        value=int(round(ld / 2)), measured=ld,
        source=f"latency.csv ld_cg_l2: L2-hit load round trip {ld:.0f} cycles, half of it one way "
               "(the split between wires and L2 array is not visible from the SM; all given to the crossbar)")
    v["rop_latency"] = dict(
        value=int(round(at1 - ld)), measured=at1,
        source=f"latency.csv: 1-lane atom round trip {at1:.0f} - L2-hit load {ld:.0f} cycles")

    # Warp collectives and ARC-SW sequences: issue cycles per call per sub-core, 64 warps/SM.
    def issue(kind, groups, thr=None):
        rows = pick(prims, kind=kind, groups=groups, mode="full_chip")
        if thr is not None:
            rows = [r for r in rows if r["threshold"] == str(thr)]
        return num(rows[0], "issue_cycles_per_step_per_subcore")

    def latency(kind, groups, thr=None):
        rows = pick(prims, kind=kind, groups=groups, mode="one_warp")
        if thr is not None:
            rows = [r for r in rows if r["threshold"] == str(thr)]
        return num(rows[0], "cycles_per_step_per_warp")

    swb = issue("reduce_swb", 32)
    ov = swb * SWB_SEQ_INSTR / SWB_CALL_INSTR
    v["sw_overhead"] = dict(
        value=int(round(ov)), measured=swb,
        source=f"prims.csv reduce_swb (uniform warp, 64 warps/SM, all SMs): {swb:.1f} issue cycles per call per "
               f"sub-core; {SWB_SEQ_INSTR} of its {SWB_CALL_INSTR} SASS instructions per call are the SW-B "
               "sequence (sass.txt prim_kernel<4>). SW-S costs far more and depends on the match pattern "
               "(see sws_* below): one constant cannot serve both")
    extra = {
        "match_any_1key_issue": issue("match_any", 32),
        "match_any_32keys_issue": issue("match_any", 1),
        "match_any_1key_latency": latency("match_any", 32),
        "match_any_32keys_latency": latency("match_any", 1),
        "shfl_down_issue": issue("shfl_down", 1),
        "shfl_down_latency": latency("shfl_down", 1),
        "swb_uniform_issue": swb,
        "swb_uniform_latency": latency("reduce_swb", 32),
        "sws_32x1_issue": issue("reduce_sws", 1, 1),
        "sws_16x2_issue": issue("reduce_sws", 2, 1),
        "sws_4x8_issue": issue("reduce_sws", 8, 1),
        "sws_1x32_issue": issue("reduce_sws", 32, 1),
        "sws_1x32_latency": latency("reduce_sws", 32, 1),
        "adaptive_1x32_issue": issue("reduce_adaptive", 32),
        "baseline_1x32_issue_l2_bound": issue("reduce_baseline", 32),
    }
    # match_any cost per distinct key (issue cycles per sub-core, linear between 1 and 32 keys)
    extra["match_any_issue_per_extra_key"] = (extra["match_any_32keys_issue"] - extra["match_any_1key_issue"]) / 31

    # Headline atomic throughputs (lane ops per cycle, chip-wide, red)
    kpw = {(r["k"], r["lane_stride"]): num(r, "lane_ops_per_clk") for r in tp
           if r["sweep"] == "k_per_warp" and r["op"] == "red"}
    headline = {
        "same_addr_one_address_chip": num(hot, "lane_ops_per_clk"),
        "same_addr_per_warp_distinct_warps": kpw[("1", "1")],
        "distinct_lines_chip": ceiling,
        "distinct_addr_one_line_per_warp": kpw[("32", "1")],
        "coalesced_line_hotspot_chip": num(one(tp, sweep="hotspot", op="red", k="32"), "lane_ops_per_clk"),
        "per_sm_scattered": lsu,
        "per_sm_coalesced": num(one(tp, sweep="sms_coalesced", op="red", sms="1"), "lane_ops_per_clk"),
        "atom_per_sm_scattered": statistics.mean(
            num(r, "lane_ops_per_clk") for r in tp if r["op"] == "atom" and r["sms"] == "1"
            and r["sweep"] in ("sms_distinct", "sms_same")),
        "k_per_warp_red_one_line": {k: kpw[(k, "1")] for k in ("1", "2", "4", "8", "16", "32")},
        "k_per_warp_red_own_lines": {k: kpw[(k, "32")] for k in ("1", "2", "4", "8", "16", "32")},
    }
    return v, extra, headline


def check_sass(raw):
    path = os.path.join(raw, "sass.txt")
    if not os.path.exists(path):
        return "sass.txt missing"
    text = open(path).read()
    notes = []
    # Atomics not aggregated: the throughput kernels hold only per-lane REDG/ATOMG, no warp collectives.
    for line in text.splitlines():
        m = re.match(r"^(\S*tp_kernelILi(\d)\S*) (\d+) (\d+) (\d+) \d+ \d+ (\d+) (\d+) (\d+) (\d+)", line)
        if m:
            name = {"0": "red (inline PTX)", "1": "atom (inline PTX)", "2": "atomicAdd (compiler)"}[m.group(2)]
            redg, atomg, match, vote, shfl, redux = (int(m.group(i)) for i in (4, 5, 6, 7, 8, 9))
            ok = match == vote == shfl == redux == 0
            notes.append(f"{name}: {redg} REDG, {atomg} ATOMG, MATCH/VOTE/SHFL/REDUX "
                         f"{match}/{vote}/{shfl}/{redux} -> {'not aggregated' if ok else 'AGGREGATED'}")
    body = text.split("prim_kernelILi4", 2)
    if len(body) == 3:
        n = body[2].split("Function :")[0].count("SHFL.DOWN")
        notes.append(f"prim_kernel<4> (SW-B): {n} SHFL.DOWN in the kernel (5 per unrolled call)")
    return "; ".join(notes)


def write_toml(path, v):
    v = dict(v)
    for key, (val, why) in MODEL_FIT.items():
        measured = v.get(key, {}).get("source", "")
        v[key] = dict(value=val, source=(f"{measured}; " if measured else "") + why)
    lines = open(path).read().splitlines(keepends=True)
    done = set()
    for i, line in enumerate(lines):
        m = re.match(r"^(\w+)\s*=", line)
        if not m or m.group(1) not in v or v[m.group(1)].get("knob"):
            continue
        key = m.group(1)
        val = v[key]["value"]
        lines[i] = f"{key} = {val}".ljust(30) + f" # calibrated on the H100 (results/h100/microbench, " \
                   f"scripts/calibrate.py): {v[key]['source']}\n"
        done.add(key)
    open(path, "w").write("".join(lines))
    return sorted(done)


def plot(raw, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    tp = read_csv(os.path.join(raw, "throughput.csv"))
    fig, ax = plt.subplots(1, 3, figsize=(15, 4.2))
    for sweep, lab in (("sms_distinct", "32 lanes, 32 lines"), ("sms_same", "32 lanes, 1 address/warp"),
                       ("sms_coalesced", "32 lanes, 32 addr in 1 line")):
        rows = [r for r in tp if r["sweep"] == sweep and r["op"] == "red"]
        ax[0].plot([int(r["sms"]) for r in rows], [num(r, "lane_ops_per_clk") for r in rows], "o-", label=lab)
    ax[0].set(xlabel="SMs in use", ylabel="lane atomics / cycle (chip)", title="red.global.add.f32 vs SMs", yscale="log")
    ax[0].legend(fontsize=8)
    for ls, lab in (("1", "k addresses in one line"), ("32", "k addresses, own lines")):
        rows = [r for r in tp if r["sweep"] == "k_per_warp" and r["op"] == "red" and r["lane_stride"] == ls]
        ax[1].plot([int(r["k"]) for r in rows], [num(r, "lane_ops_per_clk") for r in rows], "o-", label=lab)
    ax[1].set(xlabel="distinct addresses per warp (k)", ylabel="lane atomics / cycle (chip)", xscale="log",
              title="k addresses per warp, 132 SMs")
    ax[1].legend(fontsize=8)
    for sweep, lab in (("spread_same", "warp-uniform address"), ("spread_coalesced", "32 addr in 1 line")):
        rows = [r for r in tp if r["sweep"] == sweep]
        ax[2].plot([int(r["regions"]) for r in rows], [num(r, "lane_ops_per_clk") for r in rows], "o-", label=lab)
    ax[2].set(xlabel="distinct lines hit by the whole chip", ylabel="lane atomics / cycle (chip)", xscale="log",
              yscale="log", title="address spread over L2 slices")
    ax[2].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("raw", nargs="?", default="results/h100/microbench")
    ap.add_argument("--json")
    ap.add_argument("--md")
    ap.add_argument("--toml")
    ap.add_argument("--plot")
    a = ap.parse_args()
    v, extra, headline = derive(a.raw)
    sass = check_sass(a.raw)
    rows = [f"| `{k}` | {d['value']} | {'model knob (--set)' if d.get('knob') else 'h100.toml'} | {d['source']} |"
            for k, d in v.items()]
    md = ["| key | value | where | measurement |", "| --- | --- | --- | --- |"] + rows + [
        "", "| quantity | value |", "| --- | --- |"]
    md += [f"| {k} | {val if isinstance(val, dict) else round(val, 3)} |" for k, val in {**headline, **extra}.items()]
    md += ["", "Written to the config instead of the measured value (--toml), from the model replay:", ""]
    md += [f"- `{k}` = {val}: {why}" for k, (val, why) in MODEL_FIT.items()]
    md += ["", f"SASS check: {sass}"]
    print("\n".join(md))
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"values": v, "headline": headline, "warp_primitives": extra, "sass_check": sass}, f, indent=1)
    if a.md:
        with open(a.md, "w") as f:
            f.write("# H100 calibration (generated by scripts/calibrate.py)\n\n" + "\n".join(md) + "\n")
    if a.toml:
        print("rewrote in", a.toml + ":", ", ".join(write_toml(a.toml, v)), file=sys.stderr)
    if a.plot:
        plot(a.raw, a.plot)


if __name__ == "__main__":
    main()
