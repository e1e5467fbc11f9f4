#!/usr/bin/env python3
"""Replay the H100 microbenchmark patterns through `arcsim sim` and compare with the GPU.

Each case is a synthetic trace (`arcsim trace gen`, 132 SMs x 4 sub-cores x 16 warps, every
lane active, back-to-back atomics) shaped like one microbenchmark of results/h100/microbench;
the model's lane atomics per cycle (or speedup) is set against the measured one. Run it with
candidate values to choose between them (each --units value is one model configuration):

  python3 scripts/calibrate_sim.py --arcsim build/arcsim [--raw results/h100/microbench]
        [--units 44,64] [--set key=value ...] [--md OUT.md] [--json OUT.json] [--plot OUT.png]

Python 3 standard library (matplotlib only for --plot). Method: docs/calibration.md.
"""
import argparse
import concurrent.futures as cf
import csv
import json
import os
import subprocess
import tempfile

SHAPE = ["--sms", "132", "--subcores", "4", "--warps-per-subcore", "16", "--activity", "full",
         "--gap-mean", "1", "--method", "baseline", "-q"]


def rows(raw, name):
    with open(os.path.join(raw, name), newline="") as f:
        return list(csv.DictReader(f))


def measured(raw):
    tp = rows(raw, "throughput.csv")
    pr = rows(raw, "prims.csv")

    def t(**kw):
        r = [x for x in tp if all(x[k] == str(v) for k, v in kw.items())]
        return float(r[0]["lane_ops_per_clk"])

    def p(kind, groups):
        r = [x for x in pr if x["kind"] == kind and x["groups"] == str(groups) and x["mode"] == "full_chip"
             and x["threshold"] == "1"]
        return float(r[0]["issue_cycles_per_step_per_subcore"])

    return {
        "distinct": (t(sweep="sms_distinct", op="red", sms=132), "sms_distinct red 132 SMs"),
        "same": (t(sweep="k_per_warp", op="red", k=1, lane_stride=1), "k_per_warp red k=1"),
        "k4": (t(sweep="k_per_warp", op="red", k=4, lane_stride=32), "k_per_warp red k=4 own lines"),
        "hot": (t(sweep="hotspot", op="red", k=1), "hotspot red k=1"),
        "one_sm": (t(sweep="sms_distinct", op="red", sms=1), "sms_distinct red 1 SM"),
        "swb_speedup": (p("reduce_baseline", 32) / p("reduce_swb", 32),
                        "prims full_chip: reduce_baseline / reduce_swb issue cycles, uniform warps"),
        "sws_speedup": (p("reduce_baseline", 32) / p("reduce_sws", 32),
                        "prims full_chip: reduce_baseline / reduce_sws issue cycles, uniform warps"),
    }


CASES = {  # name -> trace gen flags, modes
    "distinct": (["-n", "67584", "--buffer-words", "16777216", "--sharing", "distinct"], "baseline"),
    "same": (["-n", "67584", "--buffer-words", "16777216", "--sharing", "same"], "baseline"),
    "k4": (["-n", "67584", "--buffer-words", "16777216", "--sharing", "k", "--k", "4"], "baseline"),
    "hot": (["-n", "4224", "--buffer-words", "1", "--sharing", "same"], "baseline"),
    "one_sm": (["-n", "4096", "--buffer-words", "16777216", "--sharing", "distinct", "--sms", "1"], "baseline"),
    "uniform": (["-n", "16896", "--buffer-words", "16777216", "--sharing", "same", "--gap-mean", "8"],
                "baseline,sw-s,sw-b"),
}


def merge(base, flags):
    """Flags of a case replace the same flags of the common shape (e.g. --sms, --gap-mean)."""
    out, i = [], 0
    while i < len(base):
        if base[i].startswith("--") and i + 1 < len(base) and not base[i + 1].startswith("-"):
            if base[i] not in flags:
                out += base[i:i + 2]
            i += 2
        else:
            out.append(base[i])
            i += 1
    return out + flags


def gen(arcsim, work):
    paths = {}
    for name, (flags, _) in CASES.items():
        path = os.path.join(work, f"{name}.arctrace")
        if not os.path.exists(path):
            subprocess.run([arcsim, "trace", "gen", "-o", path] + merge(SHAPE, flags), check=True)
        paths[name] = path
    return paths


def sim(arcsim, trace, modes, sets, gpu):
    cmd = [arcsim, "sim", "--gpu", gpu, "--trace", trace, "--mode", modes, "--threshold", "2", "--json"]
    for s in sets:
        cmd += ["--set", s]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return {r["mode"]: r for r in json.loads(out)["runs"]}


def evaluate(arcsim, paths, sets, gpu, meas, jobs):
    pred = {}
    with cf.ThreadPoolExecutor(jobs) as ex:
        fut = {n: ex.submit(sim, arcsim, paths[n], CASES[n][1], sets, gpu) for n in CASES}
        res = {n: f.result() for n, f in fut.items()}
    for n in ("distinct", "same", "k4", "hot", "one_sm"):
        r = res[n]["baseline"]
        pred[n] = r["lane_updates"] / r["total_cycles"]
    u = res["uniform"]
    pred["swb_speedup"] = u["sw-b"]["speedup_vs_baseline"]
    pred["sws_speedup"] = u["sw-s"]["speedup_vs_baseline"]
    table = []
    for n, (m, src) in meas.items():
        table.append(dict(case=n, measured=m, predicted=pred[n], error_pct=100.0 * (pred[n] - m) / m, source=src))
    return table


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--arcsim", default=os.environ.get("ARCSIM", "build/arcsim"))
    ap.add_argument("--raw", default="results/h100/microbench")
    ap.add_argument("--gpu", default="h100")
    ap.add_argument("--units", default="", help="comma-separated rop_units candidates (default: the config's)")
    ap.add_argument("--set", action="append", default=[], help="key=value passed to arcsim sim")
    ap.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "arc-calib-traces"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--md")
    ap.add_argument("--json")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    meas = measured(a.raw)
    paths = gen(a.arcsim, a.work)
    configs = [[f"rop_units={u}"] for u in a.units.split(",") if u] or [[]]
    out, md = [], []
    for extra in configs:
        sets = a.set + extra
        table = evaluate(a.arcsim, paths, sets, a.gpu, meas, a.jobs)
        mape = sum(abs(r["error_pct"]) for r in table) / len(table)
        out.append(dict(sets=sets, mape_pct=mape, cases=table))
        md.append(f"\n`--set {' --set '.join(sets) if sets else '(config as is)'}`: MAPE {mape:.1f}%\n")
        md.append("| case | measured | model | error | measurement |\n| --- | --- | --- | --- | --- |")
        for r in table:
            md.append(f"| {r['case']} | {r['measured']:.3f} | {r['predicted']:.3f} | {r['error_pct']:+.1f}% | {r['source']} |")
    text = "\n".join(md)
    print(text)
    if a.md:
        with open(a.md, "w") as f:
            f.write("# Model vs H100 microbenchmarks (generated by scripts/calibrate_sim.py)\n\n"
                    "Lane atomics per cycle (chip) for the throughput cases; speedup over Baseline for the two "
                    "ARC-SW cases.\n" + text + "\n")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
