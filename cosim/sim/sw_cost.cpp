#include "sw_cost.h"

#include "golden.h"

namespace arc::sim {

uint32_t swt_shuffles(uint32_t nparams) {
  uint32_t k = 1, m = 0;
  while (k < nparams) {
    k *= 2;
    ++m;
  }
  uint32_t n = 0;
  for (uint32_t s = 0; s < m; ++s)
    for (uint32_t t = 0; t < (k >> (s + 1)); ++t)
      if (((2 * t) << s) < nparams) ++n;
  return n + (5 - m);
}

bool tree_eligible(Mode mode, const trace::Instr& in, uint32_t threshold) {
  const uint32_t n = static_cast<uint32_t>(__builtin_popcount(in.active_mask));
  if (n < threshold || n < 2) return false;
  if (mode == Mode::SwT && in.nparams > 32) return false;
  const uint32_t a = in.addr[static_cast<size_t>(__builtin_ctz(in.active_mask))];
  for (uint32_t m = in.active_mask; m; m &= m - 1)
    if (in.addr[static_cast<size_t>(__builtin_ctz(m))] != a) return false;
  return true;
}

Cycle sw_issue_cycles(const SwCostSetup& s, const trace::Instr& in) {
  const bool call_start = in.param == 0;
  switch (s.mode) {
    case Mode::Baseline:
    case Mode::ArcHw: return 0;
    case Mode::SwB:
      if (call_start) return s.sw_overhead;
      return tree_eligible(s.mode, in, s.threshold) ? s.sw_overhead : 0;
    case Mode::SwT:
      if (!call_start) return 0;
      if (!tree_eligible(s.mode, in, s.threshold)) return s.sw_overhead;
      return (static_cast<Cycle>(s.sw_overhead) * swt_shuffles(in.nparams) + 2) / 5;
    case Mode::SwS: break;
  }
  Cycle c = call_start ? s.sw_overhead : 0;
  if (s.sws_per_key == 0 && s.sws_per_lane == 0) return c;
  golden::WarpInstr wi;
  wi.active_mask = in.active_mask;
  wi.addr = in.addr;
  const auto groups = golden::match_addresses(wi);
  uint32_t adds = 0;
  for (const auto& g : groups) {
    const uint32_t n = static_cast<uint32_t>(__builtin_popcount(g.lane_mask));
    if (n >= s.threshold && n > 1) adds += n - 1;
  }
  if (call_start) c += static_cast<Cycle>(s.sws_per_key) * groups.size();
  c += static_cast<Cycle>(s.sws_per_lane) * adds;
  return c;
}

}  // namespace arc::sim
