#!/usr/bin/env python3
"""Does a real H100 trace, replayed, rank the methods as the H100 did? (issue 17)

Reads the benchmark's timings of the traced scene (arc_bench --out ... bench.json: each
method's fastest threshold), replays the trace (`arcsim sim --json`) in each method's mode at
that threshold, and prints measured and predicted speedup over Baseline side by side. Exit 0
when both rank the methods in the same order, 1 when they differ, 2 on bad input.

  python3 scripts/check_ordering.py --arcsim build/arcsim --trace tests/data/gs-il-floor-h100.arctrace \
      --bench tests/data/gs-il-floor-h100.bench.json [--gpu h100] [--methods sws,swb,adaptive]

The bundled pair: gs-il at 480x270 with 31,250 Gaussians (1080p's density), the compute floor's
trace (Baseline's calls, no atomics, timing-only) and the benchmark's median of 20, both from one
device call of `scripts/gpu-validate.sh OUT bundle` (results/h100/validation/bundle).
"""
import argparse
import json
import os
import subprocess
import sys

MODE = {"sws": "sw-s", "swb": "sw-b", "adaptive": "adaptive", "cub": None}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--arcsim", required=True)
    ap.add_argument("--trace", required=True)
    ap.add_argument("--bench", required=True, help="arc_bench's bench.json of the traced scene")
    ap.add_argument("--gpu", default="h100")
    ap.add_argument("--methods", default="sws,swb,adaptive")
    a = ap.parse_args()
    for p in (a.arcsim, a.trace, a.bench):
        if not os.path.exists(p):
            print(f"check_ordering.py: error: {p} not found", file=sys.stderr)
            return 2
    try:
        rows = json.load(open(a.bench))["rows"]
        base_ms = next(r["grad_ms"] for r in rows if r["method"] == "baseline")
    except (ValueError, KeyError, StopIteration) as e:
        print(f"check_ordering.py: error: {a.bench}: no benchmark rows with a baseline ({e})", file=sys.stderr)
        return 2
    def cycles(mode, x):
        out = subprocess.run([a.arcsim, "sim", "--gpu", a.gpu, "--trace", a.trace, "--mode", mode,
                              "--threshold", str(x), "--json"], capture_output=True, text=True)
        if out.returncode != 0:
            raise SystemExit(f"check_ordering.py: error: arcsim sim failed: {out.stderr.strip()}")
        return json.loads(out.stdout)["runs"][0]["total_cycles"]

    measured, predicted = {}, {}
    for m in a.methods.split(","):
        if MODE.get(m) is None:
            print(f"check_ordering.py: error: method {m} has no model mode (known: sws, swb, adaptive)", file=sys.stderr)
            return 2
        cand = [r for r in rows if r["method"] == m]
        if not cand:
            print(f"check_ordering.py: error: {a.bench} has no {m} rows", file=sys.stderr)
            return 2
        best = min(cand, key=lambda r: r["grad_ms"])
        measured[m] = (base_ms / best["grad_ms"], best["threshold"] if best["threshold"] > 0 else 2)
    base = cycles("baseline", 2)
    for m, (_, x) in measured.items():
        predicted[m] = base / cycles(MODE[m], x)
    print(f"{'method':10s} {'X':>3s} {'H100':>8s} {'model':>8s}")
    for m in measured:
        print(f"{m:10s} {measured[m][1]:3d} {measured[m][0]:7.2f}x {predicted[m]:7.2f}x")
    meas_order = sorted(measured, key=lambda m: -measured[m][0])
    pred_order = sorted(predicted, key=lambda m: -predicted[m])
    same = meas_order == pred_order and all(predicted[m] > 1.0 for m in predicted if measured[m][0] > 1.0)
    print(f"H100 order {' > '.join(meas_order)} > baseline; model {' > '.join(pred_order)} > baseline: "
          f"{'same' if same else 'DIFFERENT'}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
