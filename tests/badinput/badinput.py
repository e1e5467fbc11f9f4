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
    cfg = cfg.split("\n[model]")[0] + "\n"  # the GPU keys only: the cases below append top-level lines

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
    cfg_with("knob-top.toml", "rop_window = 8")
    cfg_with("model-typo.toml", "[model]\nrop_windw = 8")
    cfg_with("coalesce3.toml", "coalesce_bytes = 3", replace="coalesce_bytes")
    cfg_with("neg-latency.toml", "rop_latency = -5", replace="rop_latency")
    cfg_with("float-sms.toml", 'sms = "many"', replace="sms")
    write("syntax.toml", "sms = [\n", "w")
    write("empty.toml", "", "w")
    write("empty-spec.toml", "", "w")
    write("neg-instr-spec.toml", "[trace.gen.a]\ninstructions = -20000\n", "w")
    write("neg-gap-spec.toml", "[trace.gen.a]\ngap_mean = -1.0\n", "w")
    write("bad-flag-spec.toml", "[trace.gen.a]\ninstr = 5\n", "w")
    write("threshold-spec.toml", "threshold = 40\n[trace.gen.a]\ninstructions = 5\n", "w")
    os.mkdir(os.path.join(d, "configdir"))
    os.mkfifo(os.path.join(d, "fifo"))
    write("coalesce6-spec.toml", 'gpu = "h100"\n[set]\ncoalesce_bytes = 6\n[trace.gen.a]\ninstructions = 5\n', "w")
    write("queue8-spec.toml", 'gpu = "h100"\n[axes]\nlsu_queue_depth = [8, 64]\n[trace.gen.a]\ninstructions = 5\n', "w")
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
    ("knob outside [model] (config file)", ["sim", "--config", "knob-top.toml", "--trace", "ok.trace"],
     "'rop_window': is a timing-model knob: set it in the file's [model] table"),
    ("unknown knob in [model]", ["sim", "--config", "model-typo.toml", "--trace", "ok.trace"],
     "'model.rop_windw': unknown timing-model knob"),
    ("coalescing granule not a power of two", ["sim", "--config", "coalesce3.toml", "--trace", "ok.trace"],
     "coalesce_bytes 3 is not 0 or a power of two"),
    ("0 SMs (--set)", SIM + ["--set", "sms=0"], "'sms': 0 is out of range"),
    ("negative latency (config file)", ["sim", "--config", "neg-latency.toml", "--trace", "ok.trace"],
     "'rop_latency': -5 is out of range"),
    ("negative latency (--set)", SIM + ["--set", "icnt_latency=-1"], "'icnt_latency': -1 is out of range"),
    ("empty GPU name (--set: blames --set, not the file)", ["sim", "--gpu", "h100", "--trace", "ok.trace",
                                                              "--set", 'name=""'], "--set: key 'name': empty"),
    ("link rates that miss GPCs (--set)", ["sim", "--gpu", "h100", "--trace", "ok.trace", "--set",
                                           'icnt_gpc_bytes_per_cycle="1"'], "--set: key 'icnt_gpc_bytes_per_cycle': 1 rates"),
    ("GPC map emptied under the file's rates (--set)", ["sim", "--gpu", "h100", "--trace", "ok.trace", "--set",
                                                         'gpc_of_sm=""'], "--set: key 'icnt_gpc_bytes_per_cycle': is given but"),
    ("slice queue without slices (--set)", SIM + ["--set", "rop_slice_op_interval=1"],
     "needs rop_slices > 0: it paces each slice's one-word ops"),
    ("wrong value type in config", ["sim", "--config", "float-sms.toml", "--trace", "ok.trace"], "'sms'"),
    ("TOML syntax error", ["sim", "--config", "syntax.toml", "--trace", "ok.trace"], "TOML syntax error"),
    ("empty config file", ["sim", "--config", "empty.toml", "--trace", "ok.trace"], "'name': missing"),
    ("missing config file", ["sim", "--config", "nosuch.toml", "--trace", "ok.trace"], "no such GPU config file"),
    ("directory instead of a config", ["sim", "--config", "configdir/", "--trace", "ok.trace"], "is a directory"),
    ("unknown GPU (sim)", ["sim", "--gpu", "gtx9999", "--trace", "ok.trace"], "unknown GPU 'gtx9999'"),
    ("unknown GPU (area)", ["area", "--gpu", "gtx9999"], "unknown GPU 'gtx9999'"),
    ("both --gpu and --config", ["sim", "--gpu", "rtx4090", "--config", "empty.toml", "--trace", "ok.trace"],
     "--gpu excludes --config"),
    ("threshold > 32 (sim)", SIM + ["--mode", "sw-s", "--threshold", "33"], "--threshold: '33' is out of range"),
    ("threshold > 32 (trace gen)", ["trace", "gen", "-q", "-o", "t33.trace", "--threshold", "33"],
     "'33' is out of range [0, 32]"),
    ("threshold > 32 (verify, as sim)", ["verify", "--trace", "ok.trace", "--threshold", "40"],
     "--threshold: '40' is out of range [0, 32]"),
    ("negative threshold", SIM + ["--threshold", "-1"], "--threshold"),
    ("--set without '='", SIM + ["--set", "sms"], "expected KEY=VALUE"),
    ("--set unknown key", SIM + ["--set", "warp_size_typo=4"], "'warp_size_typo': unknown GPU parameter"),
    ("--set non-integer value", SIM + ["--set", "sms=abc"], "'abc' is not a TOML value"),
    ("--set empty value", SIM + ["--set", "sms="], "empty value"),
    ("area --set impossible RTL value", ["area", "--set", "FTZ=7"], "FTZ=7: impossible value"),
    ("area --set unknown parameter", ["area", "--set", "Bogus=1"], "Bogus: unknown RTL parameter"),
    ("area --set without '='", ["area", "--set", "FTZ"], "expected PARAM=INTEGER"),
    ("unknown sim mode", SIM + ["--mode", "fastest"], "--mode: fastest not in"),
    ("unknown scheduler", SIM + ["--mode", "arc-hw", "--sched", "lazy"], "--sched: lazy not in"),
    ("unknown fidelity", SIM + ["--fidelity", "gate"], "--fidelity: gate not in"),
    ("generator: 0 SMs", ["trace", "gen", "-q", "-o", "x.trace", "--sms", "0"], "--sms: '0' is out of range [1, 4096]"),
    ("generator: unwritable output", ["trace", "gen", "-q", "-o", "nodir/x.trace"], "folder nodir does not exist"),
    ("missing sweep spec", ["sweep", "nosuch.toml"], "no such file"),
    ("empty sweep spec", ["sweep", "empty-spec.toml", "--dry-run"], "trace: missing"),
    ("check-adder bad --ftz", ["check-adder", "--ftz", "2"], "--ftz"),
    ("rtl-run --ready-prob 0", ["rtl-run", "--ready-prob", "0"], "--ready-prob"),
    ("missing required flag", ["sim", "--gpu", "rtx4090"], "--trace is required"),
    # issue 24: runaway counts and rates (one shared decimal range check, cosim/common/numarg)
    ("trace gen -n negative", ["trace", "gen", "-q", "-o", "x.trace", "-n", "-5"], "--instructions: '-5' is negative"),
    ("trace gen -n 20 digits", ["trace", "gen", "-q", "-o", "x.trace", "-n", "123456789012345678901"],
     "is out of range [0, 1000000000]"),
    ("trace gen -n hex", ["trace", "gen", "-q", "-o", "x.trace", "-n", "0x10"], "is not a decimal whole number"),
    ("trace gen -n 1e6", ["trace", "gen", "-q", "-o", "x.trace", "-n", "1e6"], "is not a decimal whole number"),
    ("trace gen --gap-mean negative", ["trace", "gen", "-q", "-o", "x.trace", "--gap-mean", "-1"],
     "--gap-mean: '-1' is out of range"),
    ("trace gen --gap-mean inf", ["trace", "gen", "-q", "-o", "x.trace", "--gap-mean", "inf"], "is not a decimal number"),
    ("trace gen --sigma nan", ["trace", "gen", "-q", "-o", "x.trace", "--sigma", "nan"], "--sigma: 'nan' is not a decimal"),
    ("trace gen --lane-prob 2", ["trace", "gen", "-q", "-o", "x.trace", "--lane-prob", "2"], "--lane-prob: '2' is out"),
    ("trace gen --k 0", ["trace", "gen", "-q", "-o", "x.trace", "--k", "0"], "--k: '0' is out of range [1, 32]"),
    ("trace gen --buffer-words huge", ["trace", "gen", "-q", "-o", "x.trace", "--buffer-words", "4294967296"],
     "--buffer-words: '4294967296' is out of range"),
    ("trace gen --seed negative", ["trace", "gen", "-q", "-o", "x.trace", "--seed", "-1"], "--seed: '-1' is negative"),
    ("check-adder -n -1", ["check-adder", "-n", "-1"], "--vectors: '-1' is negative"),
    ("rtl-run -n -1", ["rtl-run", "-n", "-1"], "--vectors: '-1' is negative"),
    ("rtl-run -n 20 digits", ["rtl-run", "-n", "99999999999999999999"], "is out of range"),
    ("verify --limit -1", ["verify", "--trace", "ok.trace", "--limit", "-1"], "--limit: '-1' is negative"),
    ("verify --threshold outside threshold mode", ["verify", "--trace", "ok.trace", "--threshold", "4"],
     "--threshold applies to --mode threshold only"),
    ("verify --seed outside dynamic mode", ["verify", "--trace", "ok.trace", "--mode", "never", "--seed", "3"],
     "--seed applies to --mode dynamic only"),
    ("verify --busy-prob nan", ["verify", "--trace", "ok.trace", "--busy-prob", "nan"], "--busy-prob: 'nan'"),
    ("sim --stats-interval -1", SIM + ["--stats-interval", "-1"], "--stats-interval: '-1' is negative"),
    ("sweep spec: negative instructions (dry run)", ["sweep", "neg-instr-spec.toml", "--dry-run"],
     "trace.gen.a.instructions: --instructions: '-20000' is negative"),
    ("sweep spec: negative gap_mean (dry run)", ["sweep", "neg-gap-spec.toml", "--dry-run"],
     "trace.gen.a.gap_mean: --gap-mean: '-1.0' is out of range"),
    ("sweep spec: unknown gen flag (dry run)", ["sweep", "bad-flag-spec.toml", "--dry-run"],
     "unknown arcsim trace gen flag 'instr'"),
    ("sweep spec: threshold > 32", ["sweep", "threshold-spec.toml", "--dry-run"], "threshold: threshold: '40' is out of range [0, 32]"),
    # issue 24: outputs that would destroy an input, plot failures, options that did nothing
    ("sim --wave equal to --trace", SIM + ["--fidelity", "rtl", "--mode", "arc-hw", "--wave", "ok.trace"],
     "--wave ok.trace: is also the input --trace"),
    ("verify --wave equal to --trace", ["verify", "--trace", "ok.trace", "--wave", "./ok.trace"],
     "--wave ./ok.trace: is also the input --trace"),
    ("trace info --plot equal to the trace", ["trace", "info", "ok.trace", "--plot", "ok.trace"],
     "--plot ok.trace: is also the input trace"),
    ("trace info --plot unwritable (names the user's path)", ["trace", "info", "ok.trace", "--plot", "/proc/x.png"],
     "/proc/x.png: cannot create the file"),
    ("trace strip -o unwritable (names the user's path)", ["trace", "strip", "ok.trace", "-o", "/proc/x.trace"],
     "/proc/x.trace: cannot create the file"),
    ("link rates with an empty item (--set)", ["sim", "--gpu", "h100", "--trace", "ok.trace", "--set",
                                              'icnt_gpc_bytes_per_cycle="1,,2"'], "a comma with no rate on one side"),
    ("trace info --plot, no Python", ["trace", "info", "ok.trace", "--plot", "p.png"], "ARCSIM_PYTHON",
     {"ARCSIM_PYTHON": "/nonexistent/python3"}),
    ("area --out without --sweep", ["area", "--out", "d"], "only --sweep writes files"),
    ("sim --mode listed twice", SIM + ["--mode", "baseline,baseline"], "--mode: 'baseline' is listed twice"),
    ("sim --sched listed twice", SIM + ["--mode", "arc-hw", "--sched", "never,never"], "'never' is listed twice"),
    # issue 19: the SM-side atomic buffers have no RTL; their knobs are range-checked
    ("sim lab at --fidelity rtl", SIM + ["--mode", "lab", "--fidelity", "rtl"], "mode lab has no RTL"),
    ("sim lab, no room left", SIM + ["--mode", "lab", "--set", "smem_bytes_per_sm=131072"],
     "smem_bytes_per_sm 131072 leaves no L1/shared SRAM"),
    # issue 24: one parameter registry; --set parsed by toml++ like a config file
    ("--set misspelt knob", SIM + ["--set", "rop_windo=2"], "did you mean rop_window?"),
    ("--set hex float (not TOML)", SIM + ["--set", "clock_ghz=0x1p0"], "'0x1p0' is not a TOML value"),
    ("--set leading zero (not TOML)", SIM + ["--set", "sms=010"], "'010' is not a TOML value"),
    ("--set knob out of range", SIM + ["--set", "rop_window=0"], "'rop_window': 0 is out of range"),
    ("--set nan", SIM + ["--set", "clock_ghz=nan"], "'clock_ghz': nan is out of range"),
    ("area --set model knob", ["area", "--set", "rop_window=8"], "rop_window"),
    ("config show unknown key", ["config", "show", "--set", "bogus=1"], "'bogus': unknown GPU parameter"),
    ("config show unknown GPU", ["config", "show", "--gpu", "gtx9999"], "unknown GPU 'gtx9999'"),
    ("unknown flag: config show", ["config", "show", "--bogus"], "--bogus"),
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
    # issue 16/17 review: outputs that are not regular files, options that would do nothing,
    # values that name nothing, checks that came too late
    ("trace gen -o a FIFO", ["trace", "gen", "-q", "-n", "50", "-o", "fifo"], "fifo: is not a regular file"),
    ("sim --config not a regular file", ["sim", "--config", "./fifo", "--trace", "ok.trace"],
     "./fifo: is not a regular file"),
    ("sim --vector negative", SIM + ["--vector", "-1"], "--vector: '-1' is negative"),
    ("sim --sched without arc-hw", SIM + ["--sched", "never"], "--mode has no arc-hw"),
    ("sim --host-cost without --json", SIM + ["--host-cost"], "give --json too"),
    ("sim --wave without arc-hw at the RTL level", SIM + ["--fidelity", "rtl", "--wave", "w.fst"],
     "only --mode arc-hw with --fidelity rtl"),
    ("sim --set value with a line break", SIM + ["--set", "sms=4\nsubcores_per_sm=2"], "'4\\nsubcores_per_sm=2'"),
    ("rtl-run --fst empty", ["rtl-run", "--fst", ""], "--fst: an empty value names nothing"),
    ("trace gen --pool larger than the buffer", ["trace", "gen", "-q", "-o", "x.trace", "--sharing", "pool", "--pool",
                                                 "100", "--buffer-words", "10"], "--pool 100 exceeds --buffer-words 10"),
    ("config show --gpu empty", ["config", "show", "--gpu", ""], "--gpu: an empty value names nothing"),
    ("trace gen --sm-ids empty", ["trace", "gen", "-q", "-o", "x.trace", "--sms", "1", "--sm-ids", ""],
     "--sm-ids: an empty value names nothing"),
    ("trace info --plot without an extension", ["trace", "info", "ok.trace", "--plot", "plotfile"],
     "name a .png, .pdf or .svg file"),
    ("sweep spec is a folder", ["sweep", "configdir", "--dry-run"], "is a directory"),
    ("sweep --poll not a number", ["sweep", "empty-spec.toml", "--poll", "nan"], "--poll: 'nan' is not a decimal number"),
    ("sweep --poll negative", ["sweep", "empty-spec.toml", "--poll", "-5"], "--poll: '-5' is out of range"),
    ("sweep -j negative", ["sweep", "empty-spec.toml", "-j", "-1"], "--jobs: '-1' is negative"),
    ("sweep run-point negative index", ["sweep", "run-point", "configdir", "-1"], "index: '-1' is negative"),
    ("area --set RfPort out of range", ["area", "--set", "RfPort=5"], "RfPort=5: impossible value"),
    ("area --sweep --out unwritable (before synthesis)", ["area", "--sweep", "--out", "/proc/x"],
     "--out /proc/x: cannot create the output folder"),
    ("area --cache-dir not a folder (before synthesis)", ["area", "--cache-dir", "/dev/null"],
     "--cache-dir /dev/null: cannot create the cache folder"),
    ("sweep dry run: a point's keys together", ["sweep", "coalesce6-spec.toml", "--dry-run"],
     "coalesce_bytes 6 is not 0 or a power of two"),
    ("sweep dry run: an axis value against a fixed knob", ["sweep", "queue8-spec.toml", "--dry-run"],
     "lsu_queue_depth=8): lsu_busy_slack 32 exceeds lsu_queue_depth 8"),
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


