#!/usr/bin/env python3
"""Plots arc_train results: PSNR (mean over the views) against training wall-clock time, one
curve per reduce method, and prints a summary table.

usage: plot_train.py train.json out.png
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

NAMES = {"baseline": "Baseline (atomicAdd per lane)", "swb": "ARC-SW SW-B", "cub": "CUB WarpReduce",
         "block": "block-level tree (shader)", "sws": "ARC-SW SW-S", "adaptive": "ARC-SW Adaptive"}


def psnr_at(curve, t):
    """PSNR of the last evaluation at or before training time t."""
    best = None
    for p in curve:
        if p["train_s"] <= t + 1e-9:
            best = p["psnr_db"]
    return best


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        data = json.load(f)
    meta = data["meta"]
    fig, ax = plt.subplots(figsize=(7.5, 4.8))
    for run in data["runs"]:
        m = run["method"]
        xs = [p["train_s"] for p in run["curve"]]
        ys = [p["psnr_db"] for p in run["curve"]]
        name = NAMES.get(m, m)
        if run["threshold"] >= 0:
            name += f" X={run['threshold']}"
        ax.plot(xs, ys, "-", lw=1.6, label=f"{name}: {run['ms_per_iter']:.1f} ms/iter, {run['psnr_end_db']:.2f} dB")
    ax.set_xlabel("training wall-clock time (s; evaluation excluded)")
    ax.set_ylabel("PSNR over the views (dB)")
    ax.set_title(f"3DGS training, {meta['gaussians']} Gaussians, {meta['frame']}, {meta['views']} views\n"
                 f"{meta['gpu']}, budget {meta['budget_s']} s per method", fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=110)
    marks = [t for t in (1, 2, 5, 10) if t < meta["budget_s"]] + [meta["budget_s"]]
    print("method        iters  ms/iter  " + "  ".join(f"PSNR@{t:g}s" for t in marks))
    for run in data["runs"]:
        vals = "  ".join(f"{psnr_at(run['curve'], t):9.2f}" for t in marks)
        print(f"{run['method']:<12} {run['iters']:6d} {run['ms_per_iter']:8.2f}  {vals}")


if __name__ == "__main__":
    main()
