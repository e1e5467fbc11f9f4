#!/usr/bin/env python3
"""Plot `arcsim area --sweep` results: per-sub-core ARC transistors against each swept RTL
parameter (one panel per parameter).

usage: plot_area_sweep.py area_sweep.csv area_sweep.png
The CSV is written by arcsim (cosim/area, sweep_csv); numbers are Yosys generic-CMOS
estimates, not sign-off area.
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(argv):
    if len(argv) != 3:
        sys.exit("usage: plot_area_sweep.py area_sweep.csv area_sweep.png")
    rows = list(csv.DictReader(open(argv[1], newline="")))
    if not rows:
        sys.exit(f"{argv[1]}: no sweep points")
    params = list(dict.fromkeys(r["param"] for r in rows))
    fig, axes = plt.subplots(1, len(params), figsize=(4.2 * len(params), 3.6), squeeze=False)
    for ax, p in zip(axes[0], params):
        pts = sorted((int(r["value"]), int(r["per_subcore_transistors"])) for r in rows if r["param"] == p)
        xs, ys = [x for x, _ in pts], [y / 1e3 for _, y in pts]
        ax.plot(xs, ys, "o-", color="tab:blue")
        for x, y in zip(xs, ys):
            ax.annotate(f"{y:.1f}K", (x, y), textcoords="offset points", xytext=(0, 6), ha="center", fontsize=8)
        ax.axhline(70, color="tab:red", ls="--", lw=1, label="paper: 70K per FPU")
        ax.set_xlabel(p)
        ax.set_xticks(xs)
        ax.set_ylabel("ARC transistors per sub-core (K)")
        ax.set_ylim(0, max(max(ys), 70) * 1.2)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8, loc="lower right")
    fig.suptitle(f"ARC-HW area sweep ({rows[0]['gpu']}): Yosys generic CMOS estimates, not sign-off", fontsize=10)
    fig.tight_layout()
    fig.savefig(argv[2], dpi=120)


if __name__ == "__main__":
    main(sys.argv)
