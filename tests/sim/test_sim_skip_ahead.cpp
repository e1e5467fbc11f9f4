// Skip-ahead must not change a result. The LSU sleeps while its queue and its crossbar input
// are both full (lsu.h): packets reaching its ports then do not wake it, and its next step
// counts the refused port-cycles in between. Here every LSU is also run stepping every cycle
// (RunSpec::lsu_every_cycle, test only), and both runs must give identical statistics
// (lsu_full_rejects included), memory image and commit order, over modes whose ports are fed
// by sub-cores, ARC units and the SM-side buffers, with and without coalescing and pacing.
#include <gtest/gtest.h>

#include <systemc>

#include <string>
#include <vector>

#include "run.h"
#include "sim_fixture.h"
#include "stats.h"

namespace arc::sim {
namespace {

using testing::hot;
using testing::small_gpu;
using testing::synthetic;

struct Case {
  Mode mode;
  bool spread;  // the trace whose lanes mostly hit distinct words (else the hot one)
  uint32_t coalesce_bytes;
  uint32_t cycles_per_instruction;  // LSU pacing (0 = none)
};

TEST(SimSkipAhead, AnLsuThatSleepsGivesTheRunOfOneSteppingEveryCycle) {
  // A hot trace (70% of the instructions on one address each, 4 SMs onto 8 ROP units): the
  // ROP units back up into the crossbar and the LSU queues, so the LSUs do fall asleep. Modes
  // that reduce such a trace in the SM get one of up to 32 addresses per instruction instead.
  const trace::Trace hot_trace = synthetic("skip-ahead", hot(3000, 11));
  tracegen::GenConfig g = hot(3000, 12);
  g.p_same = 0.0;
  g.k = 32;
  const trace::Trace spread_trace = synthetic("skip-ahead-spread", g);
  const std::vector<Case> cases = {
      {Mode::Baseline, false, 0, 0}, {Mode::Baseline, false, 128, 2}, {Mode::SwS, true, 0, 0},
      {Mode::SwB, false, 0, 2},      {Mode::ArcHw, false, 128, 2},    {Mode::Phi, true, 0, 2},
      {Mode::Adaptive, false, 0, 0},
  };
  uint64_t refused = 0;
  for (const Case& c : cases) {
    RunSpec s = small_gpu();
    s.mode = c.mode;
    s.gpu.coalesce_bytes = c.coalesce_bytes;
    s.knobs.lsu_cycles_per_instruction = c.cycles_per_instruction;
    s.record_commits = true;
    const trace::Trace& t = c.spread ? spread_trace : hot_trace;
    const RunResult sleeping = run_isolated(s, t);
    s.lsu_every_cycle = true;
    const RunResult stepping = run_isolated(s, t);
    const std::string what = s.label() + " coalesce " + std::to_string(c.coalesce_bytes) + " pacing " +
                             std::to_string(c.cycles_per_instruction);
    EXPECT_EQ(to_json(sleeping.stats).dump(), to_json(stepping.stats).dump()) << what;
    EXPECT_EQ(sleeping.image, stepping.image) << what;
    EXPECT_EQ(sleeping.commits, stepping.commits) << what;
    EXPECT_GT(sleeping.stats.lsu_full_rejects, 0u) << what << ": the queues never filled, so nothing slept";
    refused += sleeping.stats.lsu_full_rejects;
  }
  std::printf("skip-ahead: %zu runs, sleeping LSUs == every-cycle LSUs (%llu refused port-cycles in all)\n",
              cases.size(), static_cast<unsigned long long>(refused));
}

}  // namespace
}  // namespace arc::sim

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
