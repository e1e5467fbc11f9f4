// Accel-Sim .traceg -> ARCsim warp-atomic trace (timing only). The rules, stated once here and
// recorded in every output header's metadata (README.md here has the long form):
//  - kept: global float32 add reductions (atomic_op.h), with at least one active lane;
//  - other atomics are counted per kind (name.operation.type) and reported, never written;
//  - gaps (header gap_unit = instructions): the SASS instructions a warp (SM, warp id) issued since its
//    previous kept atomic (from the warp's start for the first), one issue slot each;
//  - warps: thread block t of a kernel (in file order) runs on SM t % sms; its warp w gets the
//    global, block-linear warp id t * warps_per_block + w (FORMAT.md: with threads_per_block set,
//    warp / warps_per_block is the block) on sub-core k % subcores, k = (t / sms) *
//    warps_per_block + w its slot on the SM. Kernels of a kernelslist run back to back on equal
//    (SM, warp id), with no grid-wide barrier between them;
//  - addresses: word = (byte address - lowest kept byte address) / 4; every kept lane address
//    must be 4-byte aligned (vector forms: 8 / 16) and the span must fit the word index;
//  - vector forms (F32x2, F32x4): one trace call of 2 or 4 params (format v2: nparams, stride 1
//    word), component c at word + c; param 0 carries the gap;
//  - the trace is timing only (header.timing_only): no lane values, no final buffer.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace arc::import {

struct ImportOptions {
  std::string input;                         // a .traceg, a kernelslist(.g), or a folder with kernelslist.g
  uint32_t sms = 132;                        // SMs the thread blocks are spread over
  uint32_t subcores = 4;                     // sub-cores per SM
  int kernel_id = 0;                         // import only the kernel with this "-kernel id" (0: all)
  uint64_t max_buffer_words = 1ull << 28;    // largest gradient buffer the import may create
};

struct OtherAtomic {
  uint64_t instructions = 0, lane_ops = 0;
};

struct ImportSummary {
  std::vector<std::string> files;            // .traceg files read
  std::vector<std::string> kernels;          // "id name" of the kernels imported
  uint64_t memcpy_lines = 0;                 // MemcpyHtoD lines of the kernelslist (skipped)
  uint64_t thread_blocks = 0, warps = 0, sass_instructions = 0;
  uint64_t kept_instructions = 0;            // SASS float atomic adds kept
  uint64_t kept_by_width[3] = {0, 0, 0};     // F32, F32x2, F32x4
  uint64_t records = 0, lane_updates = 0;    // written (vector forms split)
  uint64_t zero_mask = 0;                    // float atomic adds with no active lane (skipped)
  uint64_t shared_window = 0;                // generic ATOM float adds into the shared window (counted as other)
  uint64_t clamped_gaps = 0;
  uint64_t max_barriers = 0;                 // most BAR (sync) instructions one warp executed
  std::map<std::string, OtherAtomic> other;  // other atomics by kind
  uint64_t base_address = 0, buffer_words = 0;
  uint64_t bytes = 0;                        // output file size
};

// Reads the input twice (pass 1: counts, address range and every check; pass 2: writes), so
// memory does not grow with the trace. Throws arc::Error on bad input ("FILE:LINE: what"), on
// no kept atomic, or on an address range that does not fit.
ImportSummary import_accelsim(const ImportOptions& opt, const std::string& out_path);

}  // namespace arc::import
