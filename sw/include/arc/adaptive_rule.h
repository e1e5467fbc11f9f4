// Adaptive's decisions (rule v3, kept by v4; arc::Method::Adaptive, reduce.cuh; the rule and where its
// constants come from are documented there). Plain C++ (host and device) so the CPU tests can
// check the thresholds it implies (tests/sw/test_adaptive_rule.cpp). Costs are integers in
// sixteenths of one shuffle+add step (kStep = 16): a convergent lane request costs kReq1 = 8
// (half a step) per scalar atomic, kReqV = 17 per vector (float4 / float2) atomic.
#pragma once

#include "arc/hd.h"

namespace arc::detail {

struct AdaptiveRule {
  static constexpr int kStep = 16;   // one shuffle+add step
  static constexpr int kReq1 = 8;    // a scalar lane request (fitted: gs SW-B sweep, best X = 12)
  static constexpr int kReqV = 17;   // a vector lane request (fitted: gs-il swb-v4 sweep, best X = 16)
  static constexpr int kMatch = 32;  // the match in steps (prims.csv match_any + the group loop)
  // One lane's requests for NP values at vector width vec, in sixteenths of a step.
  ARC_HD static constexpr int lane_cost(int np, int vec) {
    return vec == 1 ? np * kReq1 : ((np + vec - 1) / vec) * kReqV;
  }
  // 1. Convergent call, every active lane on one primitive: the butterfly (5 NP steps) iff the
  //    n - 1 lanes' requests it removes cost more.
  ARC_HD static constexpr bool tree(int n, int np, int vec) { return (n - 1) * lane_cost(np, vec) > 5 * np * kStep; }
  // 2. Convergent call, several primitives: is the match worth issuing at all (the most it can
  //    remove is n - 2 lanes' requests)? After it, every group of >= 2 lanes is summed (rule v4:
  //    by the group tree, all groups at once).
  ARC_HD static constexpr bool match(int n, int np, int vec) { return (n - 2) * lane_cost(np, vec) > kMatch * kStep; }
};

}  // namespace arc::detail
