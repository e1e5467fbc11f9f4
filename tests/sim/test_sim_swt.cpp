// The transposed reduce-scatter in the timing model (mode sw-t, issue 23): its shuffle count is
// the CUDA code's (sw/include/arc/swt_shape.h), its issue cost follows sw_cost.h, and a reduced
// call of NP parameters leaves as ONE packet (coalesced per granule) where sw-b sends NP, with
// the same sums in memory.
#include <gtest/gtest.h>

#include <random>
#include <systemc>
#include <utility>

#include "arc/swt_shape.h"
#include "run.h"
#include "sim_fixture.h"
#include "sw_cost.h"

namespace arc::sim {
namespace {

template <int NP>
void expect_same_shuffles_one() {
  EXPECT_EQ(swt_shuffles(NP), static_cast<uint32_t>(arc::detail::SwtShape<NP, 1>::shuffles())) << "nparams " << NP;
}

template <int... NP>
void expect_same_shuffles(std::integer_sequence<int, NP...>) {
  (expect_same_shuffles_one<NP + 1>(), ...);
}

TEST(SimSwt, ShuffleCountIsTheCudaCodes) {
  expect_same_shuffles(std::make_integer_sequence<int, 32>{});
  EXPECT_EQ(swt_shuffles(1), 5u);  // one parameter: the butterfly
  EXPECT_EQ(swt_shuffles(9), 12u);  // 3DGS
}

// A call of `np` parameters by a full warp; lanes 0..active-1 active; every active lane on
// primitive `prim` (uniform) unless `split`, then lane 0 on another one.
std::vector<trace::Instr> call(uint32_t np, uint32_t active, uint32_t prim, bool split, uint32_t stride) {
  std::vector<trace::Instr> out;
  for (uint32_t p = 0; p < np; ++p) {
    trace::Instr in;
    in.param = static_cast<uint8_t>(p);
    in.nparams = static_cast<uint8_t>(np);
    in.active_mask = active == 32 ? 0xFFFFFFFFu : (1u << active) - 1;
    for (uint32_t l = 0; l < 32; ++l) {
      in.addr[l] = p * stride + prim + (split && l == 0 ? 1 : 0);
      in.value[l] = 0x3f800000u + l + 7 * p;  // 1.0 + a few ulps: exact sums differ by order
    }
    out.push_back(in);
  }
  return out;
}

TEST(SimSwt, IssueCyclesPerMode) {
  SwCostSetup s;
  s.sw_overhead = 40;
  s.threshold = 2;
  const auto uni = call(9, 32, 5, false, 4096), split = call(9, 32, 5, true, 4096), one = call(1, 32, 5, false, 4096);
  auto total = [&](Mode m, const std::vector<trace::Instr>& c) {
    s.mode = m;
    Cycle t = 0;
    for (const auto& in : c) t += sw_issue_cycles(s, in);
    return t;
  };
  EXPECT_EQ(total(Mode::SwB, uni), 9u * 40u);         // a butterfly per parameter
  EXPECT_EQ(total(Mode::SwT, uni), (40u * 12 + 2) / 5);  // 12 exchange steps of 40 / 5 cycles
  EXPECT_EQ(total(Mode::SwB, one), 40u);
  EXPECT_EQ(total(Mode::SwT, one), 40u);             // one parameter: the same code
  EXPECT_EQ(total(Mode::SwB, split), 40u);           // not reduced: the check only
  EXPECT_EQ(total(Mode::SwT, split), 40u);
  EXPECT_EQ(total(Mode::Baseline, uni), 0u);
  s.threshold = 33;  // never reached: nothing reduced
  EXPECT_EQ(total(Mode::SwT, uni), 40u);
}

// 4 SMs x 4 sub-cores x 2 warps, each warp `calls` calls of NP = 9, every call on its own
// primitive (so every word's sums arrive in one order); every third call has a split warp (not
// reduced). Separate arrays, or one interleaved record of 16 words per primitive.
trace::Trace calls_trace(bool interleaved, uint32_t calls) {
  const uint32_t prims = 4 * 8 * calls;
  const uint32_t stride = interleaved ? 1 : 16 * prims + 16;
  trace::Trace t;
  t.header.gpu_name = "test";
  t.header.sm_count = 4;
  t.header.subcores_per_sm = 4;
  t.header.buffer_words = interleaved ? 16 * prims + 16 : 9 * stride;
  uint32_t prim = 0;
  for (uint32_t sm = 0; sm < 4; ++sm)
    for (uint32_t w = 0; w < 8; ++w)
      for (uint32_t i = 0; i < calls; ++i) {
        auto c = call(9, i % 4 == 0 ? 32 : 20 + i % 12, prim++ * 16, i % 3 == 2, stride);
        for (auto& in : c) {
          in.sm = sm;
          in.subcore = w % 4;
          in.warp = w;
          in.seq = static_cast<uint64_t>(i) * 9 + in.param;
          in.gap = in.param == 0 ? 30 : 0;
          in.flags = i == 0 && in.param == 0 ? trace::kFlagFirstOfWarp : 0;
          t.instrs.push_back(in);
        }
      }
  t.final_buffer.assign(t.header.buffer_words, 0);
  return t;
}

TEST(SimSwt, OneRequestPacketPerReducedCallSameMemory) {
  for (bool interleaved : {false, true}) {  // separate arrays, then one record (coalesces)
    SCOPED_TRACE(interleaved ? "interleaved" : "separate arrays");
    const uint32_t calls = 12;
    const trace::Trace t = calls_trace(interleaved, calls);
    RunSpec s = testing::small_gpu();
    s.gpu.coalesce_bytes = 128;
    s.threshold = 2;
    s.mode = Mode::SwB;
    const RunResult b = run_isolated(s, t);
    s.mode = Mode::SwT;
    const RunResult r = run_isolated(s, t);
    const uint64_t n_calls = 4 * 8 * calls, reduced = n_calls - 4 * 8 * (calls / 3);
    EXPECT_EQ(b.stats.groups_reduced_in_core, reduced * 9);
    EXPECT_EQ(r.stats.groups_reduced_in_core, reduced * 9);
    EXPECT_EQ(r.stats.lane_adds_in_core, b.stats.lane_adds_in_core);
    EXPECT_EQ(r.stats.rop_ops, b.stats.rop_ops);
    EXPECT_EQ(r.image, b.image) << "the same butterfly sums reach memory";
    // sw-b: one request per reduced parameter; sw-t: the call's 9 sums in one packet, one
    // request per 128 B granule they touch (9 with separate arrays, 1 interleaved).
    const uint64_t unreduced = b.stats.requests_to_l2 - reduced * 9;
    EXPECT_EQ(r.stats.requests_to_l2, unreduced + reduced * (interleaved ? 1 : 9));
    EXPECT_LT(r.stats.sw_overhead_cycles, b.stats.sw_overhead_cycles) << "12 steps instead of 45";
  }
}

}  // namespace
}  // namespace arc::sim

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
