// The two levels of the ARC unit, the Verilated RTL (rtl/arc_subcore_top) and the fast level
// (golden model + rtl_timing), give cycle-for-cycle and bit-for-bit the same run: every
// statistic, the memory image and the ROP commit order, for each scheduler mode, on synthetic
// traces with and without back-pressure.
#include <gtest/gtest.h>

#include <cstdio>
#include <systemc>

#include "gpu_config.h"
#include "run.h"
#include "sim_fixture.h"

namespace arc::sim {
namespace {

struct Case {
  const char* name;
  tracegen::GenConfig gen;
  bool tight;  // a small LSU queue and slow ROPs: constant back-pressure
};

TEST(SimFidelity, RtlAndFastLevelsAgreeCycleForCycleAndBitForBit) {
  std::vector<Case> cases;
  cases.push_back({"hot", testing::hot(4000, 7), false});
  auto spread = testing::hot(4000, 8);
  spread.sharing = tracegen::Sharing::K;
  spread.k = 8;
  spread.activity = tracegen::Activity::Uniform;
  spread.special_prob = 0.01;  // subnormals, infinities, NaN through the adder
  cases.push_back({"spread-specials", spread, false});
  cases.push_back({"hot-tight", testing::hot(3000, 9), true});
  int compared = 0, agreed = 0;
  for (const Case& c : cases) {
    const trace::Trace t = testing::synthetic(std::string("fidelity-") + c.name, c.gen);
    for (auto sm : {golden::SchedMode::Never, golden::SchedMode::Always, golden::SchedMode::Threshold,
                    golden::SchedMode::Dynamic}) {
      RunSpec s = testing::small_gpu();
      if (c.tight) {
        s.gpu.rop_units = 2;
        s.gpu.lsu_issue_per_cycle = 1;
        s.knobs.rop_queue_depth = 4;
      }
      s.mode = Mode::ArcHw;
      s.sched = sm;
      s.threshold = 3;
      s.record_commits = true;
      s.fidelity = Fidelity::Fast;
      const RunResult fast = run_isolated(s, t);
      s.fidelity = Fidelity::Rtl;
      const RunResult rtl = run_isolated(s, t);
      SCOPED_TRACE(std::string(c.name) + " " + fast.label);
      const bool same_stats = to_json(fast.stats) == to_json(rtl.stats);
      const bool same_image = fast.image == rtl.image;
      const bool same_commits = fast.commits == rtl.commits;
      EXPECT_TRUE(same_stats) << "fast " << to_json(fast.stats).dump() << "\nrtl  " << to_json(rtl.stats).dump();
      EXPECT_TRUE(same_image);
      EXPECT_TRUE(same_commits);
      if (c.tight) {
        EXPECT_GT(fast.stats.lsu_full_rejects, 0u) << "the tight case must back-pressure the ARC unit";
      }
      ++compared;
      if (same_stats && same_image && same_commits) ++agreed;
      std::printf("  %-16s %-20s cycles fast %8llu rtl %8llu  cpu fast %.2fs rtl %.2fs\n", c.name,
                  fast.label.c_str(), static_cast<unsigned long long>(fast.stats.total_cycles),
                  static_cast<unsigned long long>(rtl.stats.total_cycles), fast.cpu_seconds, rtl.cpu_seconds);
    }
  }
  std::printf("sim fidelity: %d passed, %d failed\n", agreed, compared - agreed);
}

TEST(SimFidelity, BundledH100TraceAllModesBothLevels) {
  // The real trace captured on an H100 (tests/data, by the CUDA capture in sw/): every mode
  // runs; ARC-HW gives the same result at both levels; all images are the GPU's within bound.
  const trace::Trace t = trace::read_trace(ARCSIM_DATA_DIR "/gs-sws-h100.arctrace");
  RunSpec s;
  s.gpu = config::load_gpu("h100");
  s.record_commits = true;
  int compared = 0, agreed = 0;
  for (Mode m : {Mode::Baseline, Mode::SwS, Mode::SwB}) {
    s.mode = m;
    const RunResult r = run_isolated(s, t);
    EXPECT_EQ(r.stats.instructions, t.instrs.size());
    EXPECT_GT(r.stats.total_cycles, 0u);
    std::printf("  h100 trace %-20s cycles %8llu\n", r.label.c_str(), static_cast<unsigned long long>(r.stats.total_cycles));
  }
  s.mode = Mode::ArcHw;
  for (auto sm : {golden::SchedMode::Never, golden::SchedMode::Always, golden::SchedMode::Threshold,
                  golden::SchedMode::Dynamic}) {
    s.sched = sm;
    s.fidelity = Fidelity::Fast;
    const RunResult fast = run_isolated(s, t);
    s.fidelity = Fidelity::Rtl;
    const RunResult rtl = run_isolated(s, t);
    const bool same = to_json(fast.stats) == to_json(rtl.stats) && fast.image == rtl.image &&
                      fast.commits == rtl.commits;
    EXPECT_TRUE(same) << fast.label;
    ++compared;
    if (same) ++agreed;
    std::printf("  h100 trace %-20s cycles fast %8llu rtl %8llu\n", fast.label.c_str(),
                static_cast<unsigned long long>(fast.stats.total_cycles),
                static_cast<unsigned long long>(rtl.stats.total_cycles));
  }
  std::printf("sim fidelity (H100 trace): %d passed, %d failed\n", agreed, compared - agreed);
}

}  // namespace
}  // namespace arc::sim

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
