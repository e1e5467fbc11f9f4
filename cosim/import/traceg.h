// A reader for Accel-Sim's per-kernel SASS traces (`.traceg`, written by the NVBit tracer in
// util/tracer_nvbit and grouped per thread block by its post-traces-processing step) and for
// the `kernelslist.g` that lists them. Our own code, written from the format as Accel-Sim's
// tracer prints it; README.md here describes the format and what we accept.
//
// The reader streams: it calls a Visitor once per kernel header, thread block, warp and SASS
// instruction, so memory stays bounded by one line. Any malformed input throws arc::Error
// with one line "FILE:LINE: what".
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace arc::import {

constexpr int kWarpSize = 32;

// The "-key = value" lines before the first thread block.
struct KernelInfo {
  std::string file;                      // the .traceg path
  std::string name;                      // "-kernel name"
  int id = 0;                            // "-kernel id"
  std::array<uint32_t, 3> grid{}, block{};
  bool have_grid = false, have_block = false;
  int tracer_version = 0;                // "-accelsim tracer version"; 0 when absent (old traces)
  std::string nvbit_version;
  int binary_version = 0;                // e.g. 90 for sm_90
  uint64_t shmem_base = 0, local_base = 0;
  uint32_t warps_per_block() const { return (block[0] * block[1] * block[2] + kWarpSize - 1) / kWarpSize; }
};

// Address forms of a memory instruction (the tracer's `address_format`).
enum class AddrForm : uint8_t { List = 0, BaseStride = 1, BaseDelta = 2 };

// One SASS instruction line of a warp. addr[l] is meaningful for active lanes of a memory
// instruction only.
struct SassInstr {
  size_t line = 0;
  uint32_t pc = 0;
  uint32_t mask = 0;            // active & predicate mask
  std::string opcode;           // e.g. "RED.E.ADD.F32.FTZ.RN.STRONG.GPU"
  uint32_t mem_width = 0;       // bytes as printed; 0 = not a memory instruction
  AddrForm form = AddrForm::List;
  std::array<uint64_t, kWarpSize> addr{};
};

class Visitor {
 public:
  virtual ~Visitor() = default;
  virtual void kernel(const KernelInfo& k) = 0;                    // before the kernel's first block
  virtual void block(uint32_t x, uint32_t y, uint32_t z) = 0;      // "thread block = x,y,z"
  virtual void warp(uint32_t warp_in_block, uint64_t insts) = 0;   // "warp = N" + "insts = M"
  virtual void instr(const SassInstr& in) = 0;
  virtual void end_kernel() = 0;
};

// Reads one .traceg file. Throws arc::Error "FILE:LINE: what" on: a missing file, an unknown
// line, an opcode that is not SASS syntax, a warp with fewer or more instruction lines than
// its "insts =" count, a thread block without #END_TB, a mask whose active-lane count differs
// from the number of addresses, an unknown address form.
void read_traceg(const std::string& path, Visitor& v);

// The .traceg files an input names, in order: a .traceg file itself; a kernelslist(.g) file
// (its "kernel-N.traceg" lines, relative to its folder; Memcpy lines are counted in
// *memcpy_lines and skipped); a folder holding kernelslist.g.
std::vector<std::string> resolve_inputs(const std::string& dir_or_file, uint64_t* memcpy_lines = nullptr);

}  // namespace arc::import
