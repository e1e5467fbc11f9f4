"""results/paper-eval/README.md, written by scripts/paper_eval_report.py from its analysis. The
only numbers typed in here are the ARC paper's own (PAPER, section 7); everything else is
formatted from the runs."""
import math
import os

GPU_LABEL = {"rtx4090": "4090-Sim", "rtx3060": "3060-Sim", "h100": "H100 config"}
# The paper's headline averages (papers/arc-asplos25.md, section 7.1 and 7.2 "Comparing ARC-SW
# to ARC-HW"): (4090-Sim, 3060-Sim).
PAPER = [
    ("ARC-HW speedup over Baseline", "arc-hw", (2.06, 1.73)),
    ("ARC-HW, threshold scheduler at its best T", "arc-hw-threshold", (None, None)),
    ("ARC-SW speedup over Baseline (best of SW-S, SW-B; simulated)", "arc-sw", (None, None)),
    ("LAB-ideal speedup over Baseline", "lab-ideal", (1.40, 1.20)),
    ("LAB speedup over Baseline", "lab", (None, None)),
    ("LAB-ideal over LAB", "lab-ideal/lab", (1.05, 1.05)),
    ("PHI speedup over Baseline", "phi", (1.01, 1.03)),
    ("ARC-HW over ARC-SW (best of SW-S, SW-B)", "arc-hw/arc-sw", (1.13, 1.14)),
    ("ARC-HW atomic-stall reduction", "arc-hw stalls", (2.43, 2.28)),
    ("LAB-ideal atomic-stall reduction", "lab-ideal stalls", (1.43, 1.19)),
]
METHODS = [("sw-s", "SW-S (best X)"), ("sw-b", "SW-B (best X)"), ("arc-hw", "ARC-HW dynamic"),
           ("arc-hw-threshold", "ARC-HW threshold (best T)"), ("lab", "LAB (best partition)"),
           ("lab-ideal", "LAB-ideal"), ("phi", "PHI")]


def f2(x, suffix="x"):
    return "-" if x is None else f"{x:.2f}{suffix}"


def headline(avg):
    gpus = [g for g in ("rtx4090", "rtx3060", "h100") if g in avg]
    head = "| quantity (geometric mean over workloads) | " + " | ".join(
        f"ours {GPU_LABEL[g]}" for g in gpus) + " | paper 4090-Sim | paper 3060-Sim |"
    rows = [head, "|" + " --- |" * (len(gpus) + 3)]
    for name, key, (p4, p3) in PAPER:
        rows.append(f"| {name} | " + " | ".join(f2(avg[g].get(key)) for g in gpus) + f" | {f2(p4)} | {f2(p3)} |")
    return "\n".join(rows)


def per_gpu(details):
    out = []
    for gpu, wls in details.items():
        out.append(f"\n### {GPU_LABEL[gpu]} (`--gpu {gpu}`)\n")
        out.append("| workload | baseline cycles | " + " | ".join(n for _, n in METHODS) +
                   " | ARC-HW / ARC-SW | LAB-ideal / LAB |")
        out.append("|" + " --- |" * (len(METHODS) + 4))
        for wl in sorted(wls):
            d = wls[wl]
            M = d["methods"]
            cells = []
            for key, _ in METHODS:
                m = M.get(key)
                if not m:
                    cells.append("-")
                    continue
                extra = f" (X={m['threshold']})" if "threshold" in m else (
                    f" ({m['partition_pct']}%)" if "partition_pct" in m else "")
                cells.append(f"{m['speedup']:.2f}x{extra}")
            out.append(f"| {wl} | {d['baseline_cycles']:,} | " + " | ".join(cells) +
                       f" | {f2(d.get('arc_hw_over_arc_sw'))} | {f2(d.get('lab_ideal_over_lab'))} |")
        out.append("\nAtomic-stall reduction (Baseline's stall cycles / the method's):\n")
        out.append("| workload | ARC-HW dynamic | LAB | LAB-ideal | PHI | SW-S | SW-B |")
        out.append("| --- | --- | --- | --- | --- | --- | --- |")
        for wl in sorted(wls):
            M = wls[wl]["methods"]
            out.append(f"| {wl} | " + " | ".join(
                f2(M.get(k, {}).get("stall_reduction")) for k in ("arc-hw", "lab", "lab-ideal", "phi", "sw-s", "sw-b"))
                       + " |")
    return "\n".join(out)


