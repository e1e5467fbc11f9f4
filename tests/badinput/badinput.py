#!/usr/bin/env python3
"""Bad-input audit: run the real arcsim binary on bad input and check that each case prints
exactly one line on stderr, 'arcsim: error: ...', naming the problem (a fragment of the
message is given per case), and exits 2 -- never a crash, a sanitizer report or a silent 0.

  badinput.py ARCSIM              run every case; prints 'N passed, M failed'
  badinput.py ARCSIM --markdown   also print the table (case | message | exit code)
"""
import os
import shutil
import subprocess
import sys
import tempfile


def make_fixtures(arcsim, d):
    """Small valid trace and config, and broken variants of them, in folder d."""
    ok = os.path.join(d, "ok.trace")
    subprocess.run([arcsim, "trace", "gen", "-q", "-o", ok, "-n", "40", "--buffer-words", "256",
                    "--block-records", "16"], check=True)
    data = open(ok, "rb").read()

    def write(name, content, mode="wb"):
        with open(os.path.join(d, name), mode) as f:
            f.write(content)

    write("truncated.trace", data[: len(data) // 2])
    write("cut-header.trace", data[:12])
    flipped = bytearray(data)
    flipped[200] ^= 0x5A  # inside block 0's zstd frame: the data crc32 catches it
    write("corrupt.trace", bytes(flipped))
    v9 = bytearray(data)
    v9[8] = 9  # u16 version after the 8-byte magic
    write("version9.trace", bytes(v9))
    write("empty.trace", b"")
    write("text.trace", b"hello, not a trace\n")
    write("trailing.trace", data + b"\0")
    os.mkdir(os.path.join(d, "dir.trace"))
    cfg = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "cosim", "configs",
                            "rtx4090.toml")).read()

    def cfg_with(name, line, replace=None):
        text = cfg
        if replace:
            lines = [(line if l.split("=")[0].strip() == replace else l) for l in text.splitlines()]
            assert any(l == line for l in lines), f"{replace} not in rtx4090.toml"
            text = "\n".join(lines) + "\n"
        else:
            text += line + "\n"
        write(name, text, "w")

    cfg_with("unknown-key.toml", "warp_size_typo = 32")
    cfg_with("sms0.toml", "sms = 0", replace="sms")
    cfg_with("neg-latency.toml", "rop_latency = -5", replace="rop_latency")
    cfg_with("float-sms.toml", 'sms = "many"', replace="sms")
    write("syntax.toml", "sms = [\n", "w")
    write("empty.toml", "", "w")
    write("empty-spec.toml", "", "w")
    os.mkdir(os.path.join(d, "configdir"))
    # Broken Accel-Sim .traceg samples (tests/import/make_samples.py), copied so messages name short paths.
    shutil.copytree(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "import", "bad"),
                    os.path.join(d, "traceg"))
    return d


