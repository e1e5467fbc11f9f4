#include "sw_cost.h"

#include <algorithm>

#include "arc/adaptive_rule.h"
#include "lane_mask.h"

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

CallShape shape_of(const trace::Instr& in) {
  CallShape c;
  c.active_mask = in.active_mask;
  c.param = in.param;
  c.nparams = in.nparams;
  c.pair = (in.flags & trace::kFlagPairSum) != 0;
  for (uint32_t rem = in.active_mask; rem;) {
    const uint32_t mask = lanes_equal(in.addr, in.addr[static_cast<size_t>(__builtin_ctz(rem))]) & rem;
    c.group_lanes[c.groups++] = static_cast<uint8_t>(__builtin_popcount(mask));
    rem &= ~mask;
  }
  return c;
}

CallShape uniform_shape(uint32_t active_mask, uint8_t param, uint8_t nparams) {
  CallShape c;
  c.active_mask = active_mask;
  c.param = param;
  c.nparams = nparams;
  c.groups = 1;
  c.group_lanes[0] = static_cast<uint8_t>(__builtin_popcount(active_mask));
  return c;
}

bool tree_eligible(Mode mode, const CallShape& in, uint32_t threshold) {
  const uint32_t n = in.lanes();
  if (n < threshold || n < 2) return false;
  if (mode == Mode::SwT && in.nparams > 32) return false;
  return in.uniform();
}

bool tree_eligible(Mode mode, const trace::Instr& in, uint32_t threshold) {
  return tree_eligible(mode, shape_of(in), threshold);
}

AdaptiveChoice adaptive_choice(const CallShape& in, uint32_t vec) {
  using Rule = arc::detail::AdaptiveRule;
  const int n = static_cast<int>(in.lanes()), np = in.nparams, v = static_cast<int>(vec);
  if (in.uniform()) return Rule::tree(n, np, v) ? AdaptiveChoice::Tree : AdaptiveChoice::PerLane;
  return Rule::match(n, np, v) ? AdaptiveChoice::Groups : AdaptiveChoice::PerLane;
}

AdaptiveChoice adaptive_choice(const trace::Instr& in, uint32_t vec) { return adaptive_choice(shape_of(in), vec); }

Cycle sw_issue_cycles(const SwCostSetup& s, const trace::Instr& in, uint32_t vec) {
  return sw_issue_cycles(s, shape_of(in), vec);
}

