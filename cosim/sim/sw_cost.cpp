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

// SW-S's cost (the match per key, then its groups' steps), and Adaptive's groups (rule v4: the
// same match, then the group tree: one step per level instead of per lane).
Cycle match_and_sum_cycles(const SwCostSetup& s, const CallShape& in, uint32_t threshold, bool group_tree) {
  const bool call_start = in.param == 0;
  Cycle c = call_start ? s.sw_overhead : 0;
  if (s.sws_per_key == 0 && s.sws_per_lane == 0) return c;
  // A tree level moves the call's values as a serial step does (its pointer shuffle and vote
  // are not charged).
  const uint32_t steps = sum_steps(in, threshold, group_tree);
  if (call_start) c += static_cast<Cycle>(s.sws_per_key) * in.groups;
  const uint32_t per_step = call_start || !s.sws_per_lane_param ? s.sws_per_lane : s.sws_per_lane_param;
  c += static_cast<Cycle>(per_step) * steps;
  return c;
}

// The same groups' instructions: the fixed part at param 0, then per step (serial) or level (tree).
Cycle match_and_sum_slots(const SwCostSetup& s, const CallShape& in, uint32_t threshold, bool group_tree) {
  const bool call_start = in.param == 0;
  const Cycle steps = sum_steps(in, threshold, group_tree);
  const uint32_t per_step = group_tree ? (call_start ? s.tree_inst_per_level : s.tree_inst_per_level_param)
                                       : (call_start ? s.sws_inst_per_lane : s.sws_inst_per_lane_param);
  return (call_start ? s.inst_overhead : 0) + per_step * steps;
}

}  // namespace

Cycle sw_dispatch_slots(const SwCostSetup& s, const CallShape& in, uint32_t vec) {
  const bool call_start = in.param == 0;
  if (s.mode == Mode::Adaptive) {
    switch (adaptive_choice(in, vec)) {
      case AdaptiveChoice::Tree: return call_start ? s.inst_overhead : s.swb_inst_per_param;  // as sw-b
      case AdaptiveChoice::PerLane: return call_start ? s.inst_overhead : 0;
      case AdaptiveChoice::Groups: return match_and_sum_slots(s, in, 2, true);
    }
  }
  switch (s.mode) {
    case Mode::Baseline:
    case Mode::Lab:
    case Mode::LabIdeal:
    case Mode::Phi:
    case Mode::ArcHw: return 0;
    case Mode::SwB:
      if (call_start) return s.inst_overhead;
      return tree_eligible(s.mode, in, s.threshold) ? s.swb_inst_per_param : 0;
    case Mode::SwT:
      if (!call_start) return 0;
      if (!tree_eligible(s.mode, in, s.threshold)) return s.inst_overhead;
      return (static_cast<Cycle>(s.inst_overhead) * swt_shuffles(in.nparams) + 2) / 5;  // as its cycles
    case Mode::SwS:
    case Mode::Adaptive: break;
  }
  return match_and_sum_slots(s, in, s.threshold, false);
}

Cycle sw_issue_cycles(const SwCostSetup& s, const CallShape& in, uint32_t vec) {
  const bool call_start = in.param == 0;
  if (s.mode == Mode::Adaptive) {
    switch (adaptive_choice(in, vec)) {
      case AdaptiveChoice::Tree: return call_start || !s.swb_per_param ? s.sw_overhead : s.swb_per_param;  // as sw-b
      case AdaptiveChoice::PerLane: return call_start ? s.sw_overhead : 0;
      case AdaptiveChoice::Groups: return match_and_sum_cycles(s, in, 2, true);
    }
  }
  switch (s.mode) {
    case Mode::Baseline:
    case Mode::Lab:
    case Mode::LabIdeal:
    case Mode::Phi:
    case Mode::ArcHw: return 0;
    case Mode::SwB:
      if (call_start) return s.sw_overhead;
      if (!tree_eligible(s.mode, in, s.threshold)) return 0;
      return s.swb_per_param ? s.swb_per_param : s.sw_overhead;
    case Mode::SwT:
      if (!call_start) return 0;
      if (!tree_eligible(s.mode, in, s.threshold)) return s.sw_overhead;
      return (static_cast<Cycle>(s.sw_overhead) * swt_shuffles(in.nparams) + 2) / 5;
    case Mode::SwS:
    case Mode::Adaptive: break;
  }
  return match_and_sum_cycles(s, in, s.threshold, false);
}

}  // namespace arc::sim
