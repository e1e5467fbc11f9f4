// Turns the GPU's raw capture records (arc::DevCall, one per reduce call) into the project's
// trace format (cosim/trace, FORMAT.md: one record of nparams instructions per call) with the
// final gradient buffer and the launch shape.
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
  uint32_t grid_blocks = 0, threads_per_block = 0;  // the launch (0 = unknown)
  std::vector<std::pair<std::string, std::string>> meta;
  bool timing_only = false;  // write the timing-only form: no values, partial sums or final buffer
};

// Benchmark method name -> trace method (baseline, sw-s, sw-b, cub, adaptive).
arc::trace::Method trace_method(const std::string& method);

// One capture record -> its nparams trace instructions (gap clamped to 32 bits with its flag;
// sub-core = hardware warp slot % 4). With the benchmark method, instructions whose partial
// sums the butterfly made get kFlagTreeSum: every reduced SW-B, gsplat and SW-T call, and
// Adaptive's reduced calls of a whole warp whose active lanes share one address (Adaptive's
// only butterfly case); Adaptive's other reduced groups (several addresses, or a divergent
// caller's) get kFlagGroupTreeSum, its pair sends kFlagPairSum. CUB's sums stay in CUB's
// (opaque) order.
// values: the call's values and partial sums (nullptr: a timing-only capture's, all 0).
std::vector<arc::trace::Instr> to_instrs(const DevCallHead& d, const DevCallValues* values, const std::string& method = "");
inline std::vector<arc::trace::Instr> to_instrs(const DevCall& d, const std::string& method = "") {
  return to_instrs(d, &d, method);
}

struct TraceStats {
  uint64_t instructions = 0, lanes = 0, bytes = 0;
};

// The records of one capture: warp w's calls are slots first[w] .. first[w] + calls[w] of
// heads and (the full form; empty for a timing-only capture) values.
struct CaptureRecords {
  const std::vector<DevCallHead>& heads;
  const std::vector<DevCallValues>& values;
  const std::vector<uint64_t>& first;
  const std::vector<uint64_t>& calls;
};

// Writes the whole trace, in waves of resident warps, call by call (see trace_out.cpp); `final_buffer` is the gradient buffer after the kernel.
// The full form needs a values entry per head (arc::Error otherwise); the timing-only form reads none.
// The resident warps per SM in the header are the largest hardware warp slot seen + 1.
TraceStats write_capture(const std::string& path, const TraceInfo& info, const CaptureRecords& recs,
                         const std::vector<float>& final_buffer);

}  // namespace arc::sw