namespace {

// The steps of a call's reduced groups: the largest reduced group's lanes beyond its first (SW-S:
// the groups' serial loops run side by side, one SHFL per step for every group: same PC, each
// lane its own source), or the group tree's levels, ceil(log2(largest group)) (rule v4).
uint32_t sum_steps(const CallShape& in, uint32_t threshold, bool group_tree) {
  uint32_t largest = 1;
  for (uint32_t g = 0; g < in.groups; ++g) {
    const uint32_t n = in.group_lanes[g];
    if (n >= threshold && n > 1) largest = std::max(largest, n);
  }
  if (!group_tree) return largest - 1;
  uint32_t levels = 0;
  while ((1u << levels) < largest) ++levels;
  return levels;
}

// A pair send's instruction (rule v5, sw/include/arc/pair_reduce.cuh), counted from the CUDA
// code, not measured: shuffles (the key's half xor exchange, its gather, 2 shfl_up = 3.5; per
// value its half exchange and gather 1.5 and the merge's shfl_down 1) x 2 = 12 at param 0 (key and
// first value), 5 per further param, each at sw-t's price of a fifth of sw_overhead; warp
// instructions: the same shuffles plus 2 ballots, the merge's adds and selects.
constexpr Cycle kPairShufflesX2 = 12, kPairShufflesParamX2 = 5;
constexpr Cycle kPairInst = 12, kPairInstParam = 4;

// What one price list charges: the MIO cycles (sw_issue_cycles) or the warp instructions
// (sw_dispatch_slots) of the same SW sequences.
struct Prices {
  Cycle overhead;            // a call's fixed part, at param 0 (and a non-reduced sw-b/sw-t call's)
  Cycle butterfly_param;     // each further reduced parameter of a butterfly call
  Cycle per_key;             // the match, per distinct address, at param 0
  Cycle step, step_param;    // a serial step: param 0's, each further param's
  Cycle level, level_param;  // a group-tree level: param 0's, each further param's
  bool groups_priced;        // false: a SW-S / group call costs its overhead alone
  Cycle pair, pair_param;    // a pair send's instruction: param 0's, each further param's
};

// SW-S's cost (the match per key, then its groups' steps), and Adaptive's groups (rule v4: the
// same match, then the group tree's levels).
Cycle match_and_sum(const Prices& p, const CallShape& in, uint32_t threshold, bool group_tree) {
  const bool call_start = in.param == 0;
  Cycle c = call_start ? p.overhead : 0;
  if (!p.groups_priced) return c;
  const Cycle steps = sum_steps(in, threshold, group_tree);
  if (call_start) c += p.per_key * in.groups;
  const Cycle per_step = group_tree ? (call_start ? p.level : p.level_param) : (call_start ? p.step : p.step_param);
  return c + per_step * steps;
}

Cycle priced(const Prices& p, Mode mode, uint32_t threshold, const CallShape& in, uint32_t vec) {
  const bool call_start = in.param == 0;
  if (mode == Mode::Adaptive) {
    if (in.pair) return in.active_mask == 0 ? 0 : call_start ? p.pair : p.pair_param;  // an empty half: skipped
    switch (adaptive_choice(in, vec)) {
      case AdaptiveChoice::Tree: return call_start ? p.overhead : p.butterfly_param;  // as sw-b
      case AdaptiveChoice::PerLane: return call_start ? p.overhead : 0;
      case AdaptiveChoice::Groups: return match_and_sum(p, in, 2, true);
    }
  }
  switch (mode) {
    case Mode::Baseline:
    case Mode::Lab:
    case Mode::LabIdeal:
    case Mode::Phi:
    case Mode::ArcHw: return 0;
    case Mode::SwB:
      if (call_start) return p.overhead;
      return tree_eligible(mode, in, threshold) ? p.butterfly_param : 0;
    case Mode::SwT:
      // a reduced call: its exchange steps at param 0, each a fifth of the butterfly's 5 steps
      if (!call_start) return 0;
      if (!tree_eligible(mode, in, threshold)) return p.overhead;
      return (p.overhead * swt_shuffles(in.nparams) + 2) / 5;
    case Mode::SwS:
    case Mode::Adaptive: break;
  }
  return match_and_sum(p, in, threshold, false);
}

}  // namespace

Cycle sw_dispatch_slots(const SwCostSetup& s, const CallShape& in, uint32_t vec) {
  const Prices p{s.inst_overhead,       s.swb_inst_per_param,        0,    s.sws_inst_per_lane, s.sws_inst_per_lane_param,
                 s.tree_inst_per_level, s.tree_inst_per_level_param, true, kPairInst,          kPairInstParam};
  return priced(p, s.mode, s.threshold, in, vec);
}

Cycle sw_issue_cycles(const SwCostSetup& s, const CallShape& in, uint32_t vec) {
  // A tree level moves the call's values as a serial step does (its pointer shuffle and vote are
  // not charged); 0 for a further-param or butterfly knob means "as the first".
  const Cycle step_param = s.sws_per_lane_param ? s.sws_per_lane_param : s.sws_per_lane;
  const Prices p{s.sw_overhead,   s.swb_per_param ? s.swb_per_param : s.sw_overhead, s.sws_per_key, s.sws_per_lane,
                 step_param,      s.sws_per_lane, step_param, s.sws_per_key != 0 || s.sws_per_lane != 0,
                 (s.sw_overhead * kPairShufflesX2 + 5) / 10, (s.sw_overhead * kPairShufflesParamX2 + 5) / 10};
  return priced(p, s.mode, s.threshold, in, vec);
}

}  // namespace arc::sim
