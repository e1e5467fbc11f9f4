#!/usr/bin/env python3
"""Turns scripts/paper_eval.py's raw `arcsim sim --json` files (OUT/raw) into OUT/summary.json,
OUT/details.json, the plots (Figures 18-23 of the ARC paper redrawn, PNG) and OUT/README.md with
our numbers beside the paper's. Every number comes from the raw JSON or from the measured H100
benchmark files named below; nothing is typed in except the paper's own averages (PAPER)."""
import argparse
import glob
import json
import math
import os
import subprocess

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from paper_eval_text import write_readme  # noqa: E402

GPU_LABEL = {"rtx4090": "4090-Sim", "rtx3060": "3060-Sim", "h100": "H100 config"}
# Measured H100 gradient-step speedups (ARC-SW): the bundled 480x270 gs-il run (the gs trace's
# scene), the 960x540 pulsar run (the pulsar trace's scene) and the full-size 1080p benchmark
# (results/h100/validation/full/bench; the tex trace's scene).
H100_SMALL = "tests/data/gs-il-floor-h100.bench.json"
H100_PULSAR = "tests/data/paper/pulsar.bench.json"
H100_FULL = "results/h100/validation/full/bench/bench.json"
BENCH_WL = {"gs": "gs-il", "pulsar": "pulsar", "tex": "tex"}


