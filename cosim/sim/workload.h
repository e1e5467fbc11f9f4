// The trace cut into what each sub-core runs: per (SM, sub-core), its warps in order of first
// appearance, each warp's atomics in trace order. A trace taken on a GPU with another shape is
// folded onto the simulated one (sm % sms, subcore % subcores_per_sm), and its words checked
// against the gradient buffer.
#pragma once
#include <cstdint>
#include <vector>

#include "request.h"
#include "trace.h"

namespace arc::sim {

struct WarpWork {
  std::vector<InstrRef> instrs;
};

struct SubCoreWork {
  std::vector<WarpWork> warps;  // in order of first appearance in the trace
};

struct Workload {
  uint32_t sms = 0, subcores_per_sm = 0;
  std::vector<SubCoreWork> subcores;  // index sm * subcores_per_sm + subcore
  uint64_t instructions = 0, lane_updates = 0;
  const SubCoreWork& at(uint32_t sm, uint32_t sc) const { return subcores[sm * subcores_per_sm + sc]; }
};

// Throws arc::Error on an address outside header.buffer_words (naming the record).
Workload build_workload(const trace::Trace& t, uint32_t sms, uint32_t subcores_per_sm);

}  // namespace arc::sim
