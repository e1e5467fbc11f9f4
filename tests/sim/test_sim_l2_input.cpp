// l2_input_bytes_per_cycle (issue 17, an experiment kept as a knob): the L2 side takes at most
// that many bytes per cycle from all crossbar ports together. With every lane on its own word
// (one 32-byte request each) the chip's lane rate stays at or under the cap's requests per
// cycle and comes near it once the SMs and units could go faster; 0 leaves the units' own rate.
#include <gtest/gtest.h>

#include <systemc>

#include "run.h"
#include "sim_fixture.h"
#include "trace.h"

namespace arc::sim {
namespace {

tracegen::GenConfig distinct_words() {
  tracegen::GenConfig g;
  g.seed = 11;
  g.instructions = 800;
  g.sms = 16;
  g.buffer_words = 1 << 20;
  g.activity = tracegen::Activity::Full;
  g.sharing = tracegen::Sharing::Distinct;
  g.gap_mean = 0;
  g.special_prob = 0.0;
  g.method = trace::Method::Baseline;
  return g;
}

double lanes_per_cycle(int64_t cap_bytes, const trace::Trace& t) {
  RunSpec s = testing::small_gpu();
  s.gpu.sms = 16;
  s.knobs.l2_input_bytes_per_cycle = cap_bytes;
  const RunResult r = run_isolated(s, t);
  EXPECT_EQ(r.stats.rop_ops, t.instrs.size() * 32);
  return static_cast<double>(r.stats.rop_ops) / static_cast<double>(r.stats.total_cycles);
}

TEST(SimL2Input, ChipWideCapBoundsTheLaneRate) {
  const trace::Trace t = testing::synthetic("l2input", distinct_words());
  const double free_rate = lanes_per_cycle(0, t);  // 16 SM links, 8 units: the units' 8 per cycle
  EXPECT_GT(free_rate, 6.0);
  for (int64_t flits : {2, 4}) {
    const double capped = lanes_per_cycle(32 * flits, t);
    EXPECT_LE(capped, static_cast<double>(flits)) << flits << " flits per cycle";
    EXPECT_GE(capped, 0.9 * static_cast<double>(flits)) << flits << " flits per cycle";
  }
  // A cap above what the units take changes nothing but the arrival order's bookkeeping.
  EXPECT_NEAR(lanes_per_cycle(32 * 64, t), free_rate, 0.02 * free_rate);
}

}  // namespace
}  // namespace arc::sim

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
