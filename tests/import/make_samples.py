#!/usr/bin/env python3
"""Writes the Accel-Sim .traceg samples of tests/import (data/ and bad/), in the format Accel-Sim's
NVBit tracer prints (util/tracer_nvbit/tracer_tool) after its post-traces-processing step:

  PC mask dest_num [Rd] opcode src_num [Rs...] mem_width [form addresses]
  form 0: one hex address per active lane; 1: hex base + decimal stride (contiguous lanes);
  2: hex base + one decimal delta per further active lane (from the previous active lane).

The files are committed; this script documents how they were made and rewrites them:
  python3 tests/import/make_samples.py
"""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
BUF = 0x7F1200000000     # the gradient buffer's byte address in the samples
SHM = 0x7F2000000000     # shared window base (kernel 2)
LOC = 0x7F2001000000     # local window base (kernel 2)


def header(name, kid, grid, block, shm=0, loc=0, version=3):
    return (f"-kernel name = {name}\n-kernel id = {kid}\n-grid dim = ({grid[0]},{grid[1]},{grid[2]})\n"
            f"-block dim = ({block[0]},{block[1]},{block[2]})\n-shmem = 0\n-nregs = 24\n-binary version = 90\n"
            f"-cuda stream id = 0\n-shmem base_addr = 0x{shm:016x}\n-local mem base_addr = 0x{loc:016x}\n"
            f"-nvbit version = 1.7.1\n-accelsim tracer version = {version}\n\n"
            "#traces format = threadblock_x threadblock_y threadblock_z warpid_tb PC mask dest_num [reg_dests] "
            "opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses]\n\n")


def lanes(mask):
    return [l for l in range(32) if mask >> l & 1]


def mem(pc, mask, op, addrs, dst=None, srcs=("R2", "R5"), width=4, form=0):
    """One memory instruction line; addrs: per active lane, in lane order."""
    d = f"1 {dst}" if dst else "0"
    s = f"{len(srcs)} " + " ".join(srcs)
    if form == 0:
        a = "0 " + " ".join(f"0x{x:016x}" for x in addrs)
    elif form == 1:
        stride = addrs[1] - addrs[0] if len(addrs) > 1 else 0
        assert all(addrs[i] - addrs[i - 1] == stride for i in range(1, len(addrs)))
        a = f"1 0x{addrs[0]:x} {stride}"
    else:
        a = f"2 0x{addrs[0]:x} " + " ".join(str(addrs[i] - addrs[i - 1]) for i in range(1, len(addrs)))
    return f"{pc:04x} {mask:08x} {d} {op} {s} {width} {a}".rstrip() + "\n"


def alu(pc, mask, op, dst="R4", srcs=("R4",)):
    d = f"1 {dst}" if dst else "0"
    return " ".join([f"{pc:04x} {mask:08x} {d} {op} {len(srcs)}", *srcs, "0"]) + "\n"


def block(x, warps):
    out = f"\n#BEGIN_TB\n\nthread block = {x},0,0\n"
    for w, insts in enumerate(warps):
        out += f"\nwarp = {w}\ninsts = {len(insts)}\n" + "".join(insts)
    return out + "\n#END_TB\n"


RED = "RED.E.ADD.F32.FTZ.RN.STRONG.GPU"
FULL = 0xFFFFFFFF


