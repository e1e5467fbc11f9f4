// The trace cut into what each sub-core runs: per (SM, sub-core), its warps in order of first
// appearance, each warp's atomics in trace order, and how many warps a sub-core keeps resident.
//
// SM mapping. A trace taken on a GPU of the simulated shape (same SM and sub-core counts) keeps
// its placement: warp (sm, subcore) runs where it ran. Otherwise whole warps are redistributed
// (never folded `sm % sms`): in order of first appearance, each warp goes to the sub-core slot
// with the least work assigned so far (work = its compute gaps + one issue cycle per atomic;
// ties to the lowest slot, SM-major), the way a block scheduler hands out work to the unit that
// is free first. Deterministic, and no slot ends more than one warp's work above another.
//
// Occupancy. A trace that records its launch's resident warps per SM (format version 2) is
// admitted with that many warps per SM (ceil over the sub-cores), capped by the simulated
// GPU's warps_per_subcore; a trace that does not falls back to the GPU's limit.
#pragma once
#include <cstdint>
#include <string>
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
  bool remapped = false;               // warps redistributed (trace shape != GPU shape)
  uint32_t warps_resident = 0;         // per sub-core, as admitted
  bool occupancy_from_trace = false;   // warps_resident came from the trace's launch shape
  std::vector<uint32_t> word_updates;  // per gradient-buffer word: lane updates the trace sends it
  const SubCoreWork& at(uint32_t sm, uint32_t sc) const { return subcores[sm * subcores_per_sm + sc]; }
};

// Throws arc::Error on an address outside header.buffer_words (naming the record).
Workload build_workload(const trace::Trace& t, uint32_t sms, uint32_t subcores_per_sm, uint32_t max_warps_per_subcore);

}  // namespace arc::sim
