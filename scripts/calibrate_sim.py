#!/usr/bin/env python3
"""Replay the H100 microbenchmark patterns through `arcsim sim` and compare with the GPU.

Each case is a synthetic trace (`arcsim trace gen`, 132 SMs x 4 sub-cores x 16 warps, every
lane active, back-to-back atomics) shaped like one microbenchmark of results/h100/microbench;
the model's lane atomics per cycle (or speedup) is set against the measured one. Each
--variant is one model configuration, "LABEL|ARGS" with ARGS passed to `arcsim sim` (e.g.
"calibrated + deep ROP queue|--gpu h100 --set rop_queue_depth=512", or "--config FILE"):

  python3 scripts/calibrate_sim.py --arcsim build/arcsim [--raw results/h100/microbench]
        [--variant "LABEL|ARGS" ...] [--md OUT.md] [--json OUT.json] [--plot OUT.png]
        [--doc docs/calibration.md]     (rewrites its generated table between the markers)
  python3 scripts/calibrate_sim.py --arcsim build/arcsim --check OUT.json [--cases hot,one_sm]
        (re-runs those cases of every variant in OUT.json; exit 1 unless the model gives the same
        numbers: the committed table agrees with the current binary)

scripts/regen-calibration.sh runs it with the variants docs/calibration.md shows.

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
        "line4": (t(sweep="k_per_warp", op="red", k=4, lane_stride=1), "k_per_warp red k=4 in one line"),
        "line32": (t(sweep="k_per_warp", op="red", k=32, lane_stride=1), "k_per_warp red k=32 in one line"),
        "line32_1sm": (t(sweep="sms_coalesced", op="red", sms=1), "sms_coalesced red 1 SM, 32 words of a line"),
        "hot_line": (t(sweep="hotspot", op="red", k=32), "hotspot red k=32: the chip on one line"),
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
    "line4": (["-n", "67584", "--buffer-words", "16777216", "--sharing", "line", "--k", "4"], "baseline"),
    "line32": (["-n", "67584", "--buffer-words", "16777216", "--sharing", "line", "--k", "32"], "baseline"),
    "line32_1sm": (["-n", "4096", "--buffer-words", "16777216", "--sharing", "line", "--k", "32", "--sms", "1"],
                   "baseline"),
    "hot_line": (["-n", "4224", "--buffer-words", "32", "--sharing", "line", "--k", "32"], "baseline"),
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


def gen(arcsim, work, only=None):
    """The case traces in `work`, made again unless a trace was made by this same binary with the
    same flags (a key file beside it holds the binary's hash and the command's flags)."""
    import hashlib
    with open(arcsim, "rb") as f:
        binary = hashlib.sha256(f.read()).hexdigest()
    paths = {}
    for name, (flags, _) in CASES.items():
        if only is not None and name not in only:
            continue
        path = os.path.join(work, f"{name}.arctrace")
        args = merge(SHAPE, flags)
        key = json.dumps({"arcsim_sha256": binary, "flags": args})
        key_path = path + ".key"
        fresh = os.path.exists(path) and os.path.exists(key_path) and open(key_path).read() == key
        if not fresh:
            subprocess.run([arcsim, "trace", "gen", "-o", path] + args, check=True)
            with open(key_path, "w") as f:
                f.write(key)
        paths[name] = path
    return paths


def sim(arcsim, trace, modes, args):
    cmd = [arcsim, "sim", "--trace", trace, "--mode", modes, "--threshold", "2", "--json"] + args
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return {r["mode"]: r for r in json.loads(out)["runs"]}


def evaluate(arcsim, paths, args, meas, jobs, only=None):
    """The model's number for each case (only: the trace cases to run, default all)."""
    names = [n for n in CASES if only is None or n in only]
    pred = {}
    with cf.ThreadPoolExecutor(jobs) as ex:
        fut = {n: ex.submit(sim, arcsim, paths[n], CASES[n][1], args) for n in names}
        res = {n: f.result() for n, f in fut.items()}
    for n in ("distinct", "same", "k4", "hot", "one_sm", "line4", "line32", "line32_1sm", "hot_line"):
        if n in res:
            r = res[n]["baseline"]
            pred[n] = r["lane_updates"] / r["total_cycles"]
    if "uniform" in res:
        u = res["uniform"]
        pred["swb_speedup"] = u["sw-b"]["speedup_vs_baseline"]
        pred["sws_speedup"] = u["sw-s"]["speedup_vs_baseline"]
    table = []
    for n, (m, src) in meas.items():
        if n in pred:
            table.append(dict(case=n, measured=m, predicted=pred[n], error_pct=100.0 * (pred[n] - m) / m, source=src))
    return table


