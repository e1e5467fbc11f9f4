// lsu_cycles_per_instruction (issue 17): an SM's LSU starts at most one warp-level atomic per that
// many cycles, whatever its lanes. One-lane instructions are then paced at exactly that rate (the
// H100's 1-active-lane microbenchmark); 32-lane ones, which keep the SM link busy for 32 cycles
// each, barely notice; the memory image never changes.
#include <gtest/gtest.h>

#include <systemc>

#include "run.h"
#include "sim_fixture.h"

namespace arc::sim {
namespace {

tracegen::GenConfig lanes(uint32_t active) { return testing::first_lanes(active, 11, 2000, 1); }

RunSpec paced(uint32_t cycles) {
  RunSpec s = testing::small_gpu();
  s.gpu.lsu_issue_per_cycle = 2;
  s.gpu.icnt_flits_per_cycle = 1;
  s.knobs.lsu_cycles_per_instruction = cycles;
  return s;
}

TEST(SimPacing, OneLaneInstructionsLeaveAtThePacedRate) {
  const trace::Trace t = testing::synthetic("pace-1", lanes(1));
  const RunResult unpaced = run_isolated(paced(0), t);
  const RunResult five = run_isolated(paced(5), t);
  EXPECT_EQ(five.image, unpaced.image);
  EXPECT_EQ(five.stats.requests_to_l2, unpaced.stats.requests_to_l2);
  // 2000 instructions, one every 5 cycles, plus the last one's trip through crossbar and ROP.
  EXPECT_GE(five.stats.total_cycles, 5u * 1999);
  EXPECT_LE(five.stats.total_cycles, 5u * 2000 + 400);
  EXPECT_LT(unpaced.stats.total_cycles * 2, five.stats.total_cycles) << "unpaced: ~1 request per cycle";
}

TEST(SimPacing, FullWarpsBarelyNotice) {
  const trace::Trace t = testing::synthetic("pace-32", lanes(32));
  const RunResult unpaced = run_isolated(paced(0), t);
  const RunResult five = run_isolated(paced(5), t);
  EXPECT_EQ(five.image, unpaced.image);
  EXPECT_LE(five.stats.total_cycles, unpaced.stats.total_cycles * 102 / 100);
}

}  // namespace
}  // namespace arc::sim

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
