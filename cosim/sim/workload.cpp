#include "workload.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "error.h"

namespace arc::sim {

Workload build_workload(const trace::Trace& t, uint32_t sms, uint32_t subcores_per_sm,
                        uint32_t max_warps_per_subcore) {
  return build_workload(summarize(t), sms, subcores_per_sm, max_warps_per_subcore);
}

Workload build_workload(const TraceSummary& s, uint32_t sms, uint32_t subcores_per_sm,
                        uint32_t max_warps_per_subcore) {
  const trace::Header& h = s.header;
  Workload w;
  w.sms = sms;
  w.subcores_per_sm = subcores_per_sm;
  w.instructions = s.instructions;
  w.lane_updates = s.lane_updates;
  const size_t slots = static_cast<size_t>(sms) * subcores_per_sm;
  w.subcores.resize(slots);
  const std::vector<WarpSummary>& warps = s.warps;
  auto work_of = [&](size_t i) { return WarpWork{i, warps[i].count}; };

  bool fits = h.subcores_per_sm == subcores_per_sm;
  for (const WarpSummary& tw : warps) fits &= tw.sm < sms && tw.subcore < subcores_per_sm;
  w.remapped = !fits;
  const uint32_t warps_per_block = (h.threads_per_block + 31) / 32;
  if (fits) {  // 1. the traced placement
    for (size_t i = 0; i < warps.size(); ++i)
      w.subcores[static_cast<size_t>(warps[i].sm) * subcores_per_sm + warps[i].subcore].warps.push_back(work_of(i));
  } else if (warps_per_block > 0) {  // 2. whole blocks to the least-loaded SM
    std::vector<uint64_t> sm_load(sms, 0);
    std::unordered_map<uint64_t, uint32_t> block_sm;  // global block -> SM
    // Blocks in block order; within a block, warps in warp order.
    std::vector<size_t> order(warps.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return warps[a].warp < warps[b].warp; });
    std::unordered_map<uint64_t, uint64_t> block_work;
    for (const WarpSummary& tw : warps) block_work[tw.warp / warps_per_block] += tw.work;
    for (size_t i : order) {
      const WarpSummary& tw = warps[i];
      const uint64_t block = tw.warp / warps_per_block;
      auto [it, fresh] = block_sm.emplace(block, 0);
      if (fresh) {
        it->second = static_cast<uint32_t>(std::min_element(sm_load.begin(), sm_load.end()) - sm_load.begin());
        sm_load[it->second] += block_work[block];
      }
      const uint32_t sc = (tw.warp % warps_per_block) % subcores_per_sm;
      w.subcores[static_cast<size_t>(it->second) * subcores_per_sm + sc].warps.push_back(work_of(i));
    }
  } else {  // 3. whole warps to the least-loaded sub-core slot
    std::vector<uint64_t> load(slots, 0);
    for (size_t i = 0; i < warps.size(); ++i) {
      const size_t slot = static_cast<size_t>(std::min_element(load.begin(), load.end()) - load.begin());
      load[slot] += warps[i].work;
      w.subcores[slot].warps.push_back(work_of(i));
    }
  }

  const uint32_t traced = h.resident_warps_per_sm;
  w.occupancy_from_trace = traced > 0;
  w.warps_resident = max_warps_per_subcore;
  if (traced > 0)
    w.warps_resident = std::max<uint32_t>(1, std::min(max_warps_per_subcore, (traced + subcores_per_sm - 1) / subcores_per_sm));
  return w;
}

}  // namespace arc::sim