def good_cases(arcsim, d, env):
    """Inputs that must give a correct result (not an error), and an interrupted run."""
    import json
    import signal
    import time
    passed, failed, rows = 0, 0, []

    def check(name, cmd, ok, shown):
        nonlocal passed, failed
        if ok:
            passed += 1
            print(f"ok   {name}: {shown}")
        else:
            failed += 1
            print(f"FAIL {name}: arcsim {' '.join(cmd)}: {shown}")
        rows.append((name, "arcsim " + " ".join(cmd), shown, 0 if ok else 1))

    def run(cmd):
        return subprocess.run([arcsim] + cmd, cwd=d, env=env, capture_output=True, text=True, timeout=120)

    # -n 010 is decimal ten (CLI11 alone read it as octal eight).
    cmd = ["trace", "gen", "-q", "-o", "ten.trace", "-n", "010"]
    r = run(cmd)
    n = json.loads(run(["trace", "info", "ten.trace", "--json"]).stdout)["instructions"] if r.returncode == 0 else -1
    check("trace gen -n 010 is decimal", cmd, n == 10, f"result: {n} instructions (exit {r.returncode})")
    # --set takes TOML values like a config file: 1_000 is an integer.
    cmd = ["config", "show", "--gpu", "h100", "--set", "sms=1_000", "--json"]
    r = run(cmd)
    v = json.loads(r.stdout)["gpu"]["sms"] if r.returncode == 0 else None
    check("--set sms=1_000 (TOML integer)", cmd, v == 1000, f"result: sms = {v}")
    # -o through a symbolic link writes the file it names and keeps the link.
    os.symlink("linked.trace", os.path.join(d, "link.trace"))
    cmd = ["trace", "gen", "-q", "-n", "50", "-o", "link.trace"]
    r = run(cmd)
    kept = os.path.islink(os.path.join(d, "link.trace")) and os.path.isfile(os.path.join(d, "linked.trace"))
    check("trace gen -o a symbolic link", cmd, r.returncode == 0 and kept,
          f"result: exit {r.returncode}, link kept and its target written: {kept}")
    # Results that cannot be written to standard output (a full disk) are an error, not a success.
    if os.path.exists("/dev/full"):
        cmd = ["sim", "--gpu", "rtx4090", "--trace", "ok.trace", "--json"]
        with open("/dev/full", "w") as full:
            r = subprocess.run([arcsim] + cmd, cwd=d, env=env, stdout=full, stderr=subprocess.PIPE, text=True,
                               timeout=120)
        lines = r.stderr.splitlines()
        ok = r.returncode == 2 and len(lines) == 1 and "cannot write the results to standard output" in lines[0]
        check("sim --json > /dev/full", cmd, ok, f"result: exit {r.returncode}, stderr {lines}")
    # An interrupted trace gen leaves neither the final file nor a temporary one.
    cmd = ["trace", "gen", "-q", "-o", "killed.trace", "-n", "100000000"]
    p = subprocess.Popen([arcsim] + cmd, cwd=d, env=env, stderr=subprocess.DEVNULL)
    for _ in range(100):  # until its temporary file exists (generation under way)
        if any(f.startswith("killed.tmp") for f in os.listdir(d)):
            break
        time.sleep(0.05)
    p.send_signal(signal.SIGTERM)
    p.wait(timeout=60)
    left = sorted(f for f in os.listdir(d) if f.startswith("killed"))
    check("trace gen interrupted (SIGTERM)", cmd, p.returncode == -signal.SIGTERM and not left,
          f"result: killed by signal {-p.returncode}, files left: {left or 'none'}")
    # An interrupted sweep leaves no scratch files in points/ (its children's output).
    with open(os.path.join(d, "int-spec.toml"), "w") as f:
        f.write('gpu = "h100"\n[axes]\nrop_units = [1, 2, 3, 4, 5, 6, 7, 8]\n'
                '[trace.gen.a]\ninstructions = 3000\nsms = 8\n')
    cmd = ["sweep", "int-spec.toml", "--out", "int-sweep", "-j", "2"]
    p = subprocess.Popen([arcsim] + cmd, cwd=d, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    points = os.path.join(d, "int-sweep", "points")
    for _ in range(400):  # until a point is running (its scratch output exists)
        if os.path.isdir(points) and any(f.startswith(".") for f in os.listdir(points)):
            break
        time.sleep(0.025)
    p.send_signal(signal.SIGTERM)
    p.wait(timeout=60)
    time.sleep(0.5)
    stray = sorted(f for f in os.listdir(points) if f.startswith(".") or ".tmp" in f) if os.path.isdir(points) else []
    check("sweep interrupted (SIGTERM)", cmd, p.returncode == -signal.SIGTERM and not stray,
          f"result: killed by signal {-p.returncode}, scratch files left in points/: {stray or 'none'}")
    return passed, failed, rows


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
        for name, args, fragment, *extra in CASES:
            case_env = dict(env, **extra[0]) if extra else env
            r = subprocess.run([arcsim] + args, cwd=d, env=case_env, capture_output=True, text=True, timeout=120)
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
            root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")) + "/"
            rows.append((name, "arcsim " + " ".join(args), msg.replace(d + "/", "").replace(root, ""), r.returncode))
        p, f, more = good_cases(arcsim, d, env)
        passed, failed, rows = passed + p, failed + f, rows + more
    if markdown:
        print("\n| case | command | message (stderr) | exit code |\n| --- | --- | --- | --- |")
        for name, cmd, msg, rc in rows:
            cmd, msg = cmd.replace("\n", "\\n"), msg.replace("\n", "\\n")  # a row stays one line
            print(f"| {name} | `{cmd}` | `{msg}` | {rc} |")
    print(f"badinput: {passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
