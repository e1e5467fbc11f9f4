// RunSpec::gap_issue_rate (issue 17): the compute between a warp's atomics also takes its
// sub-core's dispatch, rate x gap slots per gap, so SW reduction instructions (sw_inst_* knobs)
// and the workload's own compete for it, apart from the SW sequences' MIO port time. Rate 0 is the model without it (gaps are latency only); at
// rate 1 a sub-core's warps cannot compute side by side at all, so its run lasts at least the
// sum of its warps' gaps. The work is the same (requests, lane updates, SW cycles); only the
// order of the ROPs' float adds, and so the last bits of the image, may change with the timing.
#include <gtest/gtest.h>

#include <systemc>

#include <algorithm>
#include <map>

#include "run.h"
#include "sim_fixture.h"

namespace arc::sim {
namespace {

// 2 SMs x 4 sub-cores x 4 warps, long gaps (mean 300 cycles): with gaps as latency only the
// four warps of a sub-core compute side by side.
tracegen::GenConfig gappy(trace::Method m) {
  tracegen::GenConfig g;
  g.seed = 17;
  g.instructions = 4000;
  g.sms = 2;
  g.warps_per_subcore = 4;
  g.buffer_words = 1u << 14;
  g.sharing = tracegen::Sharing::Mix;
  g.p_same = 0.5;
  g.gap_mean = 300;
  g.method = m;
  return g;
}

RunSpec spec(Mode mode, double rate) {
  RunSpec s = testing::small_gpu();
  s.mode = mode;
  s.gap_issue_rate = rate;
  return s;
}

// The largest over sub-cores of the gaps its warps compute: what rate 1 serializes.
uint64_t busiest_subcore_gaps(const trace::Trace& t) {
  std::map<std::pair<uint32_t, uint32_t>, uint64_t> sum;
  for (const trace::Instr& in : t.instrs) sum[{in.sm, in.subcore}] += in.gap;
  uint64_t most = 0;
  for (const auto& [where, s] : sum) most = std::max(most, s);
  return most;
}

TEST(SimIssueRate, AnEmptyReservationCostsNothing) {
  // Baseline has no SW instructions, so at a rate too small to make a whole part of any gap
  // (1e-12) every reservation is empty and the dispatch must not move a cycle: the run equals
  // rate 0's, also for the gaps of 0 cycles (a gap-0 instruction issues the next cycle). Short
  // gaps (mean 2) make many of them.
  tracegen::GenConfig g = gappy(trace::Method::Baseline);
  g.gap_mean = 2;
  const trace::Trace t = testing::synthetic("issue-rate-tiny", g);
  uint64_t zero_gaps = 0;
  for (const trace::Instr& in : t.instrs) zero_gaps += in.gap == 0;
  EXPECT_GT(zero_gaps, t.instrs.size() / 10);
  const RunResult a = run_isolated(spec(Mode::Baseline, 0.0), t);
  const RunResult b = run_isolated(spec(Mode::Baseline, 1e-12), t);
  EXPECT_EQ(a.stats.total_cycles, b.stats.total_cycles);
  EXPECT_EQ(a.image, b.image);
  EXPECT_EQ(b.stats.dispatch_late_cycles, 0u);
}

TEST(SimIssueRate, RateOneSerializesASubcoresCompute) {
  const trace::Trace t = testing::synthetic("issue-rate-1", gappy(trace::Method::Baseline));
  const uint64_t gaps = busiest_subcore_gaps(t);
  const RunResult latency = run_isolated(spec(Mode::Baseline, 0.0), t);
  const RunResult issue = run_isolated(spec(Mode::Baseline, 1.0), t);
  EXPECT_EQ(latency.stats.requests_to_l2, issue.stats.requests_to_l2);
  EXPECT_EQ(latency.stats.lane_updates, issue.stats.lane_updates);
  EXPECT_GE(issue.stats.total_cycles, gaps);
  // Four warps per sub-core computed side by side without it.
  EXPECT_LT(latency.stats.total_cycles * 2, gaps);
}

TEST(SimIssueRate, SwInstructionsCompeteWithCompute) {
  // SW-S's instructions (here as many as its MIO cycles: no per-key cost) plus the compute's
  // share of the dispatch exceed what it gives: the run lasts at least a sub-core's average
  // dispatch work (SW slots + rate x gaps), which the model without the rate undercuts (one
  // warp's SW hidden under the others' compute for free); a higher rate is slower still.
  const trace::Trace t = testing::synthetic("issue-rate-sw", gappy(trace::Method::SwS));
  RunSpec base = spec(Mode::SwS, 0.0);
  base.knobs.sws_cycles_per_key = 0;
  base.knobs.sws_cycles_per_lane = base.knobs.sws_inst_per_lane = 40;  // dear enough to fill most of the port
  base.knobs.sws_cycles_per_lane_param = base.knobs.sws_inst_per_lane_param = 0;
  base.knobs.sw_inst_overhead = base.gpu.sw_overhead;
  RunSpec some = base, more = base;
  some.gap_issue_rate = 0.25;
  more.gap_issue_rate = 0.5;
  const RunResult r0 = run_isolated(base, t), r1 = run_isolated(some, t), r2 = run_isolated(more, t);
  EXPECT_EQ(r0.stats.requests_to_l2, r2.stats.requests_to_l2);
  EXPECT_EQ(r0.stats.sw_overhead_cycles, r2.stats.sw_overhead_cycles);  // the same SW work, later
  uint64_t all_gaps = 0;
  for (const trace::Instr& in : t.instrs) all_gaps += in.gap;
  const uint64_t subcores = 2 * 4;
  const double dispatch_work =
      (static_cast<double>(r2.stats.sw_overhead_cycles) + 0.5 * static_cast<double>(all_gaps)) / subcores;
  EXPECT_GE(static_cast<double>(r2.stats.total_cycles), dispatch_work);
  EXPECT_LT(static_cast<double>(r0.stats.total_cycles), dispatch_work);
  EXPECT_LT(r0.stats.total_cycles, r1.stats.total_cycles);
  EXPECT_LT(r1.stats.total_cycles, r2.stats.total_cycles);
}

TEST(SimIssueRate, MioTimeIsNotDispatch) {
  // The same SW-S cycles with no instructions (a match's time is MIO time, its instruction one
  // slot): the compute no longer waits behind them, so the run is faster than when they are
  // instructions too.
  const trace::Trace t = testing::synthetic("issue-rate-mio", gappy(trace::Method::SwS));
  RunSpec mio = spec(Mode::SwS, 0.5);
  mio.knobs.sws_cycles_per_key = 0;
  mio.knobs.sws_cycles_per_lane = 40;
  RunSpec both = mio;
  both.knobs.sws_inst_per_lane = 40;
  both.knobs.sw_inst_overhead = both.gpu.sw_overhead;
  const RunResult a = run_isolated(mio, t), b = run_isolated(both, t);
  EXPECT_EQ(a.stats.sw_overhead_cycles, b.stats.sw_overhead_cycles);
  EXPECT_LT(a.stats.total_cycles, b.stats.total_cycles);
}

}  // namespace
}  // namespace arc::sim

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
