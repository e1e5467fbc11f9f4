#!/usr/bin/env python3
"""Issue 9 validation tables from committed data (results/h100/validation/raw).

raw/ is what scripts/validate_capture.sh brought back from the H100: bench/<w>/bench.json (the
measured gradient-step times of the captured scenes), sim/<gpu>-<w>-<trace>-<what>.json (one
`arcsim sim --json` per job, run there on the captured traces), traces/*.info / *.log (the
traces' statistics; the traces themselves, 94-209 MB each, are not kept), scenes.txt, gpu.txt.

Writes into OUT (default results/h100/validation): validation.{csv,json,md} (measured vs
predicted speedup over Baseline per workload x method, error, MAPE), arc_hw.{csv,md} (ARC-HW
predictions per GPU config next to the paper's), predicted_vs_measured.png (scatter, y = x).

Then runs scripts/validate_full.py (issue 17: the full-size table in results/h100/validation/rule-v7-order
and results/h100/validation/summary.json).

Usage: python3 scripts/validate.py [--raw DIR] [--out DIR] [--no-plot]
(/usr/bin/python3 has matplotlib; the tables need only the standard library.)
"""
import argparse
import csv
import json
import math
import os
import sys

METHODS = [  # (workload, bench method, threshold, sim mode, trace tag)
    ("gs", "sws", 16, "sw-s", "sws"),
    ("gs", "swb", 8, "sw-b", "swb"),
    ("pulsar", "sws", 2, "sw-s", "sws"),
    ("tex", "sws", 1, "sw-s", "sws"),
    ("tex", "swb", 8, "sw-b", "swb"),
]
LABEL = {"sws": "SW-S", "swb": "SW-B"}
GPUS = ["h100", "rtx4090", "rtx3060"]
PAPER = "paper (4090-Sim, simulated): ARC-HW 2.1x average over Baseline; 1.13x over ARC-SW"


def load_json(path):
    with open(path) as f:
        return json.load(f)


def runs(raw, name):
    path = os.path.join(raw, "sim", name + ".json")
    if not os.path.exists(path):
        return {}
    return {r["mode"]: r for r in load_json(path)["runs"]}


def bench_ms(raw, w):
    rows = load_json(os.path.join(raw, "bench", w, "bench.json"))["rows"]
    return {(r["method"], r["threshold"]): r for r in rows}


def full_size(root):
    path = os.path.join(root, "results", "h100", "bench.json")
    if not os.path.exists(path):
        return {}
    return {(r["workload"], r["method"], r["threshold"]): r["speedup_grad"] for r in load_json(path)["rows"]}


def validation(raw, root):
    full = full_size(root)
    rows = []
    for w, m, x, mode, tag in METHODS:
        b = bench_ms(raw, w)
        base, meth = b[("baseline", -1)], b[(m, x)]
        measured = base["grad_ms"] / meth["grad_ms"]
        hw_base = runs(raw, f"h100-{w}-base-hw")["baseline"]
        own = runs(raw, f"h100-{w}-{tag}-{tag}")
        one = runs(raw, f"h100-{w}-base-{tag}")[mode]
        # Primary: each method's own trace in its mode vs the Baseline trace in baseline mode.
        pred = hw_base["total_cycles"] / own[mode]["total_cycles"]
        # Same trace family: the Baseline trace replayed in the method's mode.
        pred_one = hw_base["total_cycles"] / one["total_cycles"]
        # The method's own trace, baseline vs its mode (what the trace's gaps leave to the model).
        pred_self = own["baseline"]["total_cycles"] / own[mode]["total_cycles"]
        err = 100.0 * (pred - measured) / measured
        clock = 1.98e6  # cycles per ms (h100.toml clock_ghz)
        rows.append({
            "workload": w, "method": LABEL[m], "threshold": x,
            "baseline_ms": round(base["grad_ms"], 4), "method_ms": round(meth["grad_ms"], 4),
            "reps": meth["reps"], "measured_speedup": round(measured, 3),
            "measured_speedup_1080p": round(full.get((w, m, x), float("nan")), 3),
            "predicted_speedup": round(pred, 3), "error_pct": round(err, 1),
            "predicted_same_trace": round(pred_one, 3), "predicted_own_trace_self": round(pred_self, 3),
            "sim_baseline_ms": round(hw_base["total_cycles"] / clock, 4),
            "sim_method_ms": round(own[mode]["total_cycles"] / clock, 4),
            "sim_baseline_atomic_stall_cycles": hw_base["atomic_stall_cycles"],
            "sim_method_atomic_stall_cycles": own[mode]["atomic_stall_cycles"],
            "sim_method_sw_overhead_cycles": own[mode].get("sw_overhead_cycles", 0),
        })
    mape = sum(abs(r["error_pct"]) for r in rows) / len(rows)
    per_w = {}
    for r in rows:
        per_w.setdefault(r["workload"], []).append(abs(r["error_pct"]))
    per_w = {w: round(sum(v) / len(v), 1) for w, v in per_w.items()}
    worst = max(per_w, key=per_w.get)
    return rows, round(mape, 1), per_w, worst


