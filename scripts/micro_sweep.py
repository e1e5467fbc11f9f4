#!/usr/bin/env python3
"""Every scalar RED throughput pattern of the H100 microbenchmark, model vs GPU (issue 17).

One synthetic trace per row of throughput.csv (`arcsim trace gen`, shaped like the kernel:
132 SMs x 4 sub-cores x 16 warps, back-to-back atomics, as scripts/calibrate_sim.py, each warp's
lanes on the same words in every instruction as the kernel's threads: --fixed-addresses), replayed
by `arcsim sim --mode baseline`; the model's lane atomics per cycle set against the measured:

  k_per_warp       k = 1..32 addresses per warp, in one 128 B line (lane_stride 1: --sharing line)
                   and on their own lines (lane_stride 32: --sharing k)
  active_same      1..32 active lanes (--activity first), all on one word
  active_distinct  1..32 active lanes, each its own word
  hotspot          the whole chip on one word (k = 1) or one line (k = 32)
  sms_*            1..132 SMs of 32 warps, distinct words / one word per warp / one line per warp
  sms_active_distinct  1..32 active lanes on 2, 16 and 66 SMs of 32 warps, distinct lines
  active_offset, sms_active_offset  the same with warp regions 4 KB + 128 B apart (not 4 KB):
                   replayed alike (the generator's distinct words are random)
  lane_major       1..32 active lanes, lane l of warp w on line l x warps + w (a warp's lines far apart)
  spread_same      the whole chip on R = 1..4096 words, each on its own line, adjacent lines (warp w
                   on line w mod R); spread_coalesced: the same with each warp's 32 lanes on its
                   line's 32 words
  (issue 17's later runs add sweeps 7-8 from results/h100/validation/full/microbench-active and
  lane_major from .../microbench-lanes)

  python3 scripts/micro_sweep.py --arcsim build/arcsim [--raw DIR...]
        [--args "--gpu h100"] [--json OUT.json] [--md OUT.md] [--plot OUT.png] [--jobs N]
        [--launch-cost results/h100/validation/full/microbench-launch/throughput.csv]
        (adds each row's measured empty launch to the model's cycles: the GPU times one launch per row)
        [--addresses kernel]  (the kernels' own addresses, trace gen --sharing strided, where every
        warp has its own region; default random words, as the table's rows name them)
  python3 scripts/micro_sweep.py --arcsim build/arcsim --check OUT.json [--cases hotspot]
        (re-runs those sweeps; exit 1 unless the model gives the committed numbers)

Vector (red.v2/v4) rows are not replayed: the generator writes one-word instructions only.
Python 3 standard library (matplotlib only for --plot).
"""
import argparse
import concurrent.futures as cf
import csv
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from calibrate_sim import SHAPE, merge, provenance, rows  # noqa: E402

SWEEPS = ["k_per_warp", "active_same", "active_distinct", "hotspot", "sms_distinct", "sms_same", "sms_coalesced",
          "sms_active_distinct", "active_offset", "sms_active_offset", "lane_major", "spread_same", "spread_coalesced"]
BIG = ["--buffer-words", "16777216"]


def placed(sms, where):
    """`trace gen` flags putting a launch of `sms` blocks (one per SM) on the SMs the H100 gave it
    (where.csv: the model's GPC level shares a GPC's link among the SMs on it); none when the
    launch is not in where.csv or fills the chip."""
    ids = where.get(sms)
    return ["--sm-ids", ",".join(map(str, ids))] if ids and len(ids) == sms and sms < 132 else []


def read_where(path):
    """where.csv (sw/microbench/placement.cu): launch size -> the SM id of each block."""
    out = {}
    if path:
        for r in csv.DictReader(open(path)):
            out.setdefault(int(r["launch_blocks"]), []).append(int(r["smid"]))
    return out


