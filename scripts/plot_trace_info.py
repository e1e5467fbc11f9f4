#!/usr/bin/env python3
"""Draw the two histograms of `arcsim trace info --json` (active lanes per instruction and
distinct addresses per instruction, the paper's section 3.1 characterization) into a PNG.

Usage: arcsim trace info FILE --json | scripts/plot_trace_info.py out.png
       (arcsim trace info FILE --plot out.png runs this for you)
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    info = json.load(sys.stdin)
    total = max(1, info["instructions"])
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for ax, key, title in (
        (axes[0], "active_lane_histogram", "active lanes per instruction"),
        (axes[1], "distinct_address_histogram", "distinct addresses per instruction"),
    ):
        hist = info[key]
        xs = list(range(1, len(hist)))
        ys = [100.0 * hist[x] / total for x in xs]
        ax.bar(xs, ys, color="#3b6ea5")
        ax.set_yscale("log")
        ax.set_xlabel(title)
        ax.set_ylabel("% of instructions (log)")
        ax.set_xlim(0.3, 32.7)
    h = info["header"]
    fig.suptitle(
        f"{h['kernel_name']} on {h['gpu_name']} ({h['method']}): {info['instructions']:,} instructions, "
        f"{100 * info['all_same_address_fraction']:.1f}% all lanes one address, "
        f"{info['bytes_per_lane_update']:.2f} B/lane update",
        fontsize=9,
    )
    fig.tight_layout()
    fig.savefig(sys.argv[1], dpi=120)
    return 0


if __name__ == "__main__":
    sys.exit(main())
