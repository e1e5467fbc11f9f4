#!/usr/bin/env python3
"""Accel-Sim samples end to end with the real arcsim binary: each sample in data/ imports,
simulates in every mode (baseline, sw-s, sw-b, arc-hw never/always/threshold/dynamic) and gives
the same cycles when simulated again; every broken sample in bad/ gives one 'arcsim: error:' line
naming the file, and exit 2; seeded random mutations of the samples (lines dropped, doubled, cut,
fields replaced) import cleanly or give one such line and exit 2, never a crash.

  import_sim.py ARCSIM
"""
import json
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLES = ["data/scatter-plain.traceg", "data/app", "data/app/kernelslist.g", "data/app/kernel-2.traceg"]
MODES = ["--mode", "baseline,sw-s,sw-b,arc-hw", "--sched", "never,always,threshold,dynamic"]
# (broken sample, extra flags, message fragment)
BAD = [
    ("bad/bad-opcode.traceg", [], "bad-opcode.traceg:24: unknown opcode syntax 'red.add.f32'"),
    ("bad/truncated-warp.traceg", [], "truncated-warp.traceg:27: truncated warp"),
    ("bad/truncated-file.traceg", [], "truncated-file.traceg:24: truncated warp"),
    ("bad/mask-mismatch.traceg", [], "mask-mismatch.traceg:23: mask 000000ff has 8 active lanes but 7 addresses"),
    ("bad/delta-mismatch.traceg", [], "delta-mismatch.traceg:23: mask 0000000f has 4 active lanes but 5 fields"),
    ("bad/stride-gap.traceg", [], "stride-gap.traceg:23: base+stride address form with mask 00000f0f"),
    ("bad/unaligned.traceg", [], "unaligned.traceg:23: unaligned"),
    ("bad/address-form.traceg", [], "address-form.traceg:23: unknown address format 5"),
    ("bad/bad-mask.traceg", [], "bad-mask.traceg:23: active mask 1ffffffff is wider than 32 lanes"),
    ("bad/no-atomics.traceg", [], "no global float atomic add"),
    ("bad/span.traceg", [], "more than 268435456 (--max-buffer-words)"),
    ("bad/not-traceg.traceg", [], "not-traceg.traceg:1: not an Accel-Sim .traceg"),
    ("bad/raw-list/kernelslist", [], "kernelslist:1: 'kernel-1.trace' is a raw NVBit trace"),
    ("bad/nosuch.traceg", [], "nosuch.traceg: no such file or directory"),
]


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, timeout=120, **kw)


FIELDS = ["", "-1", "0x", "zz", "99999999999999999999", "R", "4294967296", "0", "7", "ffffffff", "=", "#END_TB",
          "warp = 0", "insts = 3", "1,2", "RED.E.ADD.F32", "0x7f1200000003"]


def mutate(lines, rng):
    out = list(lines)
    i = rng.randrange(len(out))
    kind = rng.randrange(5)
    if kind == 0:
        del out[i]
    elif kind == 1:
        out.insert(i, out[i])
    elif kind == 2:
        out[i] = out[i][: rng.randrange(len(out[i]) + 1)]
    else:
        tok = out[i].split(" ")
        tok[rng.randrange(len(tok))] = rng.choice(FIELDS)
        out[i] = " ".join(tok)
    return out


def mutations(arcsim, d, n=int(os.environ.get("ARCSIM_IMPORT_MUTATIONS", "100"))):
    """Each mutation: exit 0 with an empty stderr, or exit 2 with one 'arcsim: error:' line."""
    rng = random.Random(21)
    sources = [open(os.path.join(HERE, f)).read().split("\n")
               for f in ("data/scatter-plain.traceg", "data/app/kernel-2.traceg")]
    bad = {0: 0, 2: 0}
    for k in range(n):
        path = os.path.join(d, f"m{k}.traceg")
        with open(path, "w") as f:
            f.write("\n".join(mutate(sources[k % 2], rng)))
        r = run([arcsim, "trace", "import", "--from", "accelsim", path, "-o", os.path.join(d, "m.arctrace"), "-q"])
        lines = r.stderr.splitlines()
        ok = (r.returncode == 0 and not lines) or (
            r.returncode == 2 and len(lines) == 1 and lines[0].startswith("arcsim: error: "))
        if not ok:
            print(f"FAIL mutation {k}: exit {r.returncode}: {r.stderr.strip()}  (kept as {path})")
            return 1
        bad[r.returncode] += 1
    print(f"ok   {n} mutations: {bad[0]} imported, {bad[2]} refused with one line")
    return 0


def main():
    arcsim = os.path.abspath(sys.argv[1])
    failures = 0
    env = dict(os.environ, SYSTEMC_DISABLE_COPYRIGHT_MESSAGE="1")
    with tempfile.TemporaryDirectory(prefix="arcsim-import-") as d:
        for i, sample in enumerate(SAMPLES):
            out = os.path.join(d, f"s{i}.arctrace")
            r = run([arcsim, "trace", "import", "--from", "accelsim", os.path.join(HERE, sample), "-o", out, "--json"])
            if r.returncode != 0:
                print(f"FAIL import {sample}: exit {r.returncode}: {r.stderr.strip()}")
                failures += 1
                continue
            summary = json.loads(r.stdout)
            cycles = []
            for rep in range(2):
                s = run([arcsim, "sim", "--gpu", "h100", "--trace", out, "--json"] + MODES, env=env)
                if s.returncode != 0:
                    print(f"FAIL sim {sample}: exit {s.returncode}: {s.stderr.strip()}")
                    failures += 1
                    break
                runs = json.loads(s.stdout)["runs"]
                cycles.append([(x["mode"], x["total_cycles"], x["lane_updates"]) for x in runs])
            if len(cycles) < 2:
                continue
            ok = cycles[0] == cycles[1] and len(cycles[0]) == 7 and all(c > 0 for _, c, _ in cycles[0]) \
                and all(n == summary["lane_updates"] for _, _, n in cycles[0])
            failures += not ok
            print(f"{'ok  ' if ok else 'FAIL'} {sample}: {summary['records']} records, {summary['lane_updates']} lanes;"
                  " cycles " + ", ".join(f"{m} {c}" for m, c, _ in cycles[0]) + ("" if ok else f" vs {cycles[1]}"))
        for sample, extra, fragment in BAD:
            r = run([arcsim, "trace", "import", "--from", "accelsim", os.path.join(HERE, sample),
                     "-o", os.path.join(d, "bad.arctrace")] + extra)
            lines = r.stderr.splitlines()
            ok = r.returncode == 2 and len(lines) == 1 and lines[0].startswith("arcsim: error: ") and fragment in lines[0]
            failures += not ok
            print(f"{'ok  ' if ok else 'FAIL'} {sample}: exit {r.returncode}: {r.stderr.strip()}"
                  + ("" if ok else f"  (expected exit 2, one line with '{fragment}')"))
        failures += mutations(arcsim, d)
    print(f"import_sim: {'all passed' if failures == 0 else f'{failures} failed'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
