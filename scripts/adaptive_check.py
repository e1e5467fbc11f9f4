#!/usr/bin/env python3
"""Issue 20's "done when" from an arc_bench run (bench.json), per workload: the fastest checked
row (any method, threshold or vector width; the floor and the no-atomics bound are not
results), Adaptive's best row (adaptive or adaptive-v4) and its gap to the fastest, the fastest
row's to_floor, and the floor's margin below the fastest checked row; with a gsplat row, the
fastest row's speedup over gsplat and the transposed scheme's gain over SW-B (issue 23).
Usage: scripts/adaptive_check.py bench.json > check.md"""
import json
import sys


def main(path):
    with open(path) as f:
        rows = json.load(f)["rows"]
    print("| workload | fastest checked row | Adaptive (best width) | Adaptive vs fastest | fastest to_floor "
          "| floor below fastest | fastest vs gsplat | swt vs swb (best X each) |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for w in dict.fromkeys(r["workload"] for r in rows):
        rs = [r for r in rows if r["workload"] == w]
        checked = [r for r in rs if not r["no_atomics_bound"] and not r.get("floor") and r["check_ok"]]
        if not checked:
            continue
        best = min(checked, key=lambda r: r["grad_ms"])
        ad = [r for r in checked if r["method"] in ("adaptive", "adaptive-v4")]
        floor = [r for r in rs if r.get("floor")]

        def label(r):
            x = f" X={r['threshold']}" if r["threshold"] >= 0 else ""
            return f"{r['method']}{x} {r['grad_ms']:.3f} ms"

        a = min(ad, key=lambda r: r["grad_ms"]) if ad else None
        gap = f"{100.0 * (a['grad_ms'] / best['grad_ms'] - 1.0):+.1f}%" if a else "n/a"
        tf = best.get("to_floor")
        tf = f"{tf:.2f}" if tf is not None else "n/a"
        fl = f"{100.0 * (1.0 - floor[0]['grad_ms'] / best['grad_ms']):.1f}%" if floor else "n/a"
        vg = best.get("speedup_vs_gsplat")
        vg = f"{vg:.3f}x" if vg is not None else "n/a"

        def fastest(m):
            c = [r for r in checked if r["method"] == m]
            return min(c, key=lambda r: r["grad_ms"]) if c else None

        t, b = fastest("swt"), fastest("swb")
        tb = f"{b['grad_ms'] / t['grad_ms']:.3f}x" if t and b else "n/a"
        print(f"| {w} | {label(best)} | {label(a) if a else 'n/a'} | {gap} | {tf} | {fl} | {vg} | {tb} |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: adaptive_check.py bench.json")
    main(sys.argv[1])
