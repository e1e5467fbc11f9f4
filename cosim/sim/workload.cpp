#include "workload.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "error.h"

namespace arc::sim {

namespace {

struct TraceWarp {
  uint32_t sm = 0, subcore = 0, warp = 0;
  uint64_t work = 0;  // compute gaps + one issue cycle per atomic
  std::vector<InstrRef> instrs;
};

// Trace warps in order of first appearance; checks every address.
std::vector<TraceWarp> collect_warps(const trace::Trace& t, Workload& w) {
  std::vector<TraceWarp> warps;
  std::unordered_map<uint64_t, size_t> index;  // (sm << 32 | warp) -> position in warps
  w.word_updates.assign(t.header.buffer_words, 0);
  for (size_t i = 0; i < t.instrs.size(); ++i) {
    const trace::Instr& in = t.instrs[i];
    for (uint32_t m = in.active_mask; m; m &= m - 1) {
      const uint32_t a = in.addr[__builtin_ctz(m)];
      if (a >= t.header.buffer_words)
        throw Error(fmt::format("trace record {}: lane {} address {} is outside the {}-word gradient buffer", i,
                                __builtin_ctz(m), a, t.header.buffer_words));
      ++w.word_updates[a];
    }
    const uint64_t key = (static_cast<uint64_t>(in.sm) << 32) | in.warp;
    auto [it, fresh] = index.emplace(key, warps.size());
    if (fresh) {
      warps.emplace_back();
      warps.back().sm = in.sm;
      warps.back().subcore = in.subcore;
      warps.back().warp = in.warp;
    }
    TraceWarp& tw = warps[it->second];
    tw.instrs.push_back(&in);
    tw.work += static_cast<uint64_t>(in.gap) + 1;
    ++w.instructions;
    w.lane_updates += static_cast<uint64_t>(__builtin_popcount(in.active_mask));
  }
  return warps;
}

}  // namespace

Workload build_workload(const trace::Trace& t, uint32_t sms, uint32_t subcores_per_sm,
                        uint32_t max_warps_per_subcore) {
  Workload w;
  w.sms = sms;
  w.subcores_per_sm = subcores_per_sm;
  const size_t slots = static_cast<size_t>(sms) * subcores_per_sm;
  w.subcores.resize(slots);
  std::vector<TraceWarp> warps = collect_warps(t, w);

  bool fits = t.header.subcores_per_sm == subcores_per_sm;
  for (const TraceWarp& tw : warps) fits &= tw.sm < sms && tw.subcore < subcores_per_sm;
  w.remapped = !fits;
  const uint32_t warps_per_block = (t.header.threads_per_block + 31) / 32;
  if (fits) {  // 1. the traced placement
    for (TraceWarp& tw : warps)
      w.subcores[static_cast<size_t>(tw.sm) * subcores_per_sm + tw.subcore].warps.push_back(WarpWork{std::move(tw.instrs)});
  } else if (warps_per_block > 0) {  // 2. whole blocks to the least-loaded SM
    std::vector<uint64_t> sm_load(sms, 0);
    std::unordered_map<uint64_t, uint32_t> block_sm;  // global block -> SM
    // Blocks in block order; within a block, warps in warp order.
    std::vector<size_t> order(warps.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return warps[a].warp < warps[b].warp; });
    std::unordered_map<uint64_t, uint64_t> block_work;
    for (const TraceWarp& tw : warps) block_work[tw.warp / warps_per_block] += tw.work;
    for (size_t i : order) {
      TraceWarp& tw = warps[i];
      const uint64_t block = tw.warp / warps_per_block;
      auto [it, fresh] = block_sm.emplace(block, 0);
      if (fresh) {
        it->second = static_cast<uint32_t>(std::min_element(sm_load.begin(), sm_load.end()) - sm_load.begin());
        sm_load[it->second] += block_work[block];
      }
      const uint32_t sc = (tw.warp % warps_per_block) % subcores_per_sm;
      w.subcores[static_cast<size_t>(it->second) * subcores_per_sm + sc].warps.push_back(WarpWork{std::move(tw.instrs)});
    }
  } else {  // 3. whole warps to the least-loaded sub-core slot
    std::vector<uint64_t> load(slots, 0);
    for (TraceWarp& tw : warps) {
      const size_t slot = static_cast<size_t>(std::min_element(load.begin(), load.end()) - load.begin());
      load[slot] += tw.work;
      w.subcores[slot].warps.push_back(WarpWork{std::move(tw.instrs)});
    }
  }

  const uint32_t traced = t.header.resident_warps_per_sm;
  w.occupancy_from_trace = traced > 0;
  w.warps_resident = max_warps_per_subcore;
  if (traced > 0)
    w.warps_resident = std::max<uint32_t>(1, std::min(max_warps_per_subcore, (traced + subcores_per_sm - 1) / subcores_per_sm));
  return w;
}

}  // namespace arc::sim
