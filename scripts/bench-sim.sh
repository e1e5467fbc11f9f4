#!/usr/bin/env bash
# Regenerates cosim/sim/BENCHMARK.md from the current binary: runs tests/sim/bench_sim (three
# trace sizes, fast and RTL level) and writes the table with the date, commit and machine, plus
# the summary lines computed from that table (nothing typed by hand).
#   scripts/bench-sim.sh [--out FILE] [--scale S]     (build first: scripts/build.sh)
#   REF_ARCSIM=path/to/arcsim scripts/bench-sim.sh    also times that build on issue 16's trace,
#                                  interleaved with this one (a shared machine's speed drifts)
#   REPS=N scripts/bench-sim.sh      best of N runs of issue 16's trace (default 5)
#   scripts/bench-sim.sh --check   re-runs the smallest size and exits 1 unless its simulated
#                                  cycles equal the committed table's (tests/docs runs it)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${ARCSIM_BUILD_DIR:-$root/build}
out=$root/cosim/sim/BENCHMARK.md
scale=1
check=0
while [ $# -gt 0 ]; do
  case "$1" in
    --check) check=1; shift ;;
    --out) out=$2; shift 2 ;;
    --scale) scale=$2; shift 2 ;;
    -h|--help) sed -n 2,10p "$0"; exit 0 ;;
    *) echo "bench-sim.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
bin=$build/tests/sim/bench_sim
[ -x "$bin" ] || { echo "bench-sim.sh: $bin not built (run scripts/build.sh)" >&2; exit 2; }
table=$(mktemp)
trap 'rm -f "$table"' EXIT
if [ "$check" = 1 ]; then
  committed_scale=$(grep -o 'bench_sim [0-9.]*`' "$out" | grep -o '[0-9.]*' | head -1)
  SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 "$bin" "${committed_scale:-1}" 1 >"$table"
  # level, mode, instrs -> sim cycles, in the re-run and in the committed table
  fail=0
  while read -r level mode instrs lanes cyc rest; do
    [ "$level" = level ] && continue
    want=$(awk -v l="$level" -v m="$mode" -v n="$instrs" '$1==l && $2==m && $3==n {print $5}' "$out")
    if [ "$want" = "$cyc" ]; then echo "ok   $level $mode $instrs instrs: $cyc cycles"
    else echo "DIFF $level $mode $instrs instrs: re-run $cyc cycles, $out says ${want:-nothing}"; fail=1; fi
  done <"$table"
  [ "$fail" = 0 ] && echo "benchmark table vs re-run: agree" || echo "benchmark table vs re-run: DIFFER"
  exit $fail