def scatter_warp(tb, w, form):
    """A backward pass: load, some math, four float reductions with different sharing."""
    g = tb * 2 + w
    out = [alu(0x0, FULL, "S2R", "R0", ()), alu(0x10, FULL, "IMAD.MOV.U32", "R2", ("R0",)),
           mem(0x20, FULL, "LDG.E", [0x7F0000100000 + 4 * (32 * g + l) for l in range(32)], "R4", ("R2",), form=form and 1),
           alu(0x30, FULL, "FMUL", "R5", ("R4", "R4"))]
    # 1: all lanes one word (stride 0)
    out.append(mem(0x40, FULL, RED, [BUF + 4 * g] * 32, form=form and 1))
    out += [alu(0x50, FULL, "FFMA", "R5", ("R5", "R4", "R5")), alu(0x60, FULL, "FADD", "R5", ("R5", "R4"))]
    # 2: consecutive words (stride 4), lanes 0..15 only
    out.append(mem(0x70, 0x0000FFFF, RED, [BUF + 256 + 4 * (16 * g + l) for l in range(16)], form=form and 1))
    out.append(alu(0x80, FULL, "FMUL", "R6", ("R5", "R4")))
    # 3: four groups of eight lanes (deltas 0 inside a group)
    out.append(mem(0x90, FULL, RED, [BUF + 1024 + 4 * (8 * g + l // 8) for l in range(32)], form=form and 2))
    # 4: scattered lanes, odd lanes active
    odd = 0xAAAAAAAA
    out.append(mem(0xA0, odd, RED, [BUF + 2048 + 4 * ((37 * l + g) % 200) for l in lanes(odd)], form=form and 2))
    out.append(alu(0xB0, FULL, "EXIT", None, ()))
    return out


def plain_and_compressed():
    name = "_Z12scatter_gradPKfPf"
    plain = header(name, 1, (4, 1, 1), (64, 1, 1)) + "".join(
        block(tb, [scatter_warp(tb, w, 0) for w in range(2)]) for tb in range(4))
    comp = header(name, 1, (4, 1, 1), (64, 1, 1)) + "".join(
        block(tb, [scatter_warp(tb, w, 1) for w in range(2)]) for tb in range(4))
    return plain, comp


def mixed_warp(tb):
    g = tb
    sh = [SHM + 4 * l for l in range(32)]
    return [alu(0x0, FULL, "S2R", "R0", ()),
            alu(0x8, FULL, "BAR.SYNC.DEFER_BLOCKING", None, ()),
            mem(0x10, FULL, "ATOMS.ADD", sh, "R3", ("R2", "R5"), form=1),                       # shared int add
            mem(0x20, 0x0000000F, "RED.E.ADD.STRONG.GPU", [0x7F0000200000] * 4, form=1),       # global u32 add
            mem(0x30, 0x00000001, "ATOMG.E.CAS.64.STRONG.GPU", [0x7F0000200100], "R8",
                ("R2", "R6", "R7"), width=8, form=2),                                            # 64-bit CAS
            mem(0x40, FULL, "RED.E.ADD.F16x2.RN.STRONG.GPU", [BUF + 4096 + 4 * l for l in range(32)], form=1),
            alu(0x50, FULL, "FADD", "R5", ("R5", "R4")),
            mem(0x60, 0x000000FF, "REDG.E.ADD.F32x2.FTZ.RN.STRONG.GPU",
                [BUF + 3072 + 8 * (l // 2) for l in range(8)], form=2),                          # vector x2
            mem(0x70, 0x0000000F, "REDG.E.ADD.F32x4.FTZ.RN.STRONG.GPU", [BUF + 3200 + 16 * g] * 4, form=1),
            mem(0x80, FULL, "ATOMG.E.ADD.F32.FTZ.RN.STRONG.GPU", [BUF + 4 * (l % 3) for l in range(32)], "R9", form=2),
            mem(0x90, FULL, "ATOM.E.ADD.F32.FTZ.RN.STRONG.GPU", [SHM + 0x100] * 32, "R10", form=1),  # shared window
            f"00a0 00000000 0 {RED} 2 R2 R5 4 1 0x0 0\n",                                      # predicated off
            alu(0xB0, FULL, "EXIT", None, ())]


def mixed():
    return header("_Z5mixedPfPiPy", 2, (2, 1, 1), (32, 1, 1), SHM, LOC) + "".join(
        block(tb, [mixed_warp(tb)]) for tb in range(2))


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def bad_samples(plain):
    """Broken variants: (file name, text)."""
    small = header("_Z3badPf", 1, (1, 1, 1), (32, 1, 1))
    ok_red = mem(0x40, 0x3, RED, [BUF, BUF + 4], form=0)
    one = lambda insts: small + block(0, [insts])
    cases = {
        "bad-opcode.traceg": one([ok_red, "0050 00000003 0 red.add.f32 2 R2 R5 4 0 0x7f1200000000 0x7f1200000004\n"]),
        "truncated-warp.traceg": small + "\n#BEGIN_TB\n\nthread block = 0,0,0\n\nwarp = 0\ninsts = 5\n" + ok_red * 3
        + "\n#END_TB\n",
        "truncated-file.traceg": small + "\n#BEGIN_TB\n\nthread block = 0,0,0\n\nwarp = 0\ninsts = 4\n" + ok_red * 2,
        "mask-mismatch.traceg": one([mem(0x40, 0xFF, RED, [BUF + 4 * l for l in range(8)], form=0)
                                     .replace(f" 0x{BUF + 28:016x}", "")]),
        "delta-mismatch.traceg": one([mem(0x40, 0xF, RED, [BUF, BUF, BUF + 4, BUF + 8], form=2) .rstrip("\n")
                                      + " 4\n"]),
        "stride-gap.traceg": one(["0040 00000f0f 0 " + RED + " 2 R2 R5 4 1 0x7f1200000000 4\n"]),
        "unaligned.traceg": one([mem(0x40, 0x3, RED, [BUF + 2, BUF + 6], form=0)]),
        "address-form.traceg": one(["0040 00000003 0 " + RED + " 2 R2 R5 4 5 0x7f1200000000 4\n"]),
        "bad-mask.traceg": one(["0040 1ffffffff 0 " + RED + " 2 R2 R5 4 1 0x7f1200000000 4\n"]),
        "no-atomics.traceg": one([alu(0x0, FULL, "FADD"), mem(0x10, 0x1, "RED.E.ADD.STRONG.GPU", [BUF], form=0)]),
        "span.traceg": one([mem(0x40, 0x3, RED, [BUF, BUF + (1 << 36)], form=2)]),
        "not-traceg.traceg": "hello, not a trace\n",
        "raw-list/kernelslist": "kernel-1.trace\n",
    }
    return cases


def main():
    plain, comp = plain_and_compressed()
    write(os.path.join(HERE, "data", "scatter-plain.traceg"), plain)
    write(os.path.join(HERE, "data", "app", "kernel-1.traceg"), comp)
    write(os.path.join(HERE, "data", "app", "kernel-2.traceg"), mixed())
    write(os.path.join(HERE, "data", "app", "kernelslist.g"),
          "MemcpyHtoD,0x00007f0000100000,1024\nkernel-1.traceg\nMemcpyHtoD,0x00007f0000200000,512\nkernel-2.traceg\n")
    for name, text in bad_samples(plain).items():
        write(os.path.join(HERE, "bad", name), text)


if __name__ == "__main__":
    main()
