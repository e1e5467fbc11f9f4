// The layout of ARC-SW's transposed reduce-scatter (arc::Method::Swt, reduce.cuh): which lane
// ends up holding which parameter's warp sum, which lanes send, and how many shuffles it
// takes. Plain C++ (host and device) so the CPU tests can replay the exchange lane by lane
// (tests/sw/test_swt.cpp).
#pragma once

#include "arc/hd.h"

namespace arc::detail {

constexpr int pow2_at_least(int n) { return n <= 1 ? 1 : 2 * pow2_at_least((n + 1) / 2); }
constexpr int log2_exact(int n) { return n <= 1 ? 0 : 1 + log2_exact(n / 2); }

// The transposed reduce-scatter (Method::Swt): its layout. K slots (next power of two of NP,
// at least the vector width), log2(K) halving steps; after them the lane whose bits 4, 3, ...
// spell a param's bits 0, 1, ... holds that param (the low 5 - log2(K) lane bits free).
template <int NP, int kVec>
struct SwtShape {
  static constexpr int K = pow2_at_least(NP) > kVec ? pow2_at_least(NP) : kVec;
  static constexpr int M = log2_exact(K);
  static_assert(K <= 32, "the transposed reduce-scatter handles up to 32 parameters");
  // The lane that ends up holding param p (free lane bits zero).
  ARC_HD static constexpr int lane_of(int p) {
    int l = 0;
    for (int s = 0; s < M; ++s) l |= ((p >> s) & 1) << (4 - s);
    return l;
  }
  // The param this lane holds, and whether it is the lane that sends it.
  ARC_HD static constexpr int param_of(unsigned lane) {
    int p = 0;
    for (int s = 0; s < M; ++s) p |= static_cast<int>((lane >> (4 - s)) & 1u) << s;
    return p;
  }
  ARC_HD static constexpr bool sender(unsigned lane) { return (lane & ((1u << (5 - M)) - 1u)) == 0; }
  // Shuffles (each followed by one add): halving steps without all-padding slot pairs, the
  // plain steps, and the vector gathers. The Adaptive cost model uses it.
  static constexpr int shuffles() {
    int n = 0;
    for (int s = 0; s < M; ++s)
      for (int t = 0; t < (K >> (s + 1)); ++t)
        if (((2 * t) << s) < NP) ++n;
    return n + (5 - M) + (kVec - 1);
  }
};

}  // namespace arc::detail