fi
echo "bench-sim.sh: running $bin $scale (a few minutes)" >&2
SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 "$bin" "$scale" | tee "$table" >&2
# Issue 16's own yardstick: its synthetic 1M-instruction trace (the exact `trace gen` command),
# full form and timing-only, simulated in baseline on one core (taskset -c 0), best of REPS (default
# 5: this build's runs and the reference's alternate, so a drift in the machine's speed hits both).
arcsim=$build/arcsim
issue=$(mktemp -d)
trap 'rm -f "$table"; rm -rf "$issue"' EXIT
if [ -x "$arcsim" ]; then
  reps=${REPS:-5}
  echo "bench-sim.sh: issue 16's 1M-instruction trace, one core, best of $reps" >&2
  export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
  "$arcsim" trace gen -o "$issue/full.trc" -n 1000000 --sms 132 --warps-per-subcore 16 --gap-mean 400 --p-same 0.9 >/dev/null
  "$arcsim" trace gen -o "$issue/timing.trc" -n 1000000 --sms 132 --warps-per-subcore 16 --gap-mean 400 --p-same 0.9 \
    --timing-only >/dev/null
  for form in full timing; do
    for rep in $(seq "$reps"); do
      s0=$(date +%s.%N)
      taskset -c 0 "$arcsim" sim --trace "$issue/$form.trc" --gpu h100 --mode baseline --json --host-cost \
        > "$issue/$form-$rep.json"
      s1=$(date +%s.%N)
      echo "$form $rep $(echo "$s1 - $s0" | bc) $(stat -c %s "$issue/$form.trc")" >> "$issue/walls.txt"
      if [ -n "${REF_ARCSIM:-}" ]; then  # the reference build right after, on the same trace
        s0=$(date +%s.%N)
        taskset -c 0 "$REF_ARCSIM" sim --trace "$issue/$form.trc" --gpu h100 --mode baseline > /dev/null
        s1=$(date +%s.%N)
        echo "$form $rep $(echo "$s1 - $s0" | bc)" >> "$issue/ref_walls.txt"
      fi
    done
  done
  # The RTL level on the same trace (arc-hw dynamic: the Verilated ARC units in the loop), once.
  s0=$(date +%s.%N)
  taskset -c 0 "$arcsim" sim --trace "$issue/full.trc" --gpu h100 --mode arc-hw --fidelity rtl --json --host-cost \
    > "$issue/rtl-1.json"
  s1=$(date +%s.%N)
  echo "rtl 1 $(echo "$s1 - $s0" | bc) $(stat -c %s "$issue/full.trc")" >> "$issue/walls.txt"
  # Memory follows what a trace touches, not its buffer's size (the per-word tables are zero
  # pages, cosim/common/zero_table.h): a short trace on a 16M-word buffer (the calibration
  # replays' size), both forms, baseline, once each.
  for form in full timing; do
    extra=""; [ $form = timing ] && extra=--timing-only
    "$arcsim" trace gen -o "$issue/sparse-$form.trc" -n 4096 --buffer-words 16777216 --sms 132 --warps-per-subcore 16 \
      $extra >/dev/null
    s0=$(date +%s.%N)
    taskset -c 0 "$arcsim" sim --trace "$issue/sparse-$form.trc" --gpu h100 --mode baseline --json --host-cost \
      > "$issue/sparse-$form.json"
    s1=$(date +%s.%N)
    echo "$form $(echo "$s1 - $s0" | bc)" >> "$issue/sparse.txt"
  done
  # Machine-independent cost: instructions executed (valgrind's cachegrind, no cache model) on a
  # 100k-instruction trace of the same shape; the model runs in a forked child, whose count
  # includes the parent's up to the fork (start-up, the summary), so child - parent = the model.
  if command -v valgrind >/dev/null; then
    echo "bench-sim.sh: instruction counts (valgrind, ~1 min)" >&2
    for form in full timing; do
      extra=""; [ $form = timing ] && extra=--timing-only
      "$arcsim" trace gen -o "$issue/small-$form.trc" -n 100000 --sms 132 --warps-per-subcore 16 --gap-mean 400 \
        --p-same 0.9 $extra >/dev/null
      valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="$issue/cg-$form.%p" "$arcsim" sim \
        --trace "$issue/small-$form.trc" --gpu h100 --mode baseline >/dev/null 2>&1 || true
      counts=$(for c in "$issue"/cg-$form.*; do grep '^summary' "$c" | awk '{print $2}'; done | sort -n | tr '\n' ' ')
      echo "$form $counts" >> "$issue/ir.txt"
      rm -f "$issue"/cg-$form.*
    done
  fi
fi
commit=$(git -C "$root" rev-parse --short HEAD)
dirty=$(git -C "$root" status --porcelain --untracked-files=no | grep -q . && echo " (with uncommitted changes)" || true)
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')
python3 - "$table" "$out" "$commit$dirty" "$cpu" "$(nproc)" "$scale" "$root/results/h100/full-capture/full.log" "$issue" "${reps:-5}" <<'PY'
import sys, datetime, collections, os, re, json
table, out, commit, cpu, ncpu, scale, full_log, issue, reps = sys.argv[1:]
lines = open(table).read().splitlines()
rows = [l.split() for l in lines[1:] if l.strip()]
by = collections.defaultdict(list)  # (level, mode) -> [(instrs, lanes, cpu_s, lane/s, warp instr/s, RSS MB)]
for r in rows:
    by[(r[0], r[1])].append((int(r[2]), int(r[3]), float(r[5]), float(r[6]), float(r[8]), float(r[9])))
