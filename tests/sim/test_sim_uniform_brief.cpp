// A warp-uniform instruction of a timing-only trace (every active lane on one word, every value
// +0) is issued from its brief: the sub-core prices sw-s / sw-b / sw-t / adaptive from the
// lane count (uniform_shape), builds the SW modes' packet without the lanes, and hands the ARC
// unit only the mask and the word (InstrRef without lanes, golden::process_uniform_zero). Each
// run here is repeated with RunSpec::read_lanes (test only: every instruction unpacked, as
// before) and both must give identical statistics, memory image and (where recorded) commit
// order, streamed from the file as `arcsim sim` does, in every mode that takes the new paths,
// with and without coalescing, at both fidelities of the ARC unit.
#include <gtest/gtest.h>

#include <systemc>

#include <random>
#include <string>
#include <vector>

#include "golden.h"
#include "run.h"
#include "sim_fixture.h"
#include "stats.h"
#include "sw_cost.h"
#include "trace_source.h"

namespace arc::sim {
namespace {

using testing::hot;
using testing::small_gpu;
using testing::synthetic_file;

TEST(SimUniformBrief, ProcessUniformZeroIsProcessOfTheExpandedInstruction) {
  std::mt19937_64 rng(20261126);
  size_t checked = 0;
  for (int i = 0; i < 20000; ++i) {
    uint32_t mask = static_cast<uint32_t>(rng());
    if (i % 7 == 0) mask = 1u << (rng() % 32);  // one lane
    if (i % 11 == 0) mask = ~0u;
    if (mask == 0) mask = 1;
    const uint32_t addr = static_cast<uint32_t>(rng() % 100000);
    golden::WarpInstr wi;
    wi.active_mask = mask;
    for (int l = 0; l < 32; ++l) wi.addr[static_cast<size_t>(l)] = (mask >> l & 1) ? addr : static_cast<uint32_t>(rng());
    wi.value.fill(0);
    golden::SchedConfig cfg;
    cfg.mode = static_cast<golden::SchedMode>(rng() % 4);
    cfg.threshold = 1 + static_cast<uint32_t>(rng() % 33);
    const bool busy = rng() & 1;
    std::vector<golden::Transaction> brief;
    golden::process_uniform_zero(mask, addr, cfg, busy, brief);
    ASSERT_EQ(brief, golden::process(wi, cfg, busy)) << "mask " << mask << " mode " << golden::to_string(cfg.mode);
    ++checked;
  }
  std::printf("process_uniform_zero == process: %zu instructions\n", checked);
}

TEST(SimUniformBrief, SwCostFromTheBriefEqualsTheCostFromTheLanes) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 5000; ++i) {
    trace::Instr in;
    in.active_mask = static_cast<uint32_t>(rng()) | 1u;
    in.nparams = static_cast<uint8_t>(1 + rng() % 9);
    in.param = static_cast<uint8_t>(rng() % in.nparams);
    in.addr.fill(static_cast<uint32_t>(rng() % 5000));
    const CallShape lanes = shape_of(in), brief = uniform_shape(in.active_mask, in.param, in.nparams);
    ASSERT_EQ(lanes.groups, 1u);
    ASSERT_EQ(lanes.group_lanes, brief.group_lanes);
    for (Mode m : {Mode::SwS, Mode::SwB, Mode::SwT, Mode::Adaptive}) {
      SwCostSetup s;
      s.mode = m;
      s.sw_overhead = 40;
      s.sws_per_key = 8;
      s.sws_per_lane = 13;
      s.sws_per_lane_param = 5;
      s.swb_per_param = 9;
      s.threshold = 1 + static_cast<uint32_t>(rng() % 32);
      for (uint32_t vec : {1u, 4u}) ASSERT_EQ(sw_issue_cycles(s, in, vec), sw_issue_cycles(s, brief, vec)) << mode_name(m);
    }
  }
}

struct Case {
  Mode mode;
  golden::SchedMode sched;
  uint32_t coalesce_bytes;
  bool record_commits;  // also turns coalescing runs off (gpu_model.cpp)
  Fidelity fidelity;
};

TEST(SimUniformBrief, IssuingFromTheBriefGivesTheRunOfReadingEveryLane) {
  tracegen::GenConfig g = hot(2500, 31);
  g.timing_only = true;
  const std::string path = synthetic_file("uniform-brief", g);
  const TraceSummary summary = summarize(path);
  using golden::SchedMode;
  const std::vector<Case> cases = {
      {Mode::SwS, SchedMode::Dynamic, 0, false, Fidelity::Fast},
      {Mode::SwS, SchedMode::Dynamic, 128, false, Fidelity::Fast},
      {Mode::SwB, SchedMode::Dynamic, 128, false, Fidelity::Fast},
      {Mode::SwB, SchedMode::Dynamic, 0, true, Fidelity::Fast},
      {Mode::SwT, SchedMode::Dynamic, 128, false, Fidelity::Fast},
      {Mode::Adaptive, SchedMode::Dynamic, 128, false, Fidelity::Fast},
      {Mode::Adaptive, SchedMode::Dynamic, 0, true, Fidelity::Fast},
      {Mode::ArcHw, SchedMode::Dynamic, 128, false, Fidelity::Fast},
      {Mode::ArcHw, SchedMode::Never, 128, true, Fidelity::Fast},
      {Mode::ArcHw, SchedMode::Always, 0, false, Fidelity::Fast},
      {Mode::ArcHw, SchedMode::Threshold, 128, false, Fidelity::Fast},
      {Mode::ArcHw, SchedMode::Dynamic, 128, true, Fidelity::Rtl},
  };
  for (const Case& c : cases) {
    RunSpec s = small_gpu();
    s.mode = c.mode;
    s.sched = c.sched;
    s.threshold = 4;
    s.fidelity = c.fidelity;
    s.gpu.coalesce_bytes = c.coalesce_bytes;
    s.record_commits = c.record_commits;
    const RunResult brief = run_isolated(s, path, summary);
    s.read_lanes = true;
    const RunResult lanes = run_isolated(s, path, summary);
    const std::string what = s.label() + " coalesce " + std::to_string(c.coalesce_bytes) +
                             (c.record_commits ? " commits" : "") + " " + fidelity_name(c.fidelity);
    EXPECT_EQ(to_json(brief.stats).dump(), to_json(lanes.stats).dump()) << what;
    EXPECT_EQ(brief.image, lanes.image) << what;
    EXPECT_EQ(brief.commits, lanes.commits) << what;
    EXPECT_GT(brief.stats.instructions, 0u) << what;
  }
  std::printf("uniform brief: %zu runs, brief == lanes\n", cases.size());
}

}  // namespace
}  // namespace arc::sim

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
