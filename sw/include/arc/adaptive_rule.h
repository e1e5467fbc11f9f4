// Adaptive rule v2's decisions (arc::Method::Adaptive, reduce.cuh; the rule and where its
// weights come from are documented there). Plain C++ (host and device) so the CPU tests can
// check the thresholds it implies (tests/sw/test_adaptive_rule.cpp). Costs are in half
// shuffle+add steps (integers): a convergent lane request costs 1 half-step per scalar atomic,
// 2 per vector atomic (kReq2 = 2 q c).
#pragma once

#if defined(__CUDACC__)
#define ARC_HD __host__ __device__
#else
#define ARC_HD
#endif

namespace arc::detail {

struct AdaptiveRule {
  static constexpr int kMatch = 32;  // the match's cost in steps (reduce.cuh: prims.csv)
  // 2 q c for NP values at vector width vec in a convergent call.
  ARC_HD static constexpr int req2(int np, int vec) {
    return vec == 1 ? np : 2 * ((np + vec - 1) / vec);
  }
  // 1. Convergent call, every active lane on one primitive: the butterfly (5 NP steps)?
  ARC_HD static constexpr bool tree(int n, int np, int vec) { return (n - 1) * req2(np, vec) > 10 * np; }
  // 2. Convergent call, several primitives: is the match worth issuing at all?
  ARC_HD static constexpr bool match(int n, int np, int vec) { return (n - 2) * req2(np, vec) > 2 * kMatch; }
  //    ... and after it (g groups, the largest of s_max lanes): serial sums?
  ARC_HD static constexpr bool serial(bool convergent, int n, int g, int s_max, int np, int vec) {
    return convergent ? (n - g) * req2(np, vec) > 2 * (s_max - 1) * np : (n - g) >= (s_max - 1);
  }
};

}  // namespace arc::detail