def rop_table(details):
    out = ["| GPU | workload | ROP units x | Baseline vs config's | SW-B (X=8) | ARC-HW dynamic | LAB-ideal |",
           "| --- | --- | --- | --- | --- | --- | --- |"]
    for gpu, wls in details.items():
        for wl in sorted(wls):
            d = wls[wl]
            for f in ("0.5", "2"):
                r = d["rop"].get(f)
                if not r:
                    continue
                out.append(f"| {GPU_LABEL[gpu]} | {wl} | {f} | {f2(r['baseline_vs_default'])} | {f2(r.get('sw-b'))} | "
                           f"{f2(r.get('arc-hw/dynamic'))} | {f2(r.get('lab-ideal'))} |")
    return "\n".join(out)


def h100_table(details, scenes, meas):
    if "h100" not in details:
        return "(no h100 runs)"
    out = ["| workload | trace scene | method | ARCsim (H100 config, best X) | H100 measured, same scene | "
           "H100 measured, 1920x1080 |", "| --- | --- | --- | --- | --- | --- |"]
    for wl in sorted(details["h100"]):
        M = details["h100"][wl]["methods"]
        bw = {"gs": "gs-il"}.get(wl, wl)
        for m in ("sw-s", "sw-b"):
            sim = M.get(m)
            same = meas.get((bw, m, scenes.get(wl)))
            full = meas.get((bw, m, "1920x1080"))
            out.append(f"| {wl} | {scenes.get(wl, '?')} | {m} | "
                       f"{f2(sim['speedup']) + ' (X=' + str(sim['threshold']) + ')' if sim else '-'} | "
                       f"{f2(same[0]) + ' (X=' + str(same[1]) + ')' if same else 'not measured at this size'} | "
                       f"{f2(full[0]) + ' (X=' + str(full[1]) + ')' if full else '-'} |")
    return "\n".join(out)


def flat_workloads(details):
    """Workloads on which no method moves the 4090-Sim (or first config's) run by more than 5%."""
    gpu = "rtx4090" if "rtx4090" in details else next(iter(details))
    out = []
    for wl, d in sorted(details[gpu].items()):
        sp = [m["speedup"] for m in d["methods"].values() if "speedup" in m]
        if sp and max(abs(x - 1) for x in sp) < 0.05:
            out.append(f"{wl} (every method {min(sp):.2f}x-{max(sp):.2f}x on {GPU_LABEL[gpu]})")
    return out


def slower(details):
    """Why a method is slower than Baseline on a workload (4090-Sim, or the first config)."""
    gpu = "rtx4090" if "rtx4090" in details else next(iter(details))
    out = []
    for wl, d in sorted(details[gpu].items()):
        M = d["methods"]
        why = []
        hw = M.get("arc-hw")
        if hw and hw["speedup"] < 0.95:
            why.append(f"ARC-HW dynamic {hw['speedup']:.2f}x sends {hw['requests_vs_baseline']:.2f}x Baseline's "
                       f"requests to L2 (Baseline: {d['baseline_requests_per_instr']:.1f} per warp instruction): each "
                       f"reduced group's sum leaves as a request of its own (its lanes' words no longer share a "
                       f"line request with the instruction's other lanes), and the ARC unit emits one transaction "
                       f"per cycle")
        r = M.get("lab-ideal")
        if r and r["speedup"] < 0.95 and "buffer_cycles_per_instr" in r:
            why.append(f"LAB-ideal {r['speedup']:.2f}x: {100 * r['buffer_miss_rate']:.0f}% of its lookups miss, and "
                       f"every missed word leaves (evicted or flushed) as a request of its own: "
                       f"{r['requests_vs_baseline']:.2f}x Baseline's requests, which coalesce per line "
                       f"({r['buffer_cycles_per_instr']:.1f} buffer cycles per warp instruction besides)")
        r = M.get("phi")
        if r and r["speedup"] < 0.95 and "buffer_cycles_per_instr" in r:
            why.append(f"PHI {r['speedup']:.2f}x sends only {r['requests_vs_baseline']:.2f}x Baseline's requests "
                       f"(line-coalesced evictions) but spends {r['buffer_cycles_per_instr']:.1f} cycles per warp "
                       f"instruction on its one-lookup-per-lane L1 path, one instruction at a time per SM")
        if why:
            out.append(f"  {wl}: " + "; ".join(why) + ".")
    if not out:
        return ""
    return (f"- **Where a method is slower than Baseline** ({GPU_LABEL[gpu]}):\n" + "\n".join(out) + "\n")


