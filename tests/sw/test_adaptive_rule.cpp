// Adaptive rule v2 (issue 20; arc/adaptive_rule.h, used by arc::reduce): the thresholds its
// weights imply on the benchmark's call shapes, against the H100 measurements they were fitted
// to (results/h100/issue20-23: gs SW-B best X = 12, gs-il swb-v4 best X = 16, tex float4 best
// with little reduction, divergent pulsar best with every pair reduced).
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

TEST(SwAdaptiveRule, ButterflyThresholds) {
  EXPECT_EQ(tree_from(9, 1), 12);   // gs, separate arrays (measured best X = 12)
  EXPECT_EQ(tree_from(11, 1), 12);  // gs-abs (measured best X = 12)
  EXPECT_EQ(tree_from(10, 1), 12);  // gs-depth
  EXPECT_EQ(tree_from(9, 4), 17);   // gs-il float4 (measured best X = 16)
  EXPECT_EQ(tree_from(4, 4), 22);   // tex float4: little reduction
  EXPECT_FALSE(AdaptiveRule::tree(1, 9, 1));  // one lane never reduces
}

TEST(SwAdaptiveRule, MatchOnlyWhereItCanPay) {
  for (int n = 2; n <= 32; ++n) EXPECT_FALSE(AdaptiveRule::match(n, 4, 4)) << n;  // tex float4: never
  EXPECT_FALSE(AdaptiveRule::match(18, 4, 1));
  EXPECT_TRUE(AdaptiveRule::match(19, 4, 1));  // tex scalar: from 19 active lanes
}

TEST(SwAdaptiveRule, SerialSums) {
  // Divergent (pulsar): every group of >= 2 lanes (ties reduce), whatever the vector width.
  EXPECT_TRUE(AdaptiveRule::serial(false, 10, 9, 2, 8, 4));  // one pair among singles
  EXPECT_TRUE(AdaptiveRule::serial(false, 6, 1, 6, 8, 1));   // one group (uniform)
  // Convergent: only when the requests removed outweigh the largest group's loop.
  EXPECT_FALSE(AdaptiveRule::serial(true, 10, 9, 2, 4, 1));  // 1 request pair saved < 4 steps
  EXPECT_TRUE(AdaptiveRule::serial(true, 32, 4, 8, 4, 1));   // 28 x 4 > 2 x 7 x 4
  EXPECT_FALSE(AdaptiveRule::serial(true, 32, 4, 8, 4, 4));  // float4: 28 x 2 < 56
}

}  // namespace