def case_of(r, where=None):
    """(name, trace gen flags) of one throughput.csv row."""
    where = where or {}
    sw, k, stride, active, sms = r["sweep"], int(r["k"]), int(r["lane_stride"]), int(r["active"]), int(r["sms"])
    if sw == "k_per_warp":
        lines = "one line" if stride == 1 else "own lines"
        share = ["--sharing", "line", "--k", str(k)] if stride == 1 else ["--sharing", "k", "--k", str(k)]
        return f"k_per_warp k={k} {lines}", ["-n", "67584"] + BIG + share
    if sw in ("active_same", "active_distinct", "active_offset", "lane_major"):
        # active_offset (regions 4 KB + 128 B apart) and lane_major (a warp's lanes ~1 MB apart)
        # replay as active_distinct: the generator's distinct lanes draw random words
        share = "same" if sw == "active_same" else "distinct"
        return f"{sw} active={active}", ["-n", "67584"] + BIG + ["--sharing", share, "--activity", "first",
                                                                  "--active", str(active)]
    if sw in ("sms_active_distinct", "sms_active_offset"):  # one block of 32 warps per SM
        return f"{sw} sms={sms} active={active}", ["-n", str(4096 * sms), "--sms", str(sms), "--warps-per-subcore",
                                                   "8"] + placed(sms, where) + BIG + [
                                                       "--sharing", "distinct", "--activity", "first",
                                                       "--active", str(active)]
    if sw in ("spread_same", "spread_coalesced"):
        # every warp of the chip on one of R regions, 128 B (32 words) apart, warp w on region
        # w mod R (the kernel's layout: the strided generator's words wrap at the buffer's end);
        # spread_same: all lanes on the region's first word, spread_coalesced: lane l on word l
        regions = int(r["regions"])
        return f"{sw} regions={regions}", ["-n", str(4224 * min(regions, 64)), "--buffer-words", str(32 * regions),
                                           "--sharing", "strided", "--k", str(k), "--lane-stride", "1",
                                           "--region-stride", "32"]
    if sw == "hotspot":
        share = ["--buffer-words", "1", "--sharing", "same"] if k == 1 else \
            ["--buffer-words", "32", "--sharing", "line", "--k", "32"]
        return f"hotspot k={k}", ["-n", "4224"] + share
    share = {"sms_distinct": ["--sharing", "distinct"], "sms_same": ["--sharing", "same"],
             "sms_coalesced": ["--sharing", "line", "--k", "32"]}[sw]
    return f"{sw} sms={sms}", ["-n", str(2048 * max(sms, 2)), "--sms", str(sms), "--warps-per-subcore", "8"] + \
        placed(sms, where) + BIG + share


def cases(raws, only=None, where=None, addresses="random"):
    """Scalar RED rows of each raw directory's throughput.csv; a later directory adds only the
    sweeps the earlier ones lack (a newer run's repeat of an old sweep is not counted twice)."""
    out, seen = [], set()
    for raw in raws:
        got = [r for r in rows(raw, "throughput.csv") if r["sweep"] not in seen]
        seen |= {r["sweep"] for r in got}
        out += [r for r in got if r["op"] == "red" and r["sweep"] in SWEEPS and not (only and r["sweep"] not in only)]
    return [case(r, where, addresses) for r in out]


def kernel_addresses(r, flags):
    """The row's flags with the kernel's own addresses instead of drawn ones (`--sharing strided`:
    warp w's lane l on word w x reg_stride + (l mod k) x lane_stride, atomics.cu tp_kernel) where
    every warp has its own region; the row's flags unchanged otherwise (hotspot)."""
    if int(r["regions"]) < int(r["warps"]):
        return flags
    out, i = [], 0
    while i < len(flags):
        if flags[i] in ("--sharing", "--k"):
            i += 2
            continue
        out.append(flags[i])
        i += 1
    return out + ["--sharing", "strided", "--k", r["k"], "--lane-stride", r["lane_stride"], "--region-stride",
                  r["reg_stride"]]


def case(r, where=None, addresses="random"):
    name, flags = case_of(r, where)
    if addresses == "kernel":
        flags = kernel_addresses(r, flags)
    return {"case": name, "sweep": r["sweep"], "flags": flags, "measured": float(r["lane_ops_per_clk"]),
            "lanes": float(r["lane_ops"]), "clock_mhz": float(r["clock_mhz"]),
            "shape": (int(r["sms"]), int(r["blocks_per_sm"]))}


def read_launch(path):
    """atomics.cu sweep 10 (`launch_empty` rows of a throughput.csv): (SMs, blocks per SM) -> the
    median ms of an empty launch of that shape."""
    if not path:
        return {}
    got = {(int(r["sms"]), int(r["blocks_per_sm"])): float(r["ms_med"])
           for r in csv.DictReader(open(path)) if r["sweep"] == "launch_empty"}
    if not got:
        raise ValueError(f"{path} has no launch_empty rows (atomics.cu sweep 10)")
    return got


