// The order in which modules run within one cycle never changes a result (cosim/sim/clock.h):
// every hand-over becomes visible the next cycle, and state that several modules write in one
// cycle (a line's or an L2 slice's due times and queued words, shared by the ROP units) is read
// as it stood when the cycle began. Checked by running each case twice, the second time with
// every cycle's due modules run in reverse order: every statistic, the memory image and the
// commits must agree.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

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
  tracegen::GenConfig mix = testing::hot(3000, 21);  // mix of one word and <= 4 words, 4096 words
  mix.sms = 16;
  mix.warps_per_subcore = 8;
  mix.p_same = 0.9;
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


// A ROP unit looks ahead past a request that waits on its word: a request on a free word that
// becomes visible behind it starts then, not when the word ahead frees. The case that was lost:
// request C (word 0, waiting out A's run of 32 ops) is pushed, then B (word 256, same unit) a
// few cycles later; B's push asked for a wake after C's, so only C's wake was kept, and at C's
// the unit, seeing nothing startable, slept until word 0 was free (~110 cycles): B then
// started after C. B's lane must commit before any of C's, for every spacing of B behind C.
TEST(SimOrder, ARequestOnAFreeWordStartsWhenVisibleBehindAWaitingOne) {
  auto bits = [](float f) {
    uint32_t b;
    std::memcpy(&b, &f, sizeof b);
    return b;
  };
  int checked = 0;
  for (uint32_t gap = 0; gap <= 100; ++gap) {
    trace::Trace t;
    t.header.gpu_name = "test";
    t.header.sm_count = 4;
    t.header.subcores_per_sm = 4;
    t.header.buffer_words = 512;
    uint64_t seq0 = 0, seq1 = 0;
    // A, then C: SM 0, every lane on word 0 (values 1 and 2).
    testing::push_call(t, seq0, {0, 0, 0, 0xFFFFFFFFu, 0, 1, true}, [](uint32_t, uint32_t) { return 0u; },
                       [&](uint32_t, uint32_t) { return bits(1.0f); });
    testing::push_call(t, seq0, {0, 0, 0, 0xFFFFFFFFu, 0, 1, false}, [](uint32_t, uint32_t) { return 0u; },
                       [&](uint32_t, uint32_t) { return bits(2.0f); });
    // B: SM 1, one lane on word 256 (line 8: unit 0 of 8, as word 0), value 3, `gap` cycles in.
    testing::push_call(t, seq1, {1, 0, 0, 0x1u, gap, 1, true}, [](uint32_t, uint32_t) { return 256u; },
                       [&](uint32_t, uint32_t) { return bits(3.0f); });
    RunSpec s = testing::small_gpu();
    s.gpu.coalesce_bytes = 128;  // A and C: one request of 32 ops each
    s.knobs.rop_window = 4;
    s.knobs.rop_same_addr_interval = 3.47;
    s.record_commits = true;
    const RunResult r = run_isolated(s, t);
    SCOPED_TRACE("B's gap " + std::to_string(gap));
    const auto& c = r.commits;
    const auto b_at = std::find(c.begin(), c.end(), std::make_pair(256u, bits(3.0f)));
    const auto c_at = std::find(c.begin(), c.end(), std::make_pair(0u, bits(2.0f)));
    ASSERT_NE(b_at, c.end());
    ASSERT_NE(c_at, c.end());
    EXPECT_LT(b_at - c.begin(), c_at - c.begin());
    ++checked;
  }
  EXPECT_EQ(checked, 101);
}

}  // namespace
}  // namespace arc::sim

int sc_main(int argc, char* argv[]) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
