#include "workload.h"

#include <fmt/format.h>

#include <unordered_map>

#include "error.h"

namespace arc::sim {

Workload build_workload(const trace::Trace& t, uint32_t sms, uint32_t subcores_per_sm) {
  Workload w;
  w.sms = sms;
  w.subcores_per_sm = subcores_per_sm;
  w.subcores.resize(static_cast<size_t>(sms) * subcores_per_sm);
  // (sm, warp) of the trace -> (sub-core slot, warp index there)
  std::unordered_map<uint64_t, std::pair<size_t, size_t>> where;
  for (size_t i = 0; i < t.instrs.size(); ++i) {
    const trace::Instr& in = t.instrs[i];
    for (uint32_t m = in.active_mask; m; m &= m - 1) {
      const uint32_t a = in.addr[__builtin_ctz(m)];
      if (a >= t.header.buffer_words)
        throw Error(fmt::format("trace record {}: lane {} address {} is outside the {}-word gradient buffer", i,
                                __builtin_ctz(m), a, t.header.buffer_words));
    }
    const uint64_t key = (static_cast<uint64_t>(in.sm) << 32) | in.warp;
    auto it = where.find(key);
    if (it == where.end()) {
      const size_t slot = static_cast<size_t>(in.sm % sms) * subcores_per_sm + in.subcore % subcores_per_sm;
      auto& sc = w.subcores[slot];
      sc.warps.emplace_back();
      it = where.emplace(key, std::make_pair(slot, sc.warps.size() - 1)).first;
    }
    w.subcores[it->second.first].warps[it->second.second].instrs.push_back(&in);
    ++w.instructions;
    w.lane_updates += static_cast<uint64_t>(__builtin_popcount(in.active_mask));
  }
  return w;
}

}  // namespace arc::sim