def with_launch(c, launch):
    """The replayed rate with the launch's fixed cost added to the model's cycles: each row is one
    timed launch on the GPU, the model replays its work only. A shape without its own empty
    launch takes the mean of those measured."""
    if not launch:
        return c["predicted"]
    ms = launch.get(c["shape"], sum(launch.values()) / len(launch))
    return c["lanes"] / (c["lanes"] / c["predicted"] + ms * c["clock_mhz"] * 1e3)


def predict(arcsim, work, c, args):
    path = os.path.join(work, c["case"].replace(" ", "_").replace("=", "") + ".arctrace")
    # --fixed-addresses: as the kernel, each warp's lanes add to the same words every time
    subprocess.run([arcsim, "trace", "gen", "-o", path, "--fixed-addresses"] + merge(SHAPE, c["flags"]), check=True)
    out = subprocess.run([arcsim, "sim", "--trace", path, "--mode", "baseline", "--json"] + args,
                         check=True, capture_output=True, text=True).stdout
    run = json.loads(out)["runs"][0]
    os.remove(path)
    return run["lane_updates"] / run["total_cycles"]


def evaluate(a, only=None):
    cs = cases(a.raw, only, read_where(a.where), a.addresses)
    with tempfile.TemporaryDirectory() as work, cf.ThreadPoolExecutor(a.jobs) as ex:
        futs = [ex.submit(predict, a.arcsim, work, c, a.args.split()) for c in cs]
        launch = read_launch(a.launch_cost)
        for c, f in zip(cs, futs):
            c["predicted"] = f.result()
            c["predicted"] = with_launch(c, launch)
            c["error"] = c["predicted"] / c["measured"] - 1
            print(f'{c["case"]:34s} H100 {c["measured"]:8.3f}  model {c["predicted"]:8.3f}  {100 * c["error"]:+6.1f}%',
                  flush=True)
    return cs


def summary(cs):
    errs = [abs(c["error"]) for c in cs]
    return {"mape": sum(errs) / len(errs), "worst": max(errs), "within_15pct": sum(e <= 0.15 for e in errs),
            "rows": len(errs)}


def write_md(path, doc):
    s = doc["summary"]
    md = ["# Microbenchmark patterns, model vs H100 (generated by scripts/micro_sweep.py)", "",
          f'Generated on {doc["generated"]["date"]} from commit {doc["generated"]["commit"]} '
          f'(`{doc["generated"]["arcsim"]}`, `arcsim sim {doc["args"]}`; data `{", ".join(doc["raw"])}`). '
          "Lane atomics per cycle, chip-wide; every scalar RED row of throughput.csv." +
          (f' The model\'s cycles plus the measured empty launch of each row\'s shape (`{doc["launch_cost"]}`).'
           if doc.get("launch_cost") else ""), "",
          f'MAPE {100 * s["mape"]:.1f}% over {s["rows"]} rows, worst {100 * s["worst"]:.1f}%, '
          f'{s["within_15pct"]} of {s["rows"]} within 15%.', "",
          "| pattern | H100 | model | error |", "| --- | --- | --- | --- |"]
    md += [f'| {c["case"]} | {c["measured"]:.3f} | {c["predicted"]:.3f} | {100 * c["error"]:+.1f}% |'
           for c in doc["cases"]]
    with open(path, "w") as f:
        f.write("\n".join(md) + "\n")


