// The trace cut into what each sub-core runs: per (SM, sub-core), its warps in order of first
// appearance, each warp's atomics in trace order, and how many warps a sub-core keeps resident.
//
// SM mapping (never folded `sm % sms`):
//  1. The trace's placement is kept when it fits the simulated GPU: same sub-cores per SM and
//     every traced SM id below the GPU's SM count (the same GPU, or a kernel that occupied only
//     some SMs, e.g. a one-SM microbenchmark).
//  2. Otherwise, when the trace records its launch (threads per block; warps numbered
//     block-linearly, as the GPU capture does), whole blocks are handed out as a block scheduler
//     would: in block order, each to the SM with the least work so far; a block's warps take the
//     SM's sub-cores in turn.
//  3. Otherwise whole warps are handed out: in order of first appearance, each to the sub-core
//     slot with the least work so far.
// Work = a warp's compute gaps + one issue cycle per atomic; ties go to the lowest index. The
// mapping is deterministic, and no SM (2) or slot (3) ends more than one block's or warp's work
// above another.
//
// Occupancy. A trace that records its launch's resident warps per SM (format version 2) is
// admitted with that many warps per SM (ceil over the sub-cores), capped by the simulated
// GPU's warps_per_subcore; a trace that does not falls back to the GPU's limit.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "trace_source.h"

namespace arc::sim {

struct WarpWork {
  size_t index = 0;    // into TraceSummary::warps (and the InstrSource)
  uint64_t count = 0;  // its warp instructions
};

struct SubCoreWork {
  std::vector<WarpWork> warps;  // in order of first appearance in the trace
};

struct Workload {
  uint32_t sms = 0, subcores_per_sm = 0;
  std::vector<SubCoreWork> subcores;  // index sm * subcores_per_sm + subcore
  uint64_t instructions = 0, lane_updates = 0;
  bool remapped = false;               // warps redistributed (rule 2 or 3 above)
  uint32_t warps_resident = 0;         // per sub-core, as admitted
  bool occupancy_from_trace = false;   // warps_resident came from the trace's launch shape
  const SubCoreWork& at(uint32_t sm, uint32_t sc) const { return subcores[sm * subcores_per_sm + sc]; }
};

Workload build_workload(const TraceSummary& s, uint32_t sms, uint32_t subcores_per_sm, uint32_t max_warps_per_subcore);
// Tests: summarize(t) then the above. Throws arc::Error on an address outside the buffer.
Workload build_workload(const trace::Trace& t, uint32_t sms, uint32_t subcores_per_sm, uint32_t max_warps_per_subcore);

}  // namespace arc::sim