def sw_vs_hw(configs, details):
    """SW-B's issue cycles for a 9-parameter 3DGS call vs the ARC unit's adder cycles for it, and
    how ARC-HW then compares with ARC-SW on the runs themselves (each comparison from the data)."""
    gpu = "rtx4090" if "rtx4090" in configs else next(iter(configs), None)
    c = configs.get(gpu) if gpu else None
    if not c:
        return ""
    ovh, per = c["gpu"]["sw_overhead"], c["model"]["swb_cycles_per_param"] or c["gpu"]["sw_overhead"]
    swb = ovh + 8 * per
    params, lanes, stages = 9, 32, 1  # a 3DGS call; a uniform warp; the RTL's default Stages
    adder = params * (1 + (lanes - 1) * stages)

    def versus(wl):
        """ARC-HW against ARC-SW (the faster of SW-S and SW-B on that workload), named."""
        M = details.get(gpu, {}).get(wl, {}).get("methods", {})
        hw, sw = M.get("arc-hw", {}).get("speedup"), M.get("arc-sw", {}).get("speedup")
        if not hw or not sw:
            return None
        label = next((n for k, n in (("sw-b", "SW-B"), ("sw-s", "SW-S")) if M.get(k, {}).get("speedup") == sw), "ARC-SW")
        r = hw / sw
        verdict = "about even" if abs(r - 1) < 0.05 else ("ARC-HW ahead" if r > 1 else "ARC-HW behind")
        return f"{wl}: ARC-HW {hw:.2f}x vs {label} {sw:.2f}x, {verdict}"

    runs = [v for v in (versus(wl) for wl in sorted(details.get(gpu, {}))) if v]
    ratios_ = [d["arc_hw_over_arc_sw"] for d in details.get(gpu, {}).values() if d.get("arc_hw_over_arc_sw")]
    mean = math.prod(ratios_) ** (1 / len(ratios_)) if ratios_ else None  # geometric, as the averages
    text = (f"For a uniform warp of {lanes} lanes and a {params}-parameter 3DGS call, SW-B is charged sw_overhead + 8 x "
            f"swb_cycles_per_param = {ovh} + 8 x {per} = {swb} issue cycles, while the ARC unit's adder (the RTL's "
            f"timing: 1 + (n - 1) x Stages cycles per group of n lanes, Stages = {stages}) takes {params} x "
            f"{1 + (lanes - 1) * stages} = {adder} cycles: ARC-HW saves the instructions but has one serial FP adder "
            f"per sub-core")
    if runs:
        text += f" ({GPU_LABEL[gpu]}: " + "; ".join(runs) + ")"
    text += (". Its pass-through lanes leave as one packet per instruction, coalesced per line by the LSU as the "
             "paper's design has it (knob arc_pass_coalesce).")
    if mean is not None and mean < 1.13:
        text += (" The paper's 1.13x needs an ARC-SW that costs more per call in GPGPU-Sim than the H100 "
                 "measured, or a faster reduction unit.")
    return text


def ratios(details, key):
    gpu = "rtx4090" if "rtx4090" in details else next(iter(details))
    return ", ".join(f"{wl} {d[key]:.2f}x" for wl, d in sorted(details[gpu].items()) if d.get(key)) + \
        f" on {GPU_LABEL[gpu]}"