# (case, args, message fragment that must appear). Paths are relative to the fixture folder.
SIM = ["sim", "--gpu", "rtx4090", "--trace", "ok.trace"]
IMP = ["trace", "import", "--from", "accelsim", "-o", "imported.trace"]
CASES = [
    # traces
    ("truncated trace", ["trace", "info", "truncated.trace"], "truncated file"),
    ("trace cut inside its header", ["sim", "--gpu", "rtx4090", "--trace", "cut-header.trace"], "truncated file"),
    ("corrupted trace (one byte flipped)", ["trace", "info", "corrupt.trace"], "checksum mismatch"),
    ("corrupted trace, arcsim verify", ["verify", "--trace", "corrupt.trace"], "checksum mismatch"),
    ("wrong-version trace", ["sim", "--gpu", "rtx4090", "--trace", "version9.trace"],
     "unsupported trace format version 9"),
    ("empty trace file", ["trace", "info", "empty.trace"], "empty file"),
    ("not a trace (text)", ["trace", "info", "text.trace"], "wrong magic"),
    ("bytes after the end block", ["trace", "info", "trailing.trace"], "unexpected data after the end-of-trace"),
    ("missing trace file", ["sim", "--gpu", "rtx4090", "--trace", "nosuch.trace"], "No such file"),
    ("directory instead of a trace", ["verify", "--trace", "dir.trace"], "Is a directory"),
    # GPU configs and parameters
    ("unknown config key", ["sim", "--config", "unknown-key.toml", "--trace", "ok.trace"],
     "'warp_size_typo': unknown key"),
    ("0 SMs (config file)", ["sim", "--config", "sms0.toml", "--trace", "ok.trace"], "'sms': 0 is out of range"),
    ("0 SMs (--set)", SIM + ["--set", "sms=0"], "'sms': 0 is out of range"),
    ("negative latency (config file)", ["sim", "--config", "neg-latency.toml", "--trace", "ok.trace"],
     "'rop_latency': -5 is out of range"),
    ("negative latency (--set)", SIM + ["--set", "icnt_latency=-1"], "'icnt_latency': -1 is out of range"),
    ("wrong value type in config", ["sim", "--config", "float-sms.toml", "--trace", "ok.trace"], "'sms'"),
    ("TOML syntax error", ["sim", "--config", "syntax.toml", "--trace", "ok.trace"], "TOML syntax error"),
    ("empty config file", ["sim", "--config", "empty.toml", "--trace", "ok.trace"], "'name': missing"),
    ("missing config file", ["sim", "--config", "nosuch.toml", "--trace", "ok.trace"], "no such GPU config file"),
    ("directory instead of a config", ["sim", "--config", "configdir/", "--trace", "ok.trace"], "is a directory"),
    ("unknown GPU (sim)", ["sim", "--gpu", "gtx9999", "--trace", "ok.trace"], "unknown GPU 'gtx9999'"),
    ("unknown GPU (area)", ["area", "--gpu", "gtx9999"], "unknown GPU 'gtx9999'"),
    ("both --gpu and --config", ["sim", "--gpu", "rtx4090", "--config", "empty.toml", "--trace", "ok.trace"],
     "exactly one of --gpu"),
    ("threshold > 32 (sim)", SIM + ["--mode", "sw-s", "--threshold", "33"], "--threshold 33"),
    ("threshold > 32 (trace gen)", ["trace", "gen", "-q", "-o", "t33.trace", "--threshold", "33"], "threshold 33"),
    ("threshold > 63 (verify)", ["verify", "--trace", "ok.trace", "--threshold", "64"], "--threshold"),
    ("negative threshold", SIM + ["--threshold", "-1"], "--threshold"),
    ("--set without '='", SIM + ["--set", "sms"], "expected key=value"),
    ("--set unknown key", SIM + ["--set", "warp_size_typo=4"], "'warp_size_typo': unknown GPU parameter"),
    ("--set non-integer value", SIM + ["--set", "sms=abc"], "'abc' is not an integer"),
    ("--set empty value", SIM + ["--set", "sms="], "empty value"),
    ("area --set impossible RTL value", ["area", "--set", "FTZ=7"], "FTZ=7: impossible value"),
    ("area --set unknown parameter", ["area", "--set", "Bogus=1"], "Bogus: unknown RTL parameter"),
    ("area --set without '='", ["area", "--set", "FTZ"], "expected PARAM=INTEGER"),
    ("unknown sim mode", SIM + ["--mode", "fastest"], "unknown mode 'fastest'"),
    ("unknown scheduler", SIM + ["--mode", "arc-hw", "--sched", "lazy"], "unknown scheduler mode 'lazy'"),
    ("unknown fidelity", SIM + ["--fidelity", "gate"], "unknown level 'gate'"),
    ("generator: 0 SMs", ["trace", "gen", "-q", "-o", "x.trace", "--sms", "0"], "must be > 0"),
    ("generator: unwritable output", ["trace", "gen", "-q", "-o", "nodir/x.trace"], "cannot create trace"),
    ("missing sweep spec", ["sweep", "nosuch.toml"], "no such file"),
    ("empty sweep spec", ["sweep", "empty-spec.toml", "--dry-run"], "trace: missing"),
    ("check-adder bad --ftz", ["check-adder", "--ftz", "2"], "--ftz"),
    ("rtl-run --ready-prob 0", ["rtl-run", "--ready-prob", "0"], "--ready-prob"),
    ("missing required flag", ["sim", "--gpu", "rtx4090"], "--trace is required"),
    # Accel-Sim trace import (tests/import/bad)
    ("import: unknown opcode syntax", IMP + ["traceg/bad-opcode.traceg"], "bad-opcode.traceg:24: unknown opcode syntax"),
    ("import: truncated warp", IMP + ["traceg/truncated-warp.traceg"], "truncated-warp.traceg:27: truncated warp"),
    ("import: file ends inside a warp", IMP + ["traceg/truncated-file.traceg"], "truncated-file.traceg:24: truncated warp"),
    ("import: mask/address count mismatch", IMP + ["traceg/mask-mismatch.traceg"],
     "mask-mismatch.traceg:23: mask 000000ff has 8 active lanes but 7 addresses"),
    ("import: base+delta count mismatch", IMP + ["traceg/delta-mismatch.traceg"],
     "delta-mismatch.traceg:23: mask 0000000f has 4 active lanes but 5 fields"),
    ("import: base+stride, gapped mask", IMP + ["traceg/stride-gap.traceg"], "stride-gap.traceg:23: base+stride"),
    ("import: unaligned float atomic", IMP + ["traceg/unaligned.traceg"], "unaligned.traceg:23: unaligned"),
    ("import: unknown address format", IMP + ["traceg/address-form.traceg"], "address-form.traceg:23: unknown address format 5"),
    ("import: mask wider than 32 lanes", IMP + ["traceg/bad-mask.traceg"], "bad-mask.traceg:23: active mask"),
    ("import: no float atomic add", IMP + ["traceg/no-atomics.traceg"], "no global float atomic add"),
    ("import: address span too large", IMP + ["traceg/span.traceg"], "--max-buffer-words"),
    ("import: not a .traceg", IMP + ["traceg/not-traceg.traceg"], "not-traceg.traceg:1: not an Accel-Sim .traceg"),
    ("import: raw NVBit kernelslist", IMP + ["traceg/raw-list/kernelslist"], "raw NVBit trace"),
    ("import: missing file", IMP + ["nosuch.traceg"], "nosuch.traceg: no such file"),
    ("import: folder without kernelslist.g", IMP + ["configdir"], "no kernelslist.g"),
    ("import: --sms 0", IMP + ["--sms", "0", "traceg/span.traceg"], "--sms and --subcores must be > 0"),
    ("import: unknown --from", ["trace", "import", "--from", "gpgpusim", "-o", "x.trace", "traceg/span.traceg"],
     "unknown --from 'gpgpusim'"),
    # command line
    ("no subcommand", [], "subcommand"),
    ("unknown subcommand", ["simulate"], "simulate"),
    ("unknown trace subcommand", ["trace", "inspect"], "inspect"),
    ("unknown top-level flag", ["--bogus"], "--bogus"),
    ("unknown flag: check-adder", ["check-adder", "--bogus"], "--bogus"),
    ("unknown flag: rtl-run", ["rtl-run", "--bogus"], "--bogus"),
    ("unknown flag: trace info", ["trace", "info", "ok.trace", "--bogus"], "--bogus"),
    ("unknown flag: trace gen", ["trace", "gen", "-o", "x.trace", "--bogus"], "--bogus"),
    ("unknown flag: verify", ["verify", "--trace", "ok.trace", "--bogus"], "--bogus"),
    ("unknown flag: area", ["area", "--bogus"], "--bogus"),
    ("unknown flag: sim", SIM + ["--bogus"], "--bogus"),
    ("unknown flag: sweep", ["sweep", "empty-spec.toml", "--bogus"], "--bogus"),
]


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    arcsim = os.path.abspath(sys.argv[1])
    markdown = "--markdown" in sys.argv[2:]
    passed, failed, rows = 0, 0, []
    with tempfile.TemporaryDirectory(prefix="arcsim-badinput-") as d:
        make_fixtures(arcsim, d)
        env = dict(os.environ, NO_COLOR="1")
        for name, args, fragment in CASES:
            r = subprocess.run([arcsim] + args, cwd=d, env=env, capture_output=True, text=True, timeout=120)
            lines = r.stderr.splitlines()
            problems = []
            if r.returncode != 2:
                problems.append(f"exit code {r.returncode}, expected 2")
            if len(lines) != 1:
                problems.append(f"{len(lines)} stderr lines, expected 1")
            if not lines or not lines[0].startswith("arcsim: error: "):
                problems.append("stderr does not start with 'arcsim: error: '")
            if fragment not in r.stderr:
                problems.append(f"message does not name the problem ('{fragment}')")
            msg = lines[0] if lines else ""
            if problems:
                failed += 1
                print(f"FAIL {name}: arcsim {' '.join(args)}\n     " + "; ".join(problems) +
                      "\n     stderr: " + r.stderr.strip().replace("\n", "\n             "))
            else:
                passed += 1
                print(f"ok   {name}: {msg}")
            rows.append((name, "arcsim " + " ".join(args), msg.replace(d + "/", ""), r.returncode))
    if markdown:
        print("\n| case | command | message (stderr) | exit code |\n| --- | --- | --- | --- |")
        for name, cmd, msg, rc in rows:
            print(f"| {name} | `{cmd}` | `{msg}` | {rc} |")
    print(f"badinput: {passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
