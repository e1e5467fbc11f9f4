// The order in which modules run within one cycle never changes a result (cosim/sim/clock.h):
// every hand-over becomes visible the next cycle, and state that several modules write in one
// cycle (a line's or an L2 slice's due times and queued words, shared by the ROP units) is read
// as it stood when the cycle began. Checked by running each case twice, the second time with
// every cycle's due modules run in reverse order: every statistic, the memory image and the
// commits must agree.
#include <gtest/gtest.h>

#include <string>

#include "clock.h"
#include "gpu_config.h"
#include "run.h"
#include "sim_fixture.h"

namespace arc::sim {
namespace {

// h100.toml as `arcsim sim --gpu h100` runs it (slices, line rules, 128-byte coalescing), on
// 16 SMs so that a few hundred instructions keep the ROP units and slices busy.
RunSpec h100_small(Mode mode) {
  RunSpec s;
  s.gpu = config::load_gpu("h100");
  s.knobs = s.gpu.knobs;
  s.gpu.sms = 16;
  s.mode = mode;
  s.record_commits = true;
  return s;
}

struct Case {
  const char* name;
  tracegen::GenConfig gen;
};

std::vector<Case> cases() {
  std::vector<Case> c;
  // Issue 16's shape: most warps on one word, the rest on <= 4 words; a small buffer, so that
  // runs of ops meet on slices and lines.
  tracegen::GenConfig mix = testing::hot(3000, 21);
  mix.sms = 16;
  mix.warps_per_subcore = 8;
  mix.sharing = tracegen::Sharing::Mix;
  mix.p_same = 0.9;
  mix.k = 4;
  mix.buffer_words = 4096;
  mix.gap_mean = 40;
  c.push_back({"mix", mix});
  // Lane l on word l % 8 of one random line: multi-word line requests on shared lines.
  tracegen::GenConfig line = mix;
  line.seed = 22;
  line.sharing = tracegen::Sharing::Line;
  line.k = 8;
  line.buffer_words = 1024;
  c.push_back({"line", line});
  return c;
}

TEST(SimOrder, RunningACyclesModulesInReverseChangesNothing) {
  int compared = 0;
  for (const Case& c : cases()) {
    const trace::Trace t = testing::synthetic(std::string("order-") + c.name, c.gen);
    for (Mode mode : {Mode::Baseline, Mode::SwS, Mode::SwB, Mode::SwT, Mode::Adaptive, Mode::ArcHw, Mode::Lab,
                      Mode::LabIdeal, Mode::Phi}) {
      const RunSpec s = h100_small(mode);
      detail::g_reverse_same_cycle = false;
      const RunResult fwd = run_isolated(s, t);
      detail::g_reverse_same_cycle = true;
      const RunResult rev = run_isolated(s, t);
      detail::g_reverse_same_cycle = false;
      SCOPED_TRACE(std::string(c.name) + " " + fwd.label);
      ASSERT_GT(fwd.stats.rop_requests, 0u);
      EXPECT_EQ(to_json(fwd.stats), to_json(rev.stats)) << "forward " << to_json(fwd.stats).dump()
                                                        << "\nreverse " << to_json(rev.stats).dump();
      EXPECT_EQ(fwd.image, rev.image);
      EXPECT_EQ(fwd.commits, rev.commits);
      ++compared;
    }
  }
  EXPECT_EQ(compared, 18);
}

}  // namespace
}  // namespace arc::sim

int sc_main(int argc, char* argv[]) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