def geomean(xs):
    xs = [x for x in xs if x and x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


CONFIGS = {}  # gpu -> the resolved configuration of its runs (`arcsim sim --json` "config")


def load_raw(out):
    runs = {}  # (gpu, wl, tag) -> {mode label: run}
    for path in sorted(glob.glob(os.path.join(out, "raw", "*.json"))):
        doc = json.load(open(path))
        if "paper_eval" not in doc:
            continue
        m = doc["paper_eval"]
        runs[(m["gpu"], m["workload"], m["tag"])] = {r["mode"]: r for r in doc["runs"]}
        if m["tag"] == "main":
            CONFIGS[m["gpu"]] = doc["config"]
    return runs


def measured_h100(root):
    out = {}
    for scene, path in (("480x270", H100_SMALL), ("960x540", H100_PULSAR), ("1920x1080", H100_FULL)):
        p = os.path.join(root, path)
        if not os.path.exists(p):
            continue
        for r in json.load(open(p))["rows"]:
            if r["method"] in ("sws", "swb") and r.get("speedup_grad"):
                key = (r["workload"], "sw-s" if r["method"] == "sws" else "sw-b", scene)
                if r["speedup_grad"] > out.get(key, (0, 0))[0]:
                    out[key] = (r["speedup_grad"], r["threshold"])
    return out


def analyse(runs):
    """details[gpu][wl] = everything the report and the plots need."""
    details = {}
    for (gpu, wl, tag) in runs:
        if tag != "main":
            continue
        main = runs[(gpu, wl, "main")]
        base = main["baseline"]
        cyc, stall = base["total_cycles"], base["atomic_stall_cycles"]

        def sp(r):
            return cyc / r["total_cycles"]

        def red(r):
            return stall / r["atomic_stall_cycles"] if r["atomic_stall_cycles"] else None  # none left: no ratio

        d = {"baseline_cycles": cyc, "baseline_stalls": stall, "methods": {}, "threshold": {}, "lab": {}, "rop": {}}
        M = d["methods"]
        d["baseline_requests_per_instr"] = base["requests_to_l2"] / base["instructions"]
        for label, name in (("arc-hw/dynamic", "arc-hw"), ("lab-ideal", "lab-ideal"), ("phi", "phi")):
            r = main[label]
            M[name] = {"speedup": sp(r), "stall_reduction": red(r), "cycles": r["total_cycles"],
                       "requests_vs_baseline": r["requests_to_l2"] / base["requests_to_l2"]}
            if "sm_buffer" in r:
                M[name]["buffer_cycles_per_instr"] = r["sm_buffer"]["busy_cycles"] / r["instructions"]
                M[name]["buffer_miss_rate"] = r["sm_buffer"]["misses"] / r["sm_buffer"]["lookups"]
        for (g2, w2, t2), rr in runs.items():
            if (g2, w2) != (gpu, wl):
                continue
            if t2.startswith("lab-"):
                d["lab"][int(t2[4:])] = {"speedup": sp(rr["lab"]), "stall_reduction": red(rr["lab"])}
            if t2.startswith("X-"):
                x = int(t2[2:])
                d["threshold"][x] = {"sw-s": sp(rr["sw-s"]), "sw-b": sp(rr["sw-b"]),
                                     "arc-hw": sp(rr[f"arc-hw/threshold-{x}"]),
                                     "stalls": {"sw-s": red(rr["sw-s"]), "sw-b": red(rr["sw-b"]),
                                                "arc-hw": red(rr[f"arc-hw/threshold-{x}"])}}
            if t2.startswith("rop-"):
                b = rr["baseline"]
                d["rop"][t2[4:]] = {"rop_units": None, **{m: b["total_cycles"] / rr[m]["total_cycles"]
                                                         for m in rr if m != "baseline"},
                                    "baseline_vs_default": cyc / b["total_cycles"]}
        if d["lab"]:
            best = max(d["lab"], key=lambda p: d["lab"][p]["speedup"])
            M["lab"] = {**d["lab"][best], "partition_pct": best}
        for name, key in (("sw-s", "sw-s"), ("sw-b", "sw-b"), ("arc-hw-threshold", "arc-hw")):
            if d["threshold"]:
                x = max(d["threshold"], key=lambda t: d["threshold"][t][key])
                M[name] = {"speedup": d["threshold"][x][key], "stall_reduction": d["threshold"][x]["stalls"][key],
                           "threshold": x}
        if "sw-s" in M:
            sw = max(M["sw-s"]["speedup"], M["sw-b"]["speedup"])
            M["arc-sw"] = {"speedup": sw}
            d["arc_hw_over_arc_sw"] = M["arc-hw"]["speedup"] / sw
        if "lab" in M:
            d["lab_ideal_over_lab"] = M["lab-ideal"]["speedup"] / M["lab"]["speedup"]
        details.setdefault(gpu, {})[wl] = d
    return details


def averages(details):
    avg = {}
    for gpu, wls in details.items():
        a = {}
        for m in ("arc-hw", "arc-hw-threshold", "sw-s", "sw-b", "arc-sw", "lab", "lab-ideal", "phi"):
            a[m] = geomean([d["methods"].get(m, {}).get("speedup") for d in wls.values()])
        for m in ("arc-hw", "lab", "lab-ideal", "phi"):
            a[m + " stalls"] = geomean([d["methods"].get(m, {}).get("stall_reduction") for d in wls.values()])
        a["lab-ideal/lab"] = geomean([d.get("lab_ideal_over_lab") for d in wls.values()])
        a["arc-hw/arc-sw"] = geomean([d.get("arc_hw_over_arc_sw") for d in wls.values()])
        avg[gpu] = a
    return avg


def bars(path, title, ylabel, groups, series, values):
    fig, ax = plt.subplots(figsize=(1.6 + 1.3 * len(groups), 3.2))
    w = 0.8 / len(series)
    for i, s in enumerate(series):
        xs = [g + (i - (len(series) - 1) / 2) * w for g in range(len(groups))]
        ys = [values.get((g, s)) or 0 for g in groups]
        ax.bar(xs, ys, w, label=s)
    ax.axhline(1.0, color="k", lw=0.8)
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(groups)
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=7, ncol=len(series))
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def plots(out, details, avg):
    made = []
    for gpu, wls in details.items():
        groups = sorted(wls) + ["GMEAN"]
        meth = ["arc-hw", "phi", "lab", "lab-ideal"]
        vals = {(w, m): wls[w]["methods"].get(m, {}).get("speedup") for w in wls for m in meth}
        vals.update({("GMEAN", m): avg[gpu][m] for m in meth})
        p = f"fig18-19_speedup_{gpu}.png"
        bars(os.path.join(out, p), f"Gradient-step speedup over Baseline, {GPU_LABEL[gpu]} (Fig. 18/19)",
             "speedup", groups, meth, vals)
        made.append(p)
        meth = ["arc-hw", "lab", "lab-ideal", "phi"]
        vals = {(w, m): wls[w]["methods"].get(m, {}).get("stall_reduction") for w in wls for m in meth}
        vals.update({("GMEAN", m): avg[gpu][m + " stalls"] for m in meth})
        p = f"fig20-21_stalls_{gpu}.png"
        bars(os.path.join(out, p), f"Reduction in atomic stalls vs Baseline, {GPU_LABEL[gpu]} (Fig. 20/21)",
             "x fewer stall cycles", groups, meth, vals)
        made.append(p)
    # Fig. 22 (ARC-SW; here in the simulator) and Fig. 25 (ARC-HW over ARC-SW).
    groups = [f"{w}\n{GPU_LABEL[g]}" for g in details for w in sorted(details[g])]
    vals = {}
    for g in details:
        for w in sorted(details[g]):
            M = details[g][w]["methods"]
            for m in ("sw-s", "sw-b", "arc-hw"):
                vals[(f"{w}\n{GPU_LABEL[g]}", m)] = M.get(m, {}).get("speedup")
    bars(os.path.join(out, "fig22-25_arcsw_archw.png"), "ARC-SW (best X) and ARC-HW in the simulator (Fig. 22/25)",
         "speedup over Baseline", groups, ["sw-s", "sw-b", "arc-hw"], vals)
    made.append("fig22-25_arcsw_archw.png")
    # Fig. 23: threshold sensitivity.
    for gpu, wls in details.items():
        fig, axes = plt.subplots(1, len(wls), figsize=(3.2 * len(wls), 2.8), squeeze=False)
        for ax, w in zip(axes[0], sorted(wls)):
            th = wls[w]["threshold"]
            xs = sorted(th)
            for m in ("sw-s", "sw-b", "arc-hw"):
                ax.plot(xs, [th[x][m] for x in xs], marker="o", label=m if m != "arc-hw" else "arc-hw (threshold)")
            ax.axhline(1.0, color="k", lw=0.8)
            ax.set_title(w, fontsize=9)
            ax.set_xlabel("balancing threshold X")
        axes[0][0].set_ylabel("speedup over Baseline")
        axes[0][0].legend(fontsize=7)
        fig.suptitle(f"Sensitivity to the balancing threshold, {GPU_LABEL[gpu]} (Fig. 23)", fontsize=10)
        fig.tight_layout()
        p = f"fig23_threshold_{gpu}.png"
        fig.savefig(os.path.join(out, p), dpi=120)
        plt.close(fig)
        made.append(p)
    # ROP unit count.
    fig, axes = plt.subplots(1, len(details), figsize=(3.4 * len(details), 2.9), squeeze=False)
    for ax, gpu in zip(axes[0], details):
        for w in sorted(details[gpu]):
            d = details[gpu][w]
            pts = [("0.5", d["rop"].get("0.5")), ("1", None), ("2", d["rop"].get("2"))]
            for m, style in (("arc-hw/dynamic", "-o"), ("lab-ideal", "--s"), ("sw-b", ":^")):
                ys = []
                for f, r in pts:
                    if f == "1":
                        key = {"arc-hw/dynamic": "arc-hw", "lab-ideal": "lab-ideal", "sw-b": None}[m]
                        ys.append(d["methods"][key]["speedup"] if key else d["threshold"].get(8, {}).get("sw-b"))
                    else:
                        ys.append(r.get(m) if r else None)
                ax.plot([0.5, 1, 2], ys, style, label=f"{w} {m.split('/')[0]}")
        ax.set_xscale("log", base=2)
        ax.set_xlabel("ROP units (x config)")
        ax.set_title(GPU_LABEL[gpu], fontsize=9)
        ax.axhline(1.0, color="k", lw=0.8)
    axes[0][0].set_ylabel("speedup over Baseline (same ROPs)")
    axes[0][0].legend(fontsize=6)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "rop_units.png"), dpi=120)
    plt.close(fig)
    made.append("rop_units.png")
    return made


