#!/usr/bin/env python3
"""Issue 20's "done when" from an arc_bench run (bench.json), per workload: the fastest checked
row (any method, threshold or vector width; the floor and the no-atomics bound are not
results), Adaptive's best row (adaptive or adaptive-v4) and its gap to the fastest, the fastest
row's to_floor, and the floor's margin below the fastest checked row; with a gsplat row, the
fastest row's speedup over gsplat and the transposed scheme's gain over SW-B (issue 23).
Then issue 20's verdict: on each of gs, pulsar and tex, Adaptive within 3% of the fastest
checked row and the fastest checked row's to_floor >= 0.9; exit status 1 when any fails (or a
workload is missing), unless --report-only.
Usage: scripts/adaptive_check.py [--report-only] bench.json > check.md"""
import json
import sys


DONE_WORKLOADS = ("gs", "pulsar", "tex")
MAX_GAP = 0.03
MIN_TO_FLOOR = 0.9


def main(path):
    verdict = {}
    with open(path) as f:
        rows = json.load(f)["rows"]
    print("| workload | fastest checked row | Adaptive (best width) | Adaptive vs fastest | fastest to_floor "
          "| floor below fastest | fastest vs gsplat | swt vs swb (best X each) | adaptive vs fastest scalar "
          "| adaptive-v4 vs fastest -v4 |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
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
        def same_width(name, vec):
            own = [r for r in checked if r["method"] == name]
            peers = [r for r in checked if r["method"].endswith("-v4") == vec]
            if not own or not peers:
                return "n/a"
            o, p = own[0], min(peers, key=lambda r: r["grad_ms"])
            return f"{100.0 * (o['grad_ms'] / p['grad_ms'] - 1.0):+.1f}% (vs {label(p)})"

        print(f"| {w} | {label(best)} | {label(a) if a else 'n/a'} | {gap} | {tf} | {fl} | {vg} | {tb} "
              f"| {same_width('adaptive', False)} | {same_width('adaptive-v4', True)} |")
        if w in DONE_WORKLOADS:
            why = []
            if not a:
                why.append("no checked Adaptive row")
            elif a["grad_ms"] > best["grad_ms"] * (1.0 + MAX_GAP):
                why.append(f"Adaptive {gap} over the fastest (> +{100 * MAX_GAP:.0f}%)")
            if best.get("to_floor") is None or best["to_floor"] < MIN_TO_FLOOR:
                why.append(f"fastest to_floor {tf} < {MIN_TO_FLOOR}")
            verdict[w] = why
    print()
    ok = True
    for w in DONE_WORKLOADS:
        why = verdict.get(w, ["no rows"])
        ok = ok and not why
        print(f"done-when {w}: {'PASS' if not why else 'FAIL (' + '; '.join(why) + ')'}")
    print(f"issue 20 done-when: {'PASS' if ok else 'FAIL'}")
    return ok


if __name__ == "__main__":
    args = sys.argv[1:]
    report_only = "--report-only" in args
    args = [x for x in args if x != "--report-only"]
    if len(args) != 1:
        sys.exit("usage: adaptive_check.py [--report-only] bench.json")
    try:
        ok = main(args[0])
    except (OSError, ValueError, KeyError) as e:
        print(f"adaptive_check: error: {args[0]}: {e}", file=sys.stderr)
        sys.exit(2)
    sys.exit(0 if ok or report_only else 1)
