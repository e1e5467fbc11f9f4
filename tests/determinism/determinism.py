#!/usr/bin/env python3
"""Determinism: the same inputs give byte-identical output from the real arcsim binary.

Each check runs one arcsim command twice (in fresh processes) and compares stdout byte for byte:
  trace gen        the trace file itself (same flags + seed)
  sim --json       fast fidelity, every mode and arc-hw scheduler; rtl fidelity, two modes
  verify --json    trace mode and the seeded dynamic mode, with two keys removed first:
                   'seconds' and 'lane_updates_per_s' (wall-clock time of the replay and the rate
                   derived from it -- the only non-deterministic keys in arcsim's JSON)
  area --json      first run (fills the Yosys cache if it is cold) vs second run with the key
                   'from_cache' removed (it says where each module's report came from), then the
                   second vs a third run (both cached) byte for byte

  determinism.py ARCSIM        prints 'N passed, M failed'
"""
import json
import os
import subprocess
import sys
import tempfile

# Keys whose values are wall-clock timings (or provenance) and so legitimately differ between runs.
VERIFY_TIMING_KEYS = ("seconds", "lane_updates_per_s")
AREA_PROVENANCE_KEYS = ("from_cache",)


def strip_keys(obj, keys):
    if isinstance(obj, dict):
        return {k: strip_keys(v, keys) for k, v in obj.items() if k not in keys}
    if isinstance(obj, list):
        return [strip_keys(v, keys) for v in obj]
    return obj


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

    def twice(name, args, cwd, keys=(), ok_codes=(0,)):
        one, two = run(args, cwd, ok_codes), run(args, cwd, ok_codes)
        if keys:
            one = json.dumps(strip_keys(json.loads(one), keys), indent=1).encode()
            two = json.dumps(strip_keys(json.loads(two), keys), indent=1).encode()
            name += f" (without keys {', '.join(keys)})"
        check(name, one, two)

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
        twice("verify --json, trace mode", ["verify", "--trace", "a.trace", "--json"], d, VERIFY_TIMING_KEYS)
        twice("verify --json, dynamic mode (seeded busy input)",
              ["verify", "--trace", "a.trace", "--mode", "dynamic", "--seed", "5", "--json"], d, VERIFY_TIMING_KEYS,
              ok_codes=(0, 1))  # exit 1: the RTL (dynamic) reduced other groups than the trace's GPU did

        first, second, third = (run(["area", "--json"], d) for _ in range(3))
        check(f"area --json, first vs second run (without keys {', '.join(AREA_PROVENANCE_KEYS)})",
              json.dumps(strip_keys(json.loads(first), AREA_PROVENANCE_KEYS), indent=1).encode(),
              json.dumps(strip_keys(json.loads(second), AREA_PROVENANCE_KEYS), indent=1).encode())
        check("area --json, second vs third run (cached)", second, third)

    print(f"determinism: {passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
