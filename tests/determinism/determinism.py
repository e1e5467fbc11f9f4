#!/usr/bin/env python3
"""Determinism: the same inputs give byte-identical output from the real arcsim binary.

Each check runs one arcsim command twice (in fresh processes) and compares the raw bytes of its
output -- the whole JSON document, no key removed or filtered:
  trace gen        the trace file itself (same flags + seed)
  sim --json       fast fidelity, every mode and arc-hw scheduler; rtl fidelity, two modes
  verify --json    trace mode and the seeded dynamic mode
arcsim's JSON carries no wall-clock time and no cache state for this reason; the text output
shows those. `area --json`'s check (a cold run, every module synthesized, against a warm run from
that cache, byte for byte) is in tests/area (AreaCli.ColdThenWarmRtx4090), which makes both runs.

  determinism.py ARCSIM        prints 'N passed, M failed'
"""
import os
import subprocess
import sys
import tempfile


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    arcsim = os.path.abspath(sys.argv[1])
    passed, failed = 0, 0

    def run(args, cwd, ok_codes=(0,)):
        r = subprocess.run([arcsim] + args, cwd=cwd, capture_output=True, timeout=1200)
        if r.returncode not in ok_codes:
            raise RuntimeError(f"arcsim {' '.join(args)} exited {r.returncode}: {r.stderr.decode()[-2000:]}")
        return r.stdout

    def check(name, a, b):
        nonlocal passed, failed
        if a == b:
            passed += 1
            print(f"ok   {name} ({len(a)} bytes identical)")
        else:
            failed += 1
            i = next((k for k in range(min(len(a), len(b))) if a[k] != b[k]), min(len(a), len(b)))
            print(f"FAIL {name}: outputs differ at byte {i} ({len(a)} vs {len(b)} bytes)\n"
                  f"     run 1: {a[max(0, i - 80):i + 80]!r}\n     run 2: {b[max(0, i - 80):i + 80]!r}")

    def twice(name, args, cwd, ok_codes=(0,)):
        check(name, run(args, cwd, ok_codes), run(args, cwd, ok_codes))

    with tempfile.TemporaryDirectory(prefix="arcsim-determinism-") as d:
        gen = ["trace", "gen", "-q", "-n", "300", "--seed", "7", "--buffer-words", "1024", "--block-records", "64"]
        run(gen + ["-o", "a.trace"], d)
        run(gen + ["-o", "b.trace"], d)
        check("trace gen: same flags + seed -> same file", open(os.path.join(d, "a.trace"), "rb").read(),
              open(os.path.join(d, "b.trace"), "rb").read())
        run(["trace", "gen", "-q", "-n", "60", "--seed", "3", "--buffer-words", "256", "-o", "small.trace"], d)

        twice("sim --json, fast, all modes and schedulers",
              ["sim", "--gpu", "rtx4090", "--trace", "a.trace", "--mode", "baseline,sw-s,sw-b,arc-hw",
               "--sched", "dynamic,threshold,always,never", "--json"], d)
        twice("sim --json, h100, --set overrides",
              ["sim", "--gpu", "h100", "--trace", "a.trace", "--mode", "sw-s,arc-hw", "--set", "sms=8",
               "--set", "rop_latency=40", "--json"], d)
        twice("sim --json, rtl fidelity",
              ["sim", "--gpu", "rtx3060", "--trace", "small.trace", "--mode", "baseline,arc-hw", "--fidelity", "rtl",
               "--json"], d)
        twice("verify --json, trace mode", ["verify", "--trace", "a.trace", "--json"], d)
        twice("verify --json, dynamic mode (seeded busy input)",
              ["verify", "--trace", "a.trace", "--mode", "dynamic", "--seed", "5", "--json"], d,
              ok_codes=(0, 1))  # exit 1: the RTL (dynamic) reduced other groups than the trace's GPU did

    print(f"determinism: {passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
