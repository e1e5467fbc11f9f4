#!/usr/bin/env python3
"""Plot one metric of an `arcsim sweep merge` table against one axis.

usage: plot_sweep.py RESULTS.csv X Y OUT.png [GROUP]

One line per value of GROUP (or one line). Where other axes also vary, every point is drawn
as a marker and the line goes through the mean at each X. Only points with status ok count.
"""
import csv
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def num(s):
    try:
        return float(s)
    except ValueError:
        return None


def main():
    if len(sys.argv) not in (5, 6):
        sys.exit(__doc__.strip().splitlines()[2])
    path, x, y, out = sys.argv[1:5]
    group = sys.argv[5] if len(sys.argv) == 6 else None
    with open(path, newline="") as f:
        rows = [r for r in csv.DictReader(f) if r.get("status") == "ok"]
    if not rows:
        sys.exit(f"{path}: no finished points to plot")
    for col in filter(None, (x, y, group)):
        if col not in rows[0]:
            sys.exit(f"{path}: no column '{col}'")
    numeric_x = all(num(r[x]) is not None for r in rows)
    xs_all = sorted({r[x] for r in rows}, key=lambda v: num(v) if numeric_x else v)
    series = defaultdict(lambda: defaultdict(list))
    for r in rows:
        v = num(r[y])
        if v is not None:
            series[r[group] if group else y][r[x]].append(v)

    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    for name in sorted(series):
        pts = series[name]
        xs = [v for v in xs_all if v in pts]
        pos = [num(v) if numeric_x else xs_all.index(v) for v in xs]
        means = [sum(pts[v]) / len(pts[v]) for v in xs]
        line = ax.plot(pos, means, marker="o", label=f"{group}={name}" if group else None)[0]
        for p, v in zip(pos, xs):
            if len(pts[v]) > 1:
                ax.scatter([p] * len(pts[v]), pts[v], s=10, color=line.get_color(), alpha=0.4)
    if numeric_x and len(xs_all) <= 12:
        ax.set_xticks([num(v) for v in xs_all])
        ax.set_xticklabels(xs_all)
    if not numeric_x:
        ax.set_xticks(range(len(xs_all)))
        ax.set_xticklabels(xs_all, rotation=20)
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    ax.set_title(f"{y} vs {x}" + (f" by {group}" if group else ""))
    ax.grid(alpha=0.3)
    if group:
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=120)


if __name__ == "__main__":
    main()