def provenance(arcsim):
    """Date and commit of this run (the tables say which binary made them)."""
    import datetime
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    try:
        commit = subprocess.run(["git", "-C", root, "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", root, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, check=True).stdout.strip()
        commit += " (with uncommitted changes)" if dirty else ""
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    return {"date": datetime.date.today().isoformat(), "commit": commit,
            "arcsim": os.path.relpath(os.path.abspath(arcsim), root)}


def check(a, meas):
    """Re-runs the named cases of every variant of a committed JSON; True when all agree."""
    with open(a.check) as f:
        doc = json.load(f)
    only = set(a.cases.split(","))
    unknown = sorted(only - set(CASES))
    if unknown:
        raise SystemExit(f"calibrate_sim.py: --cases names no such case: {', '.join(unknown)} (cases: {', '.join(CASES)})")
    case_of = {"swb_speedup": "uniform", "sws_speedup": "uniform"}
    paths = gen(a.arcsim, a.work, only)
    ok = True
    compared = 0
    for v in doc["variants"]:
        got = {r["case"]: r["predicted"] for r in evaluate(a.arcsim, paths, v["args"].split(), meas, a.jobs, only)}
        for r in v["cases"]:
            if case_of.get(r["case"], r["case"]) not in only:
                continue
            same = abs(got[r["case"]] - r["predicted"]) <= 1e-9 * abs(r["predicted"])
            ok &= same
            compared += 1
            print(f"{'ok  ' if same else 'DIFF'} {v['label']}: {r['case']} committed {r['predicted']:.6g}, "
                  f"re-run {got[r['case']]:.6g}")
    if compared == 0:
        print(f"calibration table vs re-run: nothing compared: {a.check} has no row of the cases {', '.join(sorted(only))}")
        return False
    print(f"calibration table vs re-run: {'agree' if ok else 'DIFFER'} on {compared} rows (committed "
          f"{doc['generated']['date']}, commit {doc['generated']['commit']})")
    return ok


def doc_table(out, gen_info):
    """The compact case x variant table for docs/calibration.md."""
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    if len(out) > len(letters):
        raise SystemExit(f"calibrate_sim.py: {len(out)} variants, more than the table's {len(letters)} column letters")
    lines = [f"Generated by `scripts/regen-calibration.sh` on {gen_info['date']} from commit {gen_info['commit']}.", ""]
    for L, v in zip(letters, out):
        lines.append(f"- **{L}**: {v['label']} (`{v['args']}`)")
    lines += ["", "| case (measurement) | H100 | " + " | ".join(letters[:len(out)]) + " |",
              "| --- | --- | " + " | ".join("---" for _ in out) + " |"]
    for i, r in enumerate(out[0]["cases"]):
        cells = [f"{v['cases'][i]['predicted']:.3g} ({v['cases'][i]['error_pct']:+.0f}%)" for v in out]
        lines.append(f"| {r['case']} ({r['source']}) | {r['measured']:.3g} | " + " | ".join(cells) + " |")
    n_all = len(out[0]["cases"])
    n_tput = len([r for r in out[0]["cases"] if not r["case"].endswith("_speedup")])
    lines.append(f"| MAPE, {n_tput} throughput cases / all {n_all} | | " +
                 " | ".join(f"{v['mape_throughput_pct']:.0f}% / {v['mape_pct']:.0f}%" for v in out) + " |")
    return "\n".join(lines)


def rewrite_doc(path, table):
    begin, end = "<!-- model_vs_microbench:begin (scripts/calibrate_sim.py --doc) -->", "<!-- model_vs_microbench:end -->"
    with open(path) as f:
        text = f.read()
    if begin not in text or end not in text:
        raise SystemExit(f"calibrate_sim.py: {path} has no generated-table markers ({begin} ... {end})")
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    with open(path, "w") as f:
        f.write(head + begin + "\n" + table + "\n" + end + tail)


def plot(out, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6.4, 5.6))
    lo, hi = 0.1, 100.0
    ax.plot([lo, hi], [lo, hi], "k-", lw=0.8)
    ax.fill_between([lo, hi], [lo * 0.9, hi * 0.9], [lo * 1.1, hi * 1.1], color="0.85", label="within 10%")
    for v, mk in zip(out, "osD^v"):
        c = v["cases"]
        ax.scatter([r["measured"] for r in c], [r["predicted"] for r in c], marker=mk,
                   label=f"{v['label']} (MAPE {v['mape_throughput_pct']:.0f}% / {v['mape_pct']:.0f}%)")
    for r in out[-1]["cases"]:
        ax.annotate(r["case"], (r["measured"], r["predicted"]), fontsize=7, xytext=(4, -8), textcoords="offset points")
    ax.set(xscale="log", yscale="log", xlim=(lo, hi), ylim=(lo, hi), xlabel="H100 measured",
           ylabel="arcsim sim predicted",
           title="Microbenchmark patterns: lane atomics/cycle, SW speedups")
    ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--arcsim", default=os.environ.get("ARCSIM", "build/arcsim"))
    ap.add_argument("--raw", default="results/h100/microbench")
    ap.add_argument("--variant", action="append", default=[], help="LABEL|ARGS for arcsim sim")
    ap.add_argument("--work", default=os.path.join(tempfile.gettempdir(), "arc-calib-traces"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--md")
    ap.add_argument("--json")
    ap.add_argument("--plot")
    ap.add_argument("--doc", help="rewrite the generated table in this markdown file (docs/calibration.md)")
    ap.add_argument("--check", metavar="JSON", help="re-run --cases of every variant in JSON and compare")
    ap.add_argument("--cases", default="hot,one_sm,uniform", help="trace cases for --check")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    meas = measured(a.raw)
    if a.check:
        raise SystemExit(0 if check(a, meas) else 1)
    paths = gen(a.arcsim, a.work)
    variants = [v.split("|", 1) for v in a.variant] or [["h100.toml as is", "--gpu h100"]]
    out, md = [], []
    for label, args in variants:
        table = evaluate(a.arcsim, paths, args.split(), meas, a.jobs)
        mape = sum(abs(r["error_pct"]) for r in table) / len(table)
        tput = [r for r in table if not r["case"].endswith("_speedup")]
        mape_t = sum(abs(r["error_pct"]) for r in tput) / len(tput)
        out.append(dict(label=label, args=args, mape_pct=mape, mape_throughput_pct=mape_t, cases=table))
        md.append(f"\n**{label}** (`{args}`): MAPE {mape_t:.1f}% over the {len(tput)} throughput cases, "
                  f"{mape:.1f}% over all {len(table)}\n")
        md.append("| case | measured | model | error | measurement |\n| --- | --- | --- | --- | --- |")
        for r in table:
            md.append(f"| {r['case']} | {r['measured']:.3f} | {r['predicted']:.3f} | {r['error_pct']:+.1f}% | {r['source']} |")
    text = "\n".join(md)
    print(text)
    info = provenance(a.arcsim)
    if a.md:
        with open(a.md, "w") as f:
            f.write("# Model vs H100 microbenchmarks (generated by scripts/calibrate_sim.py)\n\n"
                    f"Generated on {info['date']} from commit {info['commit']} (`{info['arcsim']}`). "
                    "Lane atomics per cycle (chip) for the throughput cases; speedup over Baseline for the two "
                    "ARC-SW cases.\n" + text + "\n")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"generated": info, "variants": out}, f, indent=1)
    if a.doc:
        rewrite_doc(a.doc, doc_table(out, info))
    if a.plot:
        plot(out, a.plot)


if __name__ == "__main__":
    main()