def write_readme(out, details, avg, traces, scenes, meas, plots, configs):
    a4, a3 = avg.get("rtx4090", {}), avg.get("rtx3060", {})
    flat = flat_workloads(details)
    txt = f"""# The ARC paper's evaluation on ARCsim (issue 19)

Generated by `scripts/paper_eval.sh` (simulations: `scripts/paper_eval.py`, this report and the
plots: `scripts/paper_eval_report.py`); raw `arcsim sim --json` output in `raw/`, every derived
number in `details.json`, the speedups in `summary.json`
(`{{"<gpu>": {{"<workload>": {{"<method>": speedup}}}}}}`; `arc-hw` is the dynamic scheduler, the
paper's design; `arc-hw-threshold` the best fixed T; `arc-sw` the better of SW-S and SW-B).

Traces (the top of `scripts/paper_eval.sh` names them; a missing one is skipped):
""" + "\n".join(f"- {wl}: `{p}` (scene {scenes.get(wl, '?')})" for wl, p in sorted(traces.items())) + \
        ("\n- tex: **skipped**, no trace at the path `scripts/paper_eval.sh` names" if "tex" not in traces else "") + f"""

What the runs are: per GPU config x workload, Baseline; ARC-SW SW-S and SW-B and ARC-HW with the
threshold scheduler at balancing threshold X in 2, 4, 8, 16, 24 (the best X / T is taken, as
the paper does); ARC-HW with the dynamic scheduler; LAB at 25/50/100% of the free L1/shared SRAM
(the best partition is taken, as the paper does); LAB-ideal; PHI; and Baseline, SW-B (X=8), ARC-HW
dynamic and LAB-ideal with half and twice the config's ROP units. The workload's shared memory
per SM (`smem_bytes_per_sm`, what LAB and PHI cannot use) is set per workload from our own CUDA
kernels (`scripts/paper_eval.py`, SMEM_PER_BLOCK). Speedup = Baseline's total cycles / the method's
(the gradient step: the traces hold the backward kernel only). Averages are geometric means.

## Headline numbers beside the paper's

{headline(avg)}

The paper's numbers are averages over 14 datasets of 3DGS, NvDiffRec and Pulsar at full size in
GPGPU-Sim; ours are over {len(traces)} real H100 captures of our own scenes on ARCsim's model. The LAB row has
no paper average (only LAB-ideal / LAB); the paper's ARC-SW averages (2.44x / 1.74x) are
measured on the real 4090 / 3060, not simulated, so they are not set beside these.

## Per GPU and workload
{per_gpu(details)}

## Sensitivity to the ROP unit count

Speedups over a Baseline with the same ROP count (Baseline vs config's: how much Baseline itself
gains or loses). Plot: `rop_units.png`.

{rop_table(details)}

## The H100 config: ARC-SW beside the measured H100

{h100_table(details, scenes, meas)}

Measured (median of 20 each): `tests/data/gs-il-floor-h100.bench.json` (the gs trace's own
480x270 scene), `tests/data/paper/pulsar.bench.json` (the pulsar trace's 960x540 scene) and
`results/h100/validation/full/bench/bench.json` (1920x1080, the tex trace's scene). Pulsar's
warps are not uniform, so the benchmark runs no SW-B on it ("not measured"); the validated
model's 1080p agreement is in `docs/calibration.md`.

## Why ours differ from the paper's

- **Scenes.** Our traces are H100 captures of our own procedural benchmark scenes (sizes above),
  not the paper's datasets; a small scene leaves SMs idle and makes the end-of-run flush of
  LAB/PHI and the tail a larger share of the run. """ + ("Atomics barely limit " + "; ".join(flat) + ", so it pulls every average towards 1.00x; "
              "the averages over the other workloads alone are in the per-workload tables." if flat else "") + f"""
- **ARC-HW vs LAB-ideal**: the throughput argument the paper makes is what the model does: a
  LAB/PHI buffer serves one warp instruction at a time per SM and a warp whose lanes hit one
  word takes one cycle per lane in the SRAM bank, while ARC-HW reduces in each of the 4 sub-cores
  (4090-Sim: ARC-HW {f2(a4.get('arc-hw'))} vs LAB-ideal {f2(a4.get('lab-ideal'))}; paper 2.06x vs 1.40x).
- **LAB vs LAB-ideal** ({f2(a4.get('lab-ideal/lab'))} on 4090-Sim, paper 1.05x): our LAB pays a
  tag cycle per instruction, its evictions and a smaller buffer, but the traces have no
  non-atomic loads, so the higher L1 miss rate the paper also counts is absent.
- **PHI** ({f2(a4.get('phi'))} / {f2(a3.get('phi'))}, paper 1.01x / 1.03x): our PHI is priced by
  its per-lane L1 lookups (1 cycle each, `phi_lookup_cycles`), which for warps whose lanes share
  a word costs what LAB's bank serialization costs. The paper's PHI loses its gain to LSU and L1
  contention with the non-atomic accesses (its section 7.1), which traces of atomics alone cannot
  show; raising `phi_lookup_cycles` models a slower L1 path.
- **ARC-HW over ARC-SW** ({f2(a4.get('arc-hw/arc-sw'))} / {f2(a3.get('arc-hw/arc-sw'))}, paper 1.13x /
  1.14x; per workload {ratios(details, 'arc_hw_over_arc_sw')}): ARC-SW is charged the H100-calibrated issue cycles (cosim/configs/rtx*.toml says why
  they carry over); the paper's ARC-SW ran its SASS in GPGPU-Sim. {sw_vs_hw(configs, details)}
{slower(details)}- **Atomic stalls** grow (a reduction below 1.00x) where a method puts more work between the
  sub-core and L2 than Baseline's coalesced requests: the cases in the item above.
- **The memory path** of 4090-Sim/3060-Sim is Table 1's shape with GPGPU-Sim's structure and
  ARCsim assumptions where neither gives a number (the toml files mark each); the paper's
  GPGPU-Sim also models DRAM, L2 misses and the forward of non-atomic traffic, which the
  atomic-only traces here leave out.

## Plots

""" + "\n".join(f"- `{p}`" for p in plots) + "\n"
    with open(os.path.join(out, "README.md"), "w") as f:
        f.write(txt)
