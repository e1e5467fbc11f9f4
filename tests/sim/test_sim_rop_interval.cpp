// rop_same_addr_interval (issue 17): a word accepts its next atomic that many cycles after the
// last one started, and the interval may be a fraction (the H100's hotspot: 3.47 cycles per
// same-word atomic). With every lane of the chip on one word, the run takes the word's ops
// times the interval: a whole interval exactly, a fractional one on average (each op starts at
// the first whole cycle at or after its due time), never the interval rounded either way.
#include <gtest/gtest.h>

#include <systemc>

#include "run.h"
#include "sim_fixture.h"

namespace arc::sim {
namespace {

// 4 SMs, 600 instructions of 32 lanes, every lane on word 0: 19,200 ops on one word.
tracegen::GenConfig one_word() {
  tracegen::GenConfig g;
  g.seed = 5;
  g.instructions = 600;
  g.sms = 4;
  g.buffer_words = 1;
  g.activity = tracegen::Activity::Full;
  g.sharing = tracegen::Sharing::Same;
  g.gap_mean = 0;
  g.special_prob = 0.0;
  g.method = trace::Method::Baseline;
  return g;
}

RunSpec with_interval(double cycles) {
  RunSpec s = testing::small_gpu();
  s.knobs.rop_same_addr_interval = cycles;
  return s;
}

TEST(SimRopInterval, OneWordTakesItsOpsTimesTheInterval) {
  const trace::Trace t = testing::synthetic("interval", one_word());
  const double ops = 600.0 * 32;
  // The fixed part: the first request's trip to the ROP and the last op's latency.
  const double slack = 400;
  for (double interval : {3.0, 3.47, 4.0}) {
    const RunResult r = run_isolated(with_interval(interval), t);
    EXPECT_EQ(r.stats.rop_ops, 600u * 32);
    const double cycles = static_cast<double>(r.stats.total_cycles);
    EXPECT_GE(cycles, (ops - 1) * interval) << "interval " << interval;
    EXPECT_LE(cycles, (ops - 1) * interval + slack) << "interval " << interval;
  }
  // 3.47 is neither 3 nor 4: it lands 47% of the way from one to the other.
  const double c3 = static_cast<double>(run_isolated(with_interval(3.0), t).stats.total_cycles);
  const double c4 = static_cast<double>(run_isolated(with_interval(4.0), t).stats.total_cycles);
  const double c = static_cast<double>(run_isolated(with_interval(3.47), t).stats.total_cycles);
  EXPECT_NEAR((c - c3) / (c4 - c3), 0.47, 0.01);
}

// rop_same_line_interval: requests carrying several words of one line start at least that far
// apart (the H100's hot line: ~5 cycles per 32-word request); a one-word request ignores it.
tracegen::GenConfig one_line() {
  tracegen::GenConfig g = one_word();
  g.buffer_words = 32;
  g.sharing = tracegen::Sharing::Line;
  g.k = 32;  // lane l on word l: each instruction is one 32-word request
  return g;
}

RunSpec with_line(double cycles) {
  RunSpec s = with_interval(3.47);
  s.gpu.coalesce_bytes = 128;
  s.knobs.rop_same_line_interval = cycles;
  return s;
}

TEST(SimRopInterval, AHotLineTakesItsRequestsTimesTheLineInterval) {
  const trace::Trace t = testing::synthetic("line", one_line());
  const double requests = 600;
  const RunResult off = run_isolated(with_line(0), t);
  const RunResult ten = run_isolated(with_line(10), t);
  const RunResult frac = run_isolated(with_line(10.5), t);
  EXPECT_EQ(ten.stats.rop_requests, 600u);
  EXPECT_LT(off.stats.total_cycles, (requests - 1) * 10) << "without it, the request's bytes set a faster pace";
  EXPECT_GE(ten.stats.total_cycles, (requests - 1) * 10);
  EXPECT_LE(ten.stats.total_cycles, (requests - 1) * 10 + 400);
  EXPECT_GE(frac.stats.total_cycles, (requests - 1) * 10.5);
  EXPECT_LE(frac.stats.total_cycles, (requests - 1) * 10.5 + 400);
}

TEST(SimRopInterval, TheLineIntervalLeavesOneWordRequestsAlone) {
  const trace::Trace t = testing::synthetic("interval", one_word());
  RunSpec s = with_line(10);
  EXPECT_EQ(run_isolated(s, t).stats.total_cycles, run_isolated(with_line(0), t).stats.total_cycles);
}

}  // namespace
}  // namespace arc::sim

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
