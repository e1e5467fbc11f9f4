// Adaptive in the timing model (mode `adaptive`, issue 17): each call becomes the butterfly,
// SW-S at X = 2 or per-lane atomics by the CUDA code's own rule (arc/adaptive_rule.h), and is
// priced and reduced as that method.
#include <gtest/gtest.h>

#include <systemc>

#include "arc/adaptive_rule.h"
#include "run.h"
#include "sim_fixture.h"
#include "sw_cost.h"

namespace arc::sim {
namespace {

trace::Instr instr(uint32_t active, uint32_t keys, uint32_t nparams) {
  trace::Instr in;
  in.nparams = static_cast<uint8_t>(nparams);
  in.active_mask = active == 32 ? 0xFFFFFFFFu : (1u << active) - 1;
  for (uint32_t l = 0; l < 32; ++l) in.addr[l] = 64 * (l % keys);
  return in;
}

TEST(SimAdaptive, ChoicesFollowTheCudaRule) {
  using Rule = arc::detail::AdaptiveRule;
  // 3DGS: 9 values, a uniform full warp: the butterfly (n >= 12, reduce.cuh's comment).
  EXPECT_EQ(adaptive_choice(instr(32, 1, 9), 1), AdaptiveChoice::Tree);
  EXPECT_EQ(adaptive_choice(instr(11, 1, 9), 1), AdaptiveChoice::PerLane);
  EXPECT_EQ(adaptive_choice(instr(12, 1, 9), 1), AdaptiveChoice::Tree);
  // Several primitives: the match pays off for scalar RGBA (n >= 19), never for float4 tex.
  EXPECT_EQ(adaptive_choice(instr(32, 8, 4), 1), AdaptiveChoice::Groups);
  EXPECT_EQ(adaptive_choice(instr(18, 8, 4), 1), AdaptiveChoice::PerLane);
  EXPECT_EQ(adaptive_choice(instr(32, 8, 4), 4), AdaptiveChoice::PerLane);
  for (uint32_t n = 2; n <= 32; ++n)
    for (uint32_t np : {1u, 4u, 9u})
      for (uint32_t v : {1u, 4u}) {
        EXPECT_EQ(adaptive_choice(instr(n, 1, np), v) == AdaptiveChoice::Tree,
                  Rule::tree(static_cast<int>(n), static_cast<int>(np), static_cast<int>(v)));
        EXPECT_EQ(adaptive_choice(instr(n, 4, np), v) == AdaptiveChoice::Groups,
                  n >= 4 && Rule::match(static_cast<int>(n), static_cast<int>(np), static_cast<int>(v)));
      }
}

TEST(SimAdaptive, PricedAndReducedAsTheChosenMethod) {
  SwCostSetup s;
  s.mode = Mode::Adaptive;
  s.sw_overhead = 40;
  s.sws_per_key = 8;
  s.sws_per_lane = 13;
  trace::Instr tree = instr(32, 1, 9), groups = instr(32, 8, 4), lanes = instr(18, 8, 4);
  EXPECT_EQ(sw_issue_cycles(s, tree), 40u);
  tree.param = 3;
  EXPECT_EQ(sw_issue_cycles(s, tree), 40u) << "a butterfly per parameter";
  EXPECT_EQ(sw_issue_cycles(s, groups), 40u + 8 * 8 + 13 * 2) << "match of 8 keys, 2 tree levels (groups of 4)";
  groups.param = 1;
  EXPECT_EQ(sw_issue_cycles(s, groups), 13u * 2);
  s.mode = Mode::SwS;  // the same call under SW-S X=2: one serial step per lane beyond the first
  s.threshold = 2;
  EXPECT_EQ(sw_issue_cycles(s, groups), 13u * 3);
  s.mode = Mode::Adaptive;
  EXPECT_EQ(sw_issue_cycles(s, lanes), 40u) << "the uniform check only";
  lanes.param = 2;
  EXPECT_EQ(sw_issue_cycles(s, lanes), 0u);

  // In a run: uniform warps (full, 3DGS-like calls) reduce like sw-b at X = 12 does.
  tracegen::GenConfig g = testing::hot(1200, 5);
  g.sharing = tracegen::Sharing::Same;
  const trace::Trace t = testing::synthetic("adaptive", g);
  RunSpec r = testing::small_gpu();
  r.mode = Mode::Adaptive;
  const RunResult a = run_isolated(r, t);
  r.mode = Mode::SwB;
  r.threshold = 1;
  for (uint32_t n = 2; n <= 32 && !arc::detail::AdaptiveRule::tree(static_cast<int>(n), 1, 1); ++n) r.threshold = n + 1;
  const RunResult b = run_isolated(r, t);
  EXPECT_EQ(a.stats.requests_to_l2, b.stats.requests_to_l2);
  EXPECT_EQ(a.stats.groups_reduced_in_core, b.stats.groups_reduced_in_core);
  EXPECT_EQ(a.image, b.image);
  EXPECT_GT(a.stats.groups_reduced_in_core, 0u);
}

}  // namespace
}  // namespace arc::sim

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