def arc_hw(raw):
    out = []
    for g in GPUS:
        for w in ["gs", "pulsar", "tex"]:
            hw = runs(raw, f"{g}-{w}-base-hw")
            if not hw:
                continue
            base = hw["baseline"]["total_cycles"]
            thr = {}
            for x in (2, 4, 8, 16):
                r = runs(raw, f"{g}-{w}-base-thr{x}").get(f"arc-hw/threshold-{x}")
                if r:
                    thr[x] = base / r["total_cycles"]
            thr["always"] = base / hw["arc-hw/always"]["total_cycles"]
            best_t = max(thr, key=thr.get)
            sw = {}
            for tag, mode in (("sws", "sw-s"), ("swb", "sw-b")):
                r = runs(raw, f"{g}-{w}-base-{tag}").get(mode)
                if r and not (w == "pulsar" and tag == "swb"):
                    sw[mode] = base / r["total_cycles"]
            best_sw = max(sw.values())
            dyn = base / hw["arc-hw/dynamic"]["total_cycles"]
            out.append({
                "gpu": g, "workload": w, "arc_hw_dynamic": round(dyn, 4),
                "arc_hw_best_threshold": round(thr[best_t], 4), "best_threshold": best_t,
                "arc_sw_best": round(best_sw, 4), "arc_sw_best_mode": max(sw, key=sw.get),
                "arc_hw_dynamic_over_arc_sw": round(dyn / best_sw, 4),
                "baseline_cycles": base,
                "baseline_atomic_stall_cycles": hw["baseline"]["atomic_stall_cycles"],
                "arc_hw_dynamic_atomic_stall_cycles": hw["arc-hw/dynamic"]["atomic_stall_cycles"],
            })
    return out


def regap(raw, rows1):
    """Second pass (raw/regap, scripts/validate_regap.sh): Baseline traces with gaps x s (s from
    the measured no-atomics bound) or x 0, replayed in every mode (one trace family)."""
    rg = os.path.join(raw, "regap")
    if not os.path.isdir(rg):
        return None
    scale = dict(l.split() for l in open(os.path.join(rg, "scale.txt")) if l.strip())

    def r(name):
        return runs(rg, name)
    val = []
    for row in rows1:
        w, mode = row["workload"], {"SW-S": "sw-s", "SW-B": "sw-b"}[row["method"]]
        tag = mode.replace("-", "")
        out = dict(workload=w, method=row["method"], threshold=row["threshold"],
                   measured_speedup=row["measured_speedup"], gap_scale=float(scale[w]))
        for v in ("s", "0"):
            base = r(f"h100-{w}-{v}-hw")["baseline"]["total_cycles"]
            out[f"predicted_gaps_{v}"] = round(base / r(f"h100-{w}-{v}-{tag}")[mode]["total_cycles"], 3)
        out["error_pct"] = round(100 * (out["predicted_gaps_s"] - row["measured_speedup"]) / row["measured_speedup"], 1)
        b = load_json(os.path.join(rg, "bench", w, "bench.json"))["rows"]
        ms = {x["method"]: x["grad_ms"] for x in b}
        out["measured_baseline_ms"] = round(ms["baseline"], 4)
        out["measured_noatomic_ms"] = round(ms["baseline-noatomic"], 4)
        out["sim_baseline_ms"] = round(r(f"h100-{w}-s-hw")["baseline"]["total_cycles"] / 1.98e6, 4)
        out["error_gaps_0_pct"] = round(100 * (out["predicted_gaps_0"] - row["measured_speedup"]) / row["measured_speedup"], 1)
        val.append(out)
    mape = round(sum(abs(x["error_pct"]) for x in val) / len(val), 1)
    mape0 = round(sum(abs(x["error_gaps_0_pct"]) for x in val) / len(val), 1)
    per_w = {}
    for x in val:
        per_w.setdefault(x["workload"], []).append(abs(x["error_pct"]))
    per_w = {w: round(sum(v) / len(v), 1) for w, v in per_w.items()}
    hw = []
    for g in GPUS:
        for w in ["gs", "pulsar", "tex"]:
            h = r(f"{g}-{w}-s-hw")
            base = h["baseline"]["total_cycles"]
            sw = {m: base / r(f"{g}-{w}-s-{m.replace('-', '')}")[m]["total_cycles"] for m in ("sw-s", "sw-b")
                  if not (w == "pulsar" and m == "sw-b")}
            best = max(sw.values())
            dyn = base / h["arc-hw/dynamic"]["total_cycles"]
            alw = base / h["arc-hw/always"]["total_cycles"]
            hw.append(dict(gpu=g, workload=w, arc_hw_dynamic=round(dyn, 3), arc_hw_always=round(alw, 3),
                           arc_sw_best=round(best, 3), arc_sw_best_mode=max(sw, key=sw.get),
                           arc_hw_dynamic_over_arc_sw=round(dyn / best, 3)))
    return val, mape, mape0, per_w, max(per_w, key=per_w.get), hw


