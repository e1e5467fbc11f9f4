#!/usr/bin/env python3
"""Draw the breakdowns of `arcsim sim --json` into one PNG: atomics per ROP unit, requests per
SM, the LSU queue-occupancy histogram, the atomic issue-stall histogram and (when the run had
--stats-interval N) the time series of ROP ops and issued instructions. One colour per run
(mode) of the JSON.

usage: arcsim sim ... --json [--stats-interval N] > run.json
       scripts/plot_sim_stats.py run.json OUT.png
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main() -> int:
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    with open(sys.argv[1]) as f:
        sim = json.load(f)
    runs = sim["runs"]
    fig, ax = plt.subplots(2, 3, figsize=(16, 8))
    for r in runs:
        label = r["mode"]
        ax[0][0].plot([u["unit"] for u in r["per_rop"]], [u["ops"] for u in r["per_rop"]], ".-", label=label)
        ax[0][1].plot([s["sm"] for s in r["per_sm"]], [s["requests_to_l2"] for s in r["per_sm"]], ".-", label=label)
        occ = r["histograms"]["lsu_queue_occupancy_sm_cycles"]
        total = max(1, sum(occ))
        ax[0][2].plot(range(len(occ)), [100.0 * c / total for c in occ], ".-", label=label)
        stall = r["histograms"]["atomic_stall_cycles_per_instruction"]
        ax[1][0].plot([b["hi"] for b in stall], [b["count"] for b in stall], "o-", label=label)
        series = r.get("series", [])
        if series:
            cyc = [s["cycle"] for s in series]
            ax[1][1].plot(cyc, [s["rop_ops"] for s in series], "-", label=label)
            ax[1][2].plot(cyc, [s["instructions"] for s in series], "-", label=label)
    ax[0][0].set(title="atomics performed per ROP unit", xlabel="ROP unit", ylabel="ops")
    ax[0][1].set(title="requests to L2 per SM", xlabel="SM", ylabel="requests")
    ax[0][2].set(title="LSU queue occupancy", xlabel="entries", ylabel="% of SM-cycles")
    ax[0][2].set_yscale("symlog", linthresh=0.1)
    ax[1][0].set(title="issue stall per warp atomic", xlabel="cycles (bucket upper bound)", ylabel="instructions")
    ax[1][0].set_xscale("symlog", linthresh=1)
    ax[1][1].set(title="ROP ops (cumulative)", xlabel="cycle", ylabel="ops")
    ax[1][2].set(title="instructions issued (cumulative)", xlabel="cycle", ylabel="instructions")
    if not any(r.get("series") for r in runs):
        for a in (ax[1][1], ax[1][2]):
            a.text(0.5, 0.5, "no time series\n(run with --stats-interval N)", ha="center", va="center",
                   transform=a.transAxes)
    for row in ax:
        for a in row:
            if a.get_legend_handles_labels()[0]:
                a.legend(fontsize=8)
    fig.suptitle(f"{sim['gpu']['name']}: {sim['trace']}")
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=100)
    return 0


if __name__ == "__main__":
    sys.exit(main())