def trace_scenes(arcsim, traces):
    scenes = {}
    for wl, path in traces.items():
        frame = "?"
        if arcsim and os.path.exists(arcsim):
            info = subprocess.run([arcsim, "trace", "info", path], capture_output=True, text=True).stdout
            for line in info.splitlines():
                if line.startswith("meta") and line.split()[1].endswith(".frame"):
                    frame = line.split()[-1]
        scenes[wl] = frame
    return scenes


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", required=True)
    ap.add_argument("--arcsim", default="build/arcsim")
    a = ap.parse_args()
    runs = load_raw(a.out)
    if not runs:
        raise SystemExit(f"paper_eval_report: no raw results in {a.out}/raw")
    details = analyse(runs)
    avg = averages(details)
    summary = {g: {w: {m: round(v["speedup"], 4) for m, v in d["methods"].items()} for w, d in wls.items()}
               for g, wls in details.items()}
    with open(os.path.join(a.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1, sort_keys=True)
    traces = json.load(open(os.path.join(a.out, "raw", "traces.json")))
    meas = measured_h100(".")
    with open(os.path.join(a.out, "details.json"), "w") as f:
        json.dump({"details": details, "averages": avg, "traces": traces,
                   "h100_measured": {f"{k[0]} {k[1]} {k[2]}": v for k, v in meas.items()}}, f, indent=1,
                  sort_keys=True, default=str)
    made = plots(a.out, details, avg)
    write_readme(a.out, details, avg, traces, trace_scenes(a.arcsim, traces), meas, made, CONFIGS)
    print(f"paper_eval_report: {a.out}/summary.json, README.md and {len(made)} plots")


if __name__ == "__main__":
    main()
