#!/usr/bin/env python3
"""Plots arc_bench results in the style of the ARC paper's Figures 22 and 23.

usage: plot_bench.py bench.json out.png

Top row (Fig. 22): per workload, gradient-step and end-to-end speedup over Baseline for CUB,
SW-B and SW-S at their best balancing threshold (X), and Adaptive (no threshold); then the
same with Hopper float4 atomics (-v4).
Bottom row (Fig. 23): gradient-step speedup of SW-S and SW-B against the threshold, with
Adaptive and CUB as horizontal lines.
Issue 11: the block-level tree (block) and CAS-loop rows join the top row; the no-atomics bound
(baseline-noatomic: racy plain adds, numerically WRONG by construction) is a dashed red line.
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

COLORS = {"cub": "#8c8c8c", "swb": "#1f77b4", "sws": "#ff7f0e", "adaptive": "#2ca02c",
          "baseline": "#000000"}


def load(path):
    with open(path) as f:
        return json.load(f)


def best(rows, wl, method):
    cand = [r for r in rows if r["workload"] == wl and r["method"] == method]
    return max(cand, key=lambda r: r["speedup_grad"]) if cand else None


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    data = load(sys.argv[1])
    rows = data["rows"]
    workloads = list(dict.fromkeys(r["workload"] for r in rows))
    methods = ["cub", "swb", "sws", "adaptive", "block", "baseline-cas", "swb-cas", "block-cas", "baseline-v4",
               "swb-v4", "sws-v4", "adaptive-v4"]
    fig, axes = plt.subplots(2, max(len(workloads), 1), figsize=(5.0 * len(workloads), 8.5), squeeze=False)
    for i, wl in enumerate(workloads):
        ax = axes[0][i]
        labels, grad, e2e = [], [], []
        for m in methods:
            r = best(rows, wl, m)
            if r is None:
                continue
            thr = "" if r["threshold"] < 0 else f"\n(X={r['threshold']})"
            labels.append(m.replace("swb", "SW-B").replace("sws", "SW-S").replace("cub", "CUB") + thr)
            grad.append(r["speedup_grad"])
            e2e.append(r["speedup_e2e"])
        xs = range(len(labels))
        ax.bar([x - 0.2 for x in xs], grad, 0.4, label="gradient step", color="#1f77b4")
        ax.bar([x + 0.2 for x in xs], e2e, 0.4, label="end-to-end", color="#aec7e8")
        ax.axhline(1.0, color="k", lw=0.8)
        bound = best(rows, wl, "baseline-noatomic")
        if bound:
            ax.axhline(bound["speedup_grad"], color="#d62728", ls="--", lw=1.0,
                       label=f"no-atomics bound {bound['speedup_grad']:.2f}x (wrong numerics)")
        ax.set_xticks(list(xs))
        ax.set_xticklabels(labels, fontsize=7, rotation=45, ha="right")
        ax.set_title(f"{wl}: speedup over Baseline")
        for x, g in zip(xs, grad):
            ax.text(x - 0.2, g, f"{g:.2f}", ha="center", va="bottom", fontsize=7)
        if i == 0:
            ax.legend(fontsize=8)
        ax2 = axes[1][i]
        for m in ("sws", "swb"):
            pts = sorted((r["threshold"], r["speedup_grad"]) for r in rows if r["workload"] == wl and r["method"] == m)
            if pts:
                ax2.plot([p[0] for p in pts], [p[1] for p in pts], "o-", color=COLORS[m], label="SW-" + m[2:].upper())
        for m in ("adaptive", "cub"):
            r = best(rows, wl, m)
            if r:
                ax2.axhline(r["speedup_grad"], ls="--", color=COLORS[m], label=m)
        ax2.axhline(1.0, color="k", lw=0.8)
        ax2.set_xlabel("balancing threshold X (lanes)")
        ax2.set_ylabel("gradient-step speedup")
        ax2.set_title(f"{wl}: sensitivity to X")
        ax2.legend(fontsize=8)
    gpu = data.get("meta", {}).get("gpu", "")
    fig.suptitle(f"ARC-SW on {gpu} (median of {data.get('meta', {}).get('reps', '?')} runs)")
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=110)


if __name__ == "__main__":
    main()
