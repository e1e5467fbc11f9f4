#include "workload.h"

#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "error.h"

namespace arc::sim {

namespace {

struct TraceWarp {
  uint32_t sm = 0, subcore = 0;
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

  bool same_shape = t.header.sm_count == sms && t.header.subcores_per_sm == subcores_per_sm;
  for (const TraceWarp& tw : warps) same_shape &= tw.sm < sms && tw.subcore < subcores_per_sm;
  w.remapped = !same_shape;
  std::vector<uint64_t> load(slots, 0);
  for (TraceWarp& tw : warps) {
    size_t slot = 0;
    if (same_shape) {
      slot = static_cast<size_t>(tw.sm) * subcores_per_sm + tw.subcore;
    } else {
      slot = static_cast<size_t>(std::min_element(load.begin(), load.end()) - load.begin());
      load[slot] += tw.work;
    }
    w.subcores[slot].warps.push_back(WarpWork{std::move(tw.instrs)});
  }

  const uint32_t traced = t.header.resident_warps_per_sm;
  w.occupancy_from_trace = traced > 0;
  w.warps_resident = max_warps_per_subcore;
  if (traced > 0)
    w.warps_resident = std::max<uint32_t>(1, std::min(max_warps_per_subcore, (traced + subcores_per_sm - 1) / subcores_per_sm));
  return w;
}

}  // namespace arc::sim