def plot(path, cs):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(5.5, 5))
    for sw, mk in zip(SWEEPS, "os^vD<>pPXh"):
        sel = [c for c in cs if c["sweep"] == sw]
        ax.scatter([c["measured"] for c in sel], [c["predicted"] for c in sel], marker=mk, label=sw, s=18)
    lo = min(c["measured"] for c in cs + [{"measured": 1}]) * 0.5
    hi = max(max(c["measured"], c["predicted"]) for c in cs) * 2
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.plot([lo, hi], [lo, hi], "k--", lw=0.8)
    ax.fill_between([lo, hi], [0.85 * lo, 0.85 * hi], [1.15 * lo, 1.15 * hi], color="grey", alpha=0.15, label="within 15%")
    ax.set_xlabel("H100 lane atomics per cycle")
    ax.set_ylabel("model lane atomics per cycle")
    ax.set_title("Microbenchmark patterns, model vs H100")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--arcsim", required=True)
    ap.add_argument("--raw", nargs="+", default=[os.path.join(root, "results", "h100", "microbench"),
                                                 os.path.join(root, "results", "h100", "validation", "full",
                                                              "microbench-active"),
                                                 os.path.join(root, "results", "h100", "validation", "full",
                                                              "microbench-lanes")],
                    help="microbenchmark directories (throughput.csv); a later one adds only sweeps the earlier lack")
    ap.add_argument("--args", default="--gpu h100", help="arguments for arcsim sim (the model's configuration)")
    ap.add_argument("--where", default=os.path.join(root, "results", "h100", "validation", "full", "placement", "run4",
                                                     "where.csv"),
                    help="where.csv of a placement.cu run: the SMs each SM-sweep launch ran on ('' for SMs 0..n-1)")
    ap.add_argument("--json")
    ap.add_argument("--md")
    ap.add_argument("--plot")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--launch-cost", default="",
                    help="a throughput.csv with launch_empty rows (atomics.cu sweep 10): add each row's empty-launch "
                         "time to the model's cycles (the GPU times one launch per row; the model replays the work)")
    ap.add_argument("--addresses", choices=["random", "kernel"], default="random",
                    help="random: each row's distinct lanes draw random words (the generator's patterns); kernel: "
                         "the kernel's own addresses where every warp has its own region (trace gen --sharing strided)")
    ap.add_argument("--check", help="a committed JSON: re-run --cases and compare")
    ap.add_argument("--cases", default="hotspot", help="--check: comma-separated sweeps to re-run")
    a = ap.parse_args()
    try:
        read_launch(a.launch_cost)
    except (OSError, ValueError, KeyError) as e:
        print(f"micro_sweep.py: error: --launch-cost: {e}", file=sys.stderr)
        return 2
    for raw in a.raw:
        if not os.path.exists(os.path.join(raw, "throughput.csv")):
            print(f"micro_sweep.py: error: {raw}/throughput.csv not found", file=sys.stderr)
            return 2
    if a.check:
        with open(a.check) as f:
            doc = json.load(f)
        a.args = doc["args"]
        if "where" in doc:
            a.where = os.path.join(root, doc["where"]) if doc["where"] else ""
        a.launch_cost = os.path.join(root, doc["launch_cost"]) if doc.get("launch_cost") else ""
        a.addresses = doc.get("addresses", "random")
        got = {c["case"]: c["predicted"] for c in evaluate(a, set(a.cases.split(",")))}
        if not got:
            print(f"micro_sweep.py: error: no rows of sweeps {a.cases}", file=sys.stderr)
            return 2
        ok = True
        compared = 0
        for c in doc["cases"]:
            if c["case"] in got:
                same = abs(got[c["case"]] - c["predicted"]) <= 1e-9 * abs(c["predicted"])
                ok &= same
                compared += 1
                print(f'{"ok  " if same else "DIFF"} {c["case"]}: committed {c["predicted"]:.6g}, re-run {got[c["case"]]:.6g}')
        if compared == 0:
            print(f"micro_sweep.py: error: the re-run's {len(got)} rows match no committed row of {a.check}",
                  file=sys.stderr)
            return 1
        print(f'micro sweep table vs re-run: {"agree" if ok else "DIFFER"} on {compared} rows')
        return 0 if ok else 1
    cs = evaluate(a)
    doc = {"generated": provenance(a.arcsim), "args": a.args, "raw": [os.path.relpath(r, root) for r in a.raw],
           "where": os.path.relpath(a.where, root) if a.where else "",
           "launch_cost": os.path.relpath(a.launch_cost, root) if a.launch_cost else "",
           "addresses": a.addresses,
           "summary": summary(cs), "cases": [{k: c[k] for k in ("case", "sweep", "measured", "predicted", "error")}
                                             for c in cs]}
    s = doc["summary"]
    print(f'MAPE {100 * s["mape"]:.1f}% over {s["rows"]} rows, worst {100 * s["worst"]:.1f}%, '
          f'{s["within_15pct"]} within 15%')
    if a.json:
        with open(a.json, "w") as f:
            json.dump(doc, f, indent=1)
    if a.md:
        write_md(a.md, doc)
    if a.plot:
        plot(a.plot, cs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