def write_csv(path, rows):
    with open(path, "w", newline="") as f:
        wr = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        wr.writeheader()
        wr.writerows(rows)


def plot(path, rows, val=None):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(5.2, 5.0))
    hi = max(max(r["measured_speedup"], r["predicted_speedup"]) for r in rows) * 1.15
    if val:
        hi = max(hi, max(x["predicted_gaps_s"] for x in val) * 1.15)
    ax.plot([0, hi], [0, hi], "k--", lw=1, label="y = x")
    ax.fill_between([0, hi], [0, 0.9 * hi], [0, 1.1 * hi], color="0.9", label="+-10%")
    mk = {"gs": "o", "pulsar": "s", "tex": "^"}
    for r in rows:
        ax.scatter(r["measured_speedup"], r["predicted_speedup"], marker=mk[r["workload"]], s=40,
                   facecolors="none", edgecolors="0.5")
    for x in val or []:
        ax.scatter(x["measured_speedup"], x["predicted_gaps_s"], marker=mk[x["workload"]], s=55,
                   label=f'{x["workload"]} {x["method"]} X={x["threshold"]}')
    ax.scatter([], [], marker="o", facecolors="none", edgecolors="0.5", label="first pass: captured gaps (hollow)")
    ax.set_xlim(0, hi)
    ax.set_ylim(0, hi)
    ax.set_xlabel("measured speedup over Baseline (H100, captured scene)")
    ax.set_ylabel("ARCsim predicted speedup (h100.toml, fast)\nfilled: Baseline trace, gaps rescaled to no-atomics bound")
    ax.set_title("ARC-SW on H100: model vs GPU", fontsize=10)
    ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=130)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--raw", default=os.path.join(root, "results/h100/validation/raw"))
    ap.add_argument("--out", default=os.path.join(root, "results/h100/validation"))
    ap.add_argument("--no-plot", action="store_true")
    a = ap.parse_args()
    rows, mape, per_w, worst = validation(a.raw, root)
    hw = arc_hw(a.raw)
    scenes = open(os.path.join(a.raw, "scenes.txt")).read().split("\n")
    write_csv(os.path.join(a.out, "validation.csv"), rows)
    write_csv(os.path.join(a.out, "arc_hw.csv"), hw)
    with open(os.path.join(a.out, "validation.json"), "w") as f:
        json.dump({"rows": rows, "mape_pct": mape, "mape_per_workload_pct": per_w, "worst_workload": worst,
                   "scenes": [s for s in scenes if s], "arc_hw": hw, "paper": PAPER}, f, indent=1)
    md = ["# Issue 9 validation: ARCsim (h100.toml, fast) vs the H100 on captured scenes", "",
          "Generated by `python3 scripts/validate.py` from `raw/` (see docs/calibration.md, Validation).",
          "Scenes (W x H : primitives): " + ", ".join(s for s in scenes if s) + ".", "",
          "| workload | method | X | Baseline ms | method ms | measured | measured 1080p | predicted | error | "
          "predicted, Baseline trace in mode | predicted, own trace self |",
          "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        md.append(f'| {r["workload"]} | {r["method"]} | {r["threshold"]} | {r["baseline_ms"]:.3f} | '
                  f'{r["method_ms"]:.3f} | {r["measured_speedup"]:.2f}x | {r["measured_speedup_1080p"]:.2f}x | '
                  f'{r["predicted_speedup"]:.3f}x | {r["error_pct"]:+.1f}% | {r["predicted_same_trace"]:.3f}x | '
                  f'{r["predicted_own_trace_self"]:.3f}x |')
    md += ["", f"MAPE {mape}% over {len(rows)} workload x method pairs; per workload "
           + ", ".join(f"{w} {v}%" for w, v in per_w.items()) + f"; worst: {worst}.", "",
           "## ARC-HW predictions (Baseline traces, speedup over the model's Baseline)", "",
           "| GPU config | workload | ARC-HW dynamic | ARC-HW best threshold (T) | best ARC-SW (mode) | "
           "ARC-HW dynamic / ARC-SW |", "| --- | --- | --- | --- | --- | --- |"]
    for r in hw:
        md.append(f'| {r["gpu"]} | {r["workload"]} | {r["arc_hw_dynamic"]:.3f}x | '
                  f'{r["arc_hw_best_threshold"]:.3f}x ({r["best_threshold"]}) | {r["arc_sw_best"]:.3f}x '
                  f'({r["arc_sw_best_mode"]}) | {r["arc_hw_dynamic_over_arc_sw"]:.3f}x |')
    for g in GPUS:
        sel = [r for r in hw if r["gpu"] == g]
        if sel:
            md.append(f'| {g} | **mean** | {sum(r["arc_hw_dynamic"] for r in sel) / len(sel):.3f}x | '
                      f'{sum(r["arc_hw_best_threshold"] for r in sel) / len(sel):.3f}x | '
                      f'{sum(r["arc_sw_best"] for r in sel) / len(sel):.3f}x | '
                      f'{sum(r["arc_hw_dynamic_over_arc_sw"] for r in sel) / len(sel):.3f}x |')
    md += ["", PAPER + "."]
    with open(os.path.join(a.out, "validation.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    rgp = regap(a.raw, rows)
    if rgp:
        val, mape2, mape0, per_w2, worst2, hw2 = rgp
        write_csv(os.path.join(a.out, "validation_regap.csv"), val)
        write_csv(os.path.join(a.out, "arc_hw_regap.csv"), hw2)
        with open(os.path.join(a.out, "validation_regap.json"), "w") as f:
            json.dump({"rows": val, "mape_pct": mape2, "mape_gaps_0_pct": mape0, "mape_per_workload_pct": per_w2,
                       "worst_workload": worst2, "arc_hw": hw2, "paper": PAPER}, f, indent=1)
        md += ["", "## Second pass: Baseline trace, gaps rescaled to the measured no-atomics bound (raw/regap)", "",
               "| workload | method | X | measured | predicted (gaps x s) | error | predicted (gaps 0) | s | "
               "Baseline ms measured / model | no-atomics ms |", "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
        for x in val:
            md.append(f'| {x["workload"]} | {x["method"]} | {x["threshold"]} | {x["measured_speedup"]:.2f}x | '
                      f'{x["predicted_gaps_s"]:.2f}x | {x["error_pct"]:+.1f}% | {x["predicted_gaps_0"]:.2f}x | '
                      f'{x["gap_scale"]:.3f} | {x["measured_baseline_ms"]:.3f} / {x["sim_baseline_ms"]:.3f} | '
                      f'{x["measured_noatomic_ms"]:.3f} |')
        md += ["", f"MAPE {mape2}% (gaps x s), {mape0}% (gaps 0); per workload "
               + ", ".join(f"{w} {v}%" for w, v in per_w2.items()) + f"; worst: {worst2}.", "",
               "| GPU config | workload | ARC-HW dynamic | ARC-HW always | best ARC-SW (mode) | ARC-HW dyn / ARC-SW |",
               "| --- | --- | --- | --- | --- | --- |"]
        for x in hw2:
            md.append(f'| {x["gpu"]} | {x["workload"]} | {x["arc_hw_dynamic"]:.3f}x | {x["arc_hw_always"]:.3f}x | '
                      f'{x["arc_sw_best"]:.3f}x ({x["arc_sw_best_mode"]}) | {x["arc_hw_dynamic_over_arc_sw"]:.3f}x |')
        for g in GPUS:
            sel = [x for x in hw2 if x["gpu"] == g]
            md.append(f'| {g} | **mean** | {sum(x["arc_hw_dynamic"] for x in sel) / 3:.3f}x | '
                      f'{sum(x["arc_hw_always"] for x in sel) / 3:.3f}x | {sum(x["arc_sw_best"] for x in sel) / 3:.3f}x | '
                      f'{sum(x["arc_hw_dynamic_over_arc_sw"] for x in sel) / 3:.3f}x |')
        md += ["", PAPER + "."]
        with open(os.path.join(a.out, "validation.md"), "w") as f:
            f.write("\n".join(md) + "\n")
    if not a.no_plot:
        plot(os.path.join(a.out, "predicted_vs_measured.png"), rows, rgp[0] if rgp else None)
    print("\n".join(md))
    # Issue 17: the full-size validation (results/h100/validation/rule-v7-order) and summary.json.
    sys.path.insert(0, here)
    import validate_full
    return validate_full.main(["--no-plot"] if a.no_plot else [])


if __name__ == "__main__":
    sys.exit(main())
