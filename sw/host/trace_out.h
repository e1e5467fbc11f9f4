// Turns the GPU's raw capture records (arc::DevInstr) into the project's trace format
// (cosim/trace, FORMAT.md) with the final gradient buffer.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "arc/trace_rec.h"
#include "trace.h"

namespace arc::sw {

struct TraceInfo {
  std::string gpu_name;
  uint32_t sm_count = 0;
  std::string kernel_name;
  std::string method;  // benchmark name: baseline, sws, swb, cub, adaptive
  uint32_t threshold = 0;
  std::string generator;
  uint64_t seed = 0;
  uint8_t reduce_ftz = 0;  // 0: partial sums from add.f32 without -ftz (IEEE subnormals)
  std::vector<std::pair<std::string, std::string>> meta;
};

// Benchmark method name -> trace method (baseline, sw-s, sw-b, cub, adaptive).
arc::trace::Method trace_method(const std::string& method);

// One capture record -> one trace instruction (gap clamped to 32 bits with its flag). With
// the benchmark method, instructions whose partial sums the butterfly made get
// kFlagTreeSum: every reduced SW-B instruction, and Adaptive's reduced instructions whose
// active lanes all share one address (Adaptive's only butterfly case; its serial path runs
// only when the lanes name several addresses). CUB's sums stay in CUB's (opaque) order.
arc::trace::Instr to_instr(const DevInstr& d, const std::string& method = "");

struct TraceStats {
  uint64_t instructions = 0, lanes = 0, bytes = 0;
};

// Writes the whole trace; `final_buffer` is the gradient buffer after the kernel.
TraceStats write_capture(const std::string& path, const TraceInfo& info,
                         const std::vector<DevInstr>& recs, const std::vector<float>& final_buffer);

}  // namespace arc::sw
