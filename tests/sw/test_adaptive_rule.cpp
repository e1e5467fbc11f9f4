// Adaptive rule v3 (issue 20; arc/adaptive_rule.h, used by arc::reduce): the thresholds its
// constants imply on the benchmark's call shapes, against the H100 sweeps they were fitted to
// (/work/devrun1 = scripts/gpu-bench-issue20.sh: gs, gs-garden, gs-object, gs-abs SW-B best
// X = 12; gs-il swb-v4 best X = 16 of 12, 16, 24; float4 tex best with no match at all).
#include <gtest/gtest.h>

#include "arc/adaptive_rule.h"

namespace {

using arc::detail::AdaptiveRule;

// The smallest n at which a uniform convergent warp takes the butterfly (33 = never).
int tree_from(int np, int vec) {
  for (int n = 1; n <= 32; ++n)
    if (AdaptiveRule::tree(n, np, vec)) return n;
  return 33;
}
// The smallest n at which a convergent warp with several primitives issues the match.
int match_from(int np, int vec) {
  for (int n = 1; n <= 32; ++n)
    if (AdaptiveRule::match(n, np, vec)) return n;
  return 33;
}

TEST(SwAdaptiveRule, ButterflyThresholds) {
  EXPECT_EQ(tree_from(9, 1), 12);   // gs, separate arrays (measured best X = 12)
  EXPECT_EQ(tree_from(11, 1), 12);  // gs-abs (measured best X = 12)
  EXPECT_EQ(tree_from(10, 1), 12);  // gs-depth (measured best X = 12)
  EXPECT_EQ(tree_from(9, 4), 16);   // gs-il float4 (measured best X = 16)
  EXPECT_EQ(tree_from(4, 4), 20);   // tex float4 (its calls are never uniform)
  EXPECT_FALSE(AdaptiveRule::tree(1, 9, 1));  // one lane never reduces
}

TEST(SwAdaptiveRule, ButterflyThresholdNotAtAnEdge) {
  // The fitted constants sit inside the intervals that give the measured thresholds (the
  // scalar one at its upper edge: c1 = 1/2 step is the largest value that keeps X = 12).
  for (int np : {9, 10, 11}) {
    EXPECT_FALSE(AdaptiveRule::tree(11, np, 1)) << np;
    EXPECT_TRUE(AdaptiveRule::tree(12, np, 1)) << np;
  }
  EXPECT_FALSE(AdaptiveRule::tree(15, 9, 4));
  EXPECT_TRUE(AdaptiveRule::tree(16, 9, 4));
  EXPECT_TRUE(AdaptiveRule::tree(16, 9, 2));  // float2: 5 requests per lane, earlier than float4
  EXPECT_LT(tree_from(9, 2), tree_from(9, 4));
}

TEST(SwAdaptiveRule, MatchOnlyWhereItCanPay) {
  EXPECT_EQ(match_from(4, 4), 33);  // tex float4: never (matching cost 7 % there, nothing reduced)
  EXPECT_EQ(match_from(4, 1), 19);  // tex scalar
  EXPECT_EQ(match_from(8, 1), 11);  // pulsar scalar: its full warps (98 % of calls) match
  EXPECT_EQ(match_from(8, 4), 18);  // pulsar float4: likewise
  EXPECT_FALSE(AdaptiveRule::match(2, 8, 1));  // two lanes: nothing to remove but one
}

}  // namespace