rss = [x[5] for v in by.values() for x in v]
def rng(level, mode):
    v = [x[3] for x in by[(level, mode)]]
    return f"{min(v)/1e6:.2f}-{max(v)/1e6:.2f} M" if min(v) >= 1e6 else f"{min(v)/1e3:.0f}-{max(v)/1e3:.0f} K"
growth = []  # CPU-time ratio from the middle to the largest size (4x the lane updates)
for key, v in sorted(by.items()):
    if len(v) >= 3 and v[1][2] > 0:
        growth.append(v[2][2] / v[1][2])
today = datetime.date.today().isoformat()
with open(out, "w") as f:
    f.write(f"""# Timing-model speed (tests/sim/bench_sim)

Generated by `scripts/bench-sim.sh` (do not edit by hand) on {today}, commit {commit}, on a
{ncpu}-core machine ({cpu}); `build/tests/sim/bench_sim {scale}`. The speed is **CPU time of the
run** (the summary: the trace's warp table, no pass over its records + workload build +
elaboration + simulation + end-of-run checks, `CLOCK_PROCESS_CPUTIME_ID`, the run in a forked child), not wall time, so other
load on the machine skews it little. `RSS MB`: the child's peak resident memory; `ahead`: the most
instructions it read ahead of the model (the trace is streamed from its file, as `arcsim sim` does).
GPU: cosim/configs/h100.toml with its [model] knobs (132 SMs x 4 sub-cores, 44 ROP units, 128-byte coalescing). Traces: arc::tracegen, 132 SMs x
16 warps per sub-core, Bernoulli(0.75) lanes, 70 % of warps on one address else <= 4 addresses, mean
gap 400 cycles, seed 99; each size 4x the last. The baseline has no ARC unit, so it runs only at the
fast level; at the RTL level `never` keeps the Verilated units busiest (every lane passes through
them one per cycle).

```
{chr(10).join(lines)}
```

Lane updates per second of CPU: fast level {rng('fast','baseline')} (baseline), {rng('fast','arc-hw/dynamic')}
(ARC-HW dynamic); RTL level {rng('rtl','arc-hw/dynamic')} (dynamic), {rng('rtl','arc-hw/never')} (never).
Peak resident memory of a run: {min(rss):.0f}-{max(rss):.0f} MB.
From the middle to the largest trace (4x the lane updates) CPU time grows x{min(growth):.1f} to x{max(growth):.1f}
(linear cost; the smallest size also carries the fixed start-up: elaboration, workload build).
""")
    walls = os.path.join(issue, "walls.txt")
    if os.path.exists(walls):
        f.write(f"""
## Issue 16's synthetic trace, one core

`arcsim trace gen -n 1000000 --sms 132 --warps-per-subcore 16 --gap-mean 400 --p-same 0.9` (and the
same with `--timing-only`), then `taskset -c 0 arcsim sim --gpu h100 --mode baseline`, best of {reps} by
wall time (the process: the summary from the trace's warp table, model child, report); the last row is arc-hw at the RTL level
(`--fidelity rtl`), once. Issue 16's target: >= 20 M lane updates/s and >= 1 M warp instructions/s on one
core at the fast level, >= 1 M lane updates/s at the RTL level, peak RSS <= 300 MB.

| form | trace | cycles | wall s (best of {reps}) | lane updates/s | warp instructions/s | summary cpu s | model cpu s | peak RSS MB |
| --- | --- | --- | --- | --- | --- | --- | --- | --- |
""")
        best = {}
        for line in open(walls):
            form, rep, w, size = line.split()
            if form not in best or float(w) < best[form][1]:
                best[form] = (rep, float(w), int(size))
        labels = {"full": "full (values)", "timing": "timing-only", "rtl": "full (values), arc-hw, RTL level"}
        for form in ("full", "timing", "rtl"):
            if form not in best:
                continue
            rep, w, size = best[form]
            j = json.load(open(os.path.join(issue, f"{form}-{rep}.json")))
            r, h = j["runs"][0], j["host_cost"]["runs"][0]
            f.write(f"| {labels[form]} | {size/1e6:.1f} MB | {r['total_cycles']:,} | {w:.2f} | "
                    f"{r['lane_updates']/w/1e6:.1f} M | {r['instructions']/w/1e6:.2f} M | "
                    f"{j['host_cost'].get('first_pass_cpu_seconds', 0):.2f} | {h['cpu_seconds']:.2f} | {h['peak_rss_mb']:.0f} |\n")
    ref = os.path.join(issue, "ref_walls.txt")
    if os.path.exists(ref):
        rb = {}
        for line in open(ref):
            form, rep, w = line.split()
            rb[form] = min(rb.get(form, 1e9), float(w))
        ref_name = os.environ.get("REF_LABEL") or os.environ.get("REF_ARCSIM", "")
        f.write(f"\nThe same runs of a reference build (`{ref_name}`), each right after this build's on the same trace "
                f"(best of {reps}; the machine's speed drifts between calls, so compare within a call): "
                + ", ".join(f"{'full (values)' if k == 'full' else 'timing-only'} {v:.2f} s against {best[k][1]:.2f} s"
                            for k, v in sorted(rb.items()) if k in best) + ".\n")
    sparse = os.path.join(issue, "sparse.txt")
    if os.path.exists(sparse):
        f.write("""
A short trace on a large buffer: `trace gen -n 4096 --buffer-words 16777216 --sms 132 --warps-per-subcore 16`
(and `--timing-only`), baseline, one core, once. The per-word tables (image, ROP word state,
per-word counts and sums) are zero pages that cost only where the run wrote, so memory follows the
words a trace touches, not the buffer's 16M words (build c3e8140, whose tables were written whole: 696 MB and 2.36 s for the full form).

| form | lane updates | wall s | model cpu s | peak RSS MB |
| --- | --- | --- | --- | --- |
""")
        for line in open(sparse):
            form, w = line.split()
            j = json.load(open(os.path.join(issue, f"sparse-{form}.json")))
            r, h = j["runs"][0], j["host_cost"]["runs"][0]
            f.write(f"| {'full (values)' if form == 'full' else 'timing-only'} | {r['lane_updates']:,} | "
                    f"{float(w):.2f} | {h['cpu_seconds']:.2f} | {h['peak_rss_mb']:.0f} |\n")
    irs = os.path.join(issue, "ir.txt")
    if os.path.exists(irs):
        f.write("""
Instructions executed (`valgrind --tool=cachegrind`), a 100,000-instruction trace of the same shape
(`-n 100000`, same flags), baseline: machine-independent, so it shows what a change saves where the
wall times above vary run to run by 10-20 %.

| form | summary (parent) | model (child) | total | per warp instruction |
| --- | --- | --- | --- | --- |
""")
        for line in open(irs):
            parts = line.split()
            if len(parts) == 3:
                form, parent, child = parts[0], int(parts[1]), int(parts[2])
                f.write(f"| {'full (values)' if form == 'full' else 'timing-only'} | {parent/1e6:,.0f} M | {(child-parent)/1e6:,.0f} M | "
                        f"{child/1e6:,.0f} M | {child/1e5:,.0f} |\n")
    import glob
    # Issue 16's trace on one core of the device machine: scripts/bench-onecore.sh's runs
    # (results/h100/onecore/run*/onecore.json), builds interleaved in each round.
    repo_root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(full_log))))
    oc_runs = sorted(glob.glob(os.path.join(repo_root, "results", "h100", "onecore", "run*", "onecore.json")))
    if oc_runs:
        # The same build in several calls: how far the host's speed moves between them.
        seen = collections.defaultdict(list)
        for path in oc_runs:
            for r in json.load(open(path))["results"]:
                seen[os.path.basename(r["build"])].append((os.path.basename(os.path.dirname(path)), r["wall_min_s"]))
        spread = ""
        for b, v in seen.items():
            if len(v) > 1:
                spread = (f"The host's speed moves from call to call: build {b} took "
                          + " and ".join(f"{w:.2f} s ({run})" for run, w in v) + " at best.")
                break
        f.write(f"""
## Issue 16's synthetic trace, one core of the device machine

`N=... CORE=3 scripts/bench-onecore.sh OUT BUILD...` on the device machine: the same trace
(timing-only), baseline, `taskset -c 3`, the builds interleaved in each round so a slow spell of
the shared host hits each alike; min and median wall time (`results/h100/onecore/README.md`
says what each run compared). {spread}

| run | CPU | build | rounds | wall s min / median | warp instr/s at min / median | lane upd/s at min / median |
| --- | --- | --- | --- | --- | --- | --- |
""")
        for path in oc_runs:
            d = json.load(open(path))
            run = os.path.basename(os.path.dirname(path))
            for r in d["results"]:
                f.write(f"| {run} | {d['machine']['cpu']} | {os.path.basename(r['build'])} | {r['runs']} | "
                        f"{r['wall_min_s']:.2f} / {r['wall_median_s']:.2f} | {r['warp_instr_per_s_min_wall'] / 1e6:.2f} M / "
                        f"{r['warp_instr_per_s_median_wall'] / 1e6:.2f} M | {r['lane_updates_per_s_min_wall'] / 1e6:.1f} M / "
                        f"{r['lane_updates_per_s_median_wall'] / 1e6:.1f} M |\n")
    # The full-size runs on the device machine, newest model build first
    # (results/h100/full-capture/build-COMMIT/: TIMING_ONLY=1 scripts/gpu-full-capture.sh),
    # then the earlier build's runs (scripts/gpu-full-capture.sh, then scripts/gpu-full-second.sh).
    def parse_modes(t):
        modes = {}
        for m in re.finditer(r"^mode (\S+): wall ([0-9.]+) s", t, re.M):
            modes.setdefault(m.group(1), {})["wall"] = float(m.group(2))
        for m in re.finditer(r"^mode (\S+): exit (\d+)", t, re.M):
            modes.setdefault(m.group(1), {})["exit"] = int(m.group(2))
        for m in re.finditer(r"^(\S+): cycles (\d+), L2 requests (\d+), cpu ([0-9.]+) s, peak RSS (\d+) MB, "
                             r"read ahead (\d+) instructions \(([0-9.]+) MB\)\nfirst pass ([0-9.]+) cpu s( \(the warp table)?", t, re.M):
            modes.setdefault(m.group(1).split("/")[0], {}).update(
                cycles=int(m.group(2)), req=int(m.group(3)), cpu=float(m.group(4)), rss=int(m.group(5)),
                ahead=int(m.group(6)), ahead_mb=float(m.group(7)), first=float(m.group(8)), table=bool(m.group(9)))
        return modes
    def summary(m):  # where the run's summary came from, and its cost
        return "warp table, no first pass" if m.get("table") else f"first pass {m['first']:.1f} cpu s"
    import glob
    import subprocess
    def depth(log):  # the model build's commit depth in this repository: later builds sort last
        c = os.path.basename(os.path.dirname(log)).split("-", 1)[-1]  # build-C, local-C, ab-C
        r = subprocess.run(["git", "-C", os.path.dirname(log), "rev-list", "--count", c], capture_output=True, text=True)
        return int(r.stdout.strip()) if r.returncode == 0 and r.stdout.strip().isdigit() else 0
    builds = sorted(glob.glob(os.path.join(os.path.dirname(full_log), "build-*", "full.log")), key=depth)
    if builds and os.path.exists(full_log):
        nl = builds[-1]
        t = open(nl).read()
        cap = re.search(r"gs/baseline.*?(\d+) instructions, (\d+) lanes, (\d+) bytes", t)
        cw = re.search(r"^wall ([0-9.]+) s", t, re.M)
        modes = parse_modes(t)
        old = parse_modes(open(full_log).read())
        build = os.path.basename(os.path.dirname(nl))[len("build-"):]
        if cap and cw and "baseline" in modes:
            n, lanes, nbytes = (int(x) for x in cap.groups())
            f.write(f"""
## The full 1080p gs backward pass (device machine), model at {build}

From `results/h100/full-capture/build-{build}/full.log` ({t.splitlines()[0].lstrip("# ")};
`TIMING_ONLY=1 SCENES= scripts/gpu-full-capture.sh`): the benchmark's gs scene (1920x1080,
500,000 Gaussians, Baseline) captured by `arc_bench --trace --trace-timing-only` straight into
the timing-only form, then simulated in four modes at once, each on its own 2 cores (`taskset`,
h100.toml). The last column is the previous model build's run below (the same four modes side
by side, its own capture of the same scene).

| step | result | wall | previous build |
| --- | --- | --- | --- |
| capture (timing-only form) | {n:,} instructions, {lanes:,} lane updates, {nbytes/1e6:.0f} MB ({nbytes/lanes:.3f} bytes per lane update) | {float(cw.group(1)):.0f} s | |
""")
            for mode in ("baseline", "sw-s", "sw-b", "arc-hw"):
                m, o = modes.get(mode, {}), old.get(mode, {})
                prev = f"{o['wall']:.0f} s" + ("" if "cycles" in o else " (stopped at the limit)") if "wall" in o else ""
                if "cycles" in m:
                    f.write(f"| `arcsim sim --mode {mode}`, 2 cores | {m['cycles']:,} cycles; {summary(m)} + run "
                            f"{m['cpu']:.1f} cpu s; peak RSS {m['rss']} MB; read ahead {m['ahead']:,} instructions "
                            f"({m['ahead_mb']:.0f} MB) | {m['wall']:.0f} s | {prev} |\n")
                elif "wall" in m:
                    f.write(f"| `arcsim sim --mode {mode}`, 2 cores | not finished: stopped at the limit (exit {m.get('exit')}) | "
                            f"> {m['wall']:.0f} s | {prev} |\n")
            if len(builds) > 1:
                f.write("\nEvery device run of this kind. Each row is one call on a freshly started machine with its own\n"
                        "capture: rows are not a controlled comparison of builds (the instruction counts above are).\n\n"
                        "| model build | capture | baseline | sw-s | sw-b | arc-hw |\n"
                        "| --- | --- | --- | --- | --- | --- |\n")
                for bl in builds:
                    bt = open(bl).read()
                    bm = parse_modes(bt)
                    bw = re.search(r"^wall ([0-9.]+) s", bt, re.M)
                    cells = []
                    for mode in ("baseline", "sw-s", "sw-b", "arc-hw"):
                        m = bm.get(mode, {})
                        cells.append(f"{m['wall']:.0f} s" if "cycles" in m else (f"> {m['wall']:.0f} s (limit)" if "wall" in m else ""))
                    f.write(f"| {os.path.basename(os.path.dirname(bl))[len('build-'):]} | {float(bw.group(1)):.0f} s | {' | '.join(cells)} |\n")
            b = modes["baseline"]
            f.write(f"""
Baseline: {lanes/b['wall']/1e6:.1f} M lane updates and {n/b['wall']/1e6:.2f} M warp instructions per second of wall time
({b['wall']:.0f} s); issue 16 asks for under 60 s per mode ({lanes/60/1e6:.0f} M/s).
""")
    if os.path.exists(full_log):
        t = open(full_log).read()
        d = os.path.dirname(full_log)
        cap = re.search(r"gs/baseline.*?(\d+) instructions, (\d+) lanes, (\d+) bytes", t)
        walls = re.findall(r"^wall ([0-9.]+) s", t, re.M)
        strip = re.search(r"gs-t.arctrace: timing-only, \d+ instructions, \d+ lane updates, (\d+) bytes \(([0-9.]+) bytes per lane", t)
        modes = parse_modes(t)
        gpu = t.splitlines()[0].lstrip("# ")
        if cap and strip and len(walls) >= 2 and "baseline" in modes:
            n, lanes, full_b = (int(x) for x in cap.groups())
            f.write(f"""
## The full 1080p gs backward pass (device machine), previous model build

From `results/h100/full-capture/full.log` ({gpu}; `scripts/gpu-full-capture.sh`): the
benchmark's gs scene (1920x1080, 500,000 Gaussians, Baseline; captured with the interleaved
gradient record) captured whole by `arc_bench --trace`, made timing-only by `arcsim trace strip`,
and simulated there in four modes at once, each on its own 2 cores (`taskset`, h100.toml).

| step | result | wall |
| --- | --- | --- |
| capture (full form) | {n:,} instructions, {lanes:,} lane updates, {full_b/1e9:.2f} GB ({full_b/lanes:.2f} bytes per lane update) | {float(walls[0]):.0f} s |
| `trace strip` (timing-only form) | {int(strip.group(1))/1e6:.0f} MB ({float(strip.group(2)):.3f} bytes per lane update) | {float(walls[1]):.0f} s |
""")
            for mode in ("baseline", "sw-s", "sw-b", "arc-hw"):
                m = modes.get(mode, {})
                if "cycles" in m:
                    f.write(f"| `arcsim sim --mode {mode}`, 2 cores | {m['cycles']:,} cycles, {m['req']:,} L2 requests; "
                            f"{summary(m)} + run {m['cpu']:.1f} cpu s; peak RSS {m['rss']} MB; read ahead "
                            f"{m['ahead']:,} instructions ({m['ahead_mb']:.0f} MB) | {m['wall']:.0f} s |\n")
                elif "wall" in m:
                    f.write(f"| `arcsim sim --mode {mode}`, 2 cores | not finished: stopped at the limit (exit {m.get('exit')}) | > {m['wall']:.0f} s |\n")
            second = os.path.join(d, "second")
            alone = os.path.join(second, "baseline-alone.log")
            hw = os.path.join(second, "arc-hw.log")
            notes = []
            if os.path.exists(alone):
                w = re.search(r"wall ([0-9.]+) s", open(alone).read())
                if w:
                    notes.append(f"baseline again, beside two other runs (`scripts/gpu-full-second.sh`): {float(w.group(1)):.0f} s wall")
            pl = os.path.join(second, "pulsar.log")
            why = ""
            if os.path.exists(pl):
                pt = open(pl).read()
                rb = re.search(r"^baseline\s+(\d+)\s.*?\s(\d+)\s+\d+\s+\d+\s+([0-9.]+)\s+\d+\s*$", pt, re.M)
                rh = re.search(r"^arc-hw/dynamic\s+(\d+)\s.*?\s(\d+)\s+\d+\s+\d+\s+([0-9.]+)\s+\d+\s*$", pt, re.M)
                if rb and rh:
                    why = (f" On the full pulsar capture (same call) arc-hw took {float(rh.group(3)):.0f} cpu s against baseline's "
                           f"{float(rb.group(3)):.0f}: its ARC units' transactions leave as one request each, uncoalesced "
                           f"({int(rh.group(2)):,} L2 requests against {int(rb.group(2)):,}).")
            if os.path.exists(hw):
                w = re.search(r"wall ([0-9.]+) s", open(hw).read())
                if w:
                    notes.append(f"arc-hw again with a {float(w.group(1)):.0f} s limit: not finished either.{why}")
            al = os.path.join(d, "alone", "full.log")
            a = parse_modes(open(al).read()).get("baseline", {}) if os.path.exists(al) else {}
            if "cycles" in a and "wall" in a:
                notes.append(f"baseline alone on the machine (`SIM_MODES=baseline SCENES= scripts/gpu-full-capture.sh`, "
                             f"`results/h100/full-capture/alone/`, a fresh capture): {a['wall']:.0f} s wall, "
                             f"{a['cycles']:,} cycles, first pass {a['first']:.1f} cpu s (two threads) + run "
                             f"{a['cpu']:.1f} cpu s, peak RSS {a['rss']} MB")
            b = modes["baseline"]
            best = min([b["wall"]] + ([a["wall"]] if "cycles" in a and "wall" in a else []))
            f.write(f"""
{chr(10).join("- " + x for x in notes)}

Baseline runs at {lanes/best/1e6:.1f} M lane updates per second of wall time on the full pass ({best:.0f} s), against issue 16's
target of under 60 s per mode ({lanes/60/1e6:.0f} M/s). Peak memory is {b['rss']} MB, {b['ahead_mb']:.0f} MB of it the
read-ahead ({b['ahead']:,} instructions buffered for warps the model has not reached yet).
""")
    # Two model builds on one capture, one after the other on the same device machine
    # (scripts/gpu-full-ab.sh): the controlled comparison of builds on the full pass.
    abs_ = sorted(glob.glob(os.path.join(os.path.dirname(full_log), "ab-*", "ab.log")), key=depth)
    if abs_:
        al = abs_[-1]
        repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(full_log))))
        f.write(f"""
## Two model builds on one 1080p capture (device machine)

`scripts/gpu-full-ab.sh` (`{os.path.relpath(al, repo)}`, and `alone/` beside it where present): one
timing-only capture of the gs scene, simulated by build a, then by build b, on the same machine.
Build b is the model at {os.path.basename(os.path.dirname(al)).split("-", 1)[-1]} (the folder's name); build a is named in
`results/h100/full-capture/README.md`. Each `alone/` run had the machine to itself; the spread
between two runs of one build there shows the machine's own noise.

""")
        for log in [al] + sorted(glob.glob(os.path.join(os.path.dirname(al), "*", "ab.log"))):
            lines = open(log).read().splitlines()
            f.write(f"`{os.path.relpath(log, repo)}` ({lines[0].lstrip('# ')}):\n\n")
            for line in lines:
                if re.match(r"^(## (build|one run)|build \S+ mode \S+: wall|\S+: cycles \d+ vs)", line):
                    f.write(f"- {line.lstrip('# ')}\n")
            f.write("\n")
    # The same capture on 2 cores, one mode at a time (scripts/bench-full-trace.sh; local-C: a
    # 2-core machine, device-C: 2 cores of the device machine), and the RTL level against the fast
    # level on it (scripts/rtl-vs-fast.sh): the newest build's logs.
    local = sorted(glob.glob(os.path.join(os.path.dirname(full_log), "local-*", "bench.log")) +
                   glob.glob(os.path.join(os.path.dirname(full_log), "device-*", "bench.log")), key=depth)
    if local:
        ll = local[-1]
        lt = open(ll).read().splitlines()
        repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(full_log))))
        tidy = lambda line: re.sub(r"\d+\.\d{3,}", lambda m: f"{float(m.group()):.1f}", line)  # long decimals (seconds) to 0.1
        ld = os.path.dirname(ll)
        f.write(f"""
## The full 1080p gs pass, 2 cores, one mode at a time

`scripts/bench-full-trace.sh` on a timing-only capture of the benchmark's gs scene (1920x1080, 500,000
Gaussians, Baseline; `{os.path.relpath(ll, repo)}`): {lt[0].lstrip("# ")}.
Issue 16's target: under 60 s per mode on 2 cores.

""")
        for line in lt[2:]:
            f.write(f"- {tidy(line)}\n")
        # The newest build's RTL-vs-fast comparison (it takes ~10 minutes: not every build has one).
        compares = sorted(glob.glob(os.path.join(os.path.dirname(full_log), "local-*", "rtl-vs-fast", "compare.log")),
                          key=lambda p: depth(os.path.dirname(p)))
        if compares:
            cl = compares[-1]
            ct = open(cl).read().splitlines()
            f.write(f"""
The RTL level on a timing-only capture of the same scene (`scripts/rtl-vs-fast.sh`: arc-hw dynamic, the Verilated ARC units
in the loop, one core; then the fast level; `{os.path.relpath(cl, repo)}`), {ct[0].lstrip("# ")}:

""")
            for line in ct[2:]:
                f.write(f"- {tidy(line)}\n")
print(f"bench-sim.sh: wrote {out}")
PY
