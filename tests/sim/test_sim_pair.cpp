// Adaptive rule v5's pair send in the timing model (issue 20; cosim/sim/pair_regroup.h): a
// Baseline or Floor trace's pair calls (trace::kFlagPairCall) are replayed in adaptive mode as
// the CUDA code sends them (sw/include/arc/pair_reduce.cuh): lane L of instruction r carries
// record L % 2 of lane 16 r + L / 2, and a lane whose next lane is on its word and is not a run's
// third takes that lane's value. Every other mode replays the records as they are.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>
#include <systemc>
#include <vector>

#include "error.h"
#include "golden.h"
#include "pair_regroup.h"
#include "run.h"
#include "sim_fixture.h"
#include "sw_cost.h"
#include "trace.h"
#include "trace_source.h"

namespace arc::sim {
namespace {

// The CUDA code's rule, written as its lane loop (second: the lane before is active on the same
// word and the lane before that is not; a taker: the next lane is a second).
uint32_t cuda_takers(uint32_t act, const std::array<uint32_t, 32>& at) {
  bool second[32] = {};
  for (int l = 0; l < 32; ++l)
    second[l] = (act >> l & 1) && l >= 1 && (act >> (l - 1) & 1) && at[l - 1] == at[l] &&
                !(l >= 2 && (act >> (l - 2) & 1) && at[l - 2] == at[l]);
  uint32_t t = 0;
  for (int l = 0; l < 31; ++l)
    if (second[l + 1]) t |= 1u << l;
  return t;
}

TEST(SimPair, TakersFollowTheCudaRule) {
  trace::Instr in;
  in.active_mask = 0xFFFFFFFFu;
  for (int l = 0; l < 32; ++l) in.addr[l] = static_cast<uint32_t>(100 + l);
  EXPECT_EQ(pair_takers(in), 0u) << "no two lanes on one word";
  in.addr[5] = in.addr[4];  // a run of 2: lane 4 takes lane 5
  EXPECT_EQ(pair_takers(in), 1u << 4);
  in.addr[6] = in.addr[4];  // a run of 3: lane 6 sends its own
  EXPECT_EQ(pair_takers(in), 1u << 4);
  in.addr[7] = in.addr[4];  // a run of 4: lanes 6 and 7 send their own (a third stops the pairing)
  EXPECT_EQ(pair_takers(in), 1u << 4);
  in.addr[31] = in.addr[30];
  EXPECT_EQ(pair_takers(in), (1u << 4) | (1u << 30));
  in.active_mask &= ~(1u << 30);  // an inactive lane pairs with nothing
  EXPECT_EQ(pair_takers(in), 1u << 4);
  in.active_mask &= ~(1u << 5);  // lanes 4 and 6 on one word, 5 between them inactive
  EXPECT_EQ(pair_takers(in), 1u << 6) << "lane 6 takes lane 7 (lane 5 inactive breaks the run)";
  // Random masks and words from a few values (many runs): against the lane loop.
  std::mt19937 rng(20);
  size_t takers = 0;
  for (int i = 0; i < 20000; ++i) {
    in.active_mask = static_cast<uint32_t>(rng()) | static_cast<uint32_t>(rng());
    for (int l = 0; l < 32; ++l) in.addr[l] = rng() % (1 + i % 5);
    const uint32_t want = cuda_takers(in.active_mask, in.addr);
    ASSERT_EQ(pair_takers(in), want) << "mask " << std::hex << in.active_mask;
    takers += static_cast<size_t>(__builtin_popcount(want));
  }
  EXPECT_GT(takers, 20000u);
}

// The pair send's price (sw_cost.h): its shuffles at a fifth of sw_overhead each (6 at param 0,
// 2.5 per further param), nothing for an empty half; only in adaptive mode.
TEST(SimPair, PricedByItsShuffles) {
  SwCostSetup s;
  s.mode = Mode::Adaptive;
  s.sw_overhead = 40;
  trace::Instr in;
  in.active_mask = 0xFFFFu;
  in.nparams = 4;
  in.flags = trace::kFlagPairSum;
  for (int l = 0; l < 32; ++l) in.addr[l] = static_cast<uint32_t>(l);
  EXPECT_EQ(sw_issue_cycles(s, in), 48u);
  EXPECT_EQ(sw_dispatch_slots(s, shape_of(in)), 12u);
  in.param = 2;
  EXPECT_EQ(sw_issue_cycles(s, in), 20u);
  EXPECT_EQ(sw_dispatch_slots(s, shape_of(in)), 4u);
  in.active_mask = 0;
  EXPECT_EQ(sw_issue_cycles(s, in), 0u) << "an empty half costs nothing";
  in.active_mask = 0xFFFFu;
  s.mode = Mode::Baseline;
  EXPECT_EQ(sw_issue_cycles(s, in), 0u);
}

// Warp `warp`'s pair call: records 0 and 1 of params 0..np-1, `mask` lanes, lane l of record rec
// on word addr(l, rec, p) (values in a full trace only).
template <class Addr>
void push_pair_with(trace::Trace& t, uint64_t& seq, uint32_t warp, uint32_t mask, uint32_t np, bool first,
                    uint32_t gap, Addr addr) {
  for (uint32_t rec = 0; rec < 2; ++rec)
    for (uint32_t p = 0; p < np; ++p) {
      trace::Instr in;
      in.sm = warp % 4;
      in.subcore = (warp / 4) % 4;
      in.warp = warp;
      in.seq = seq++;
      in.param = static_cast<uint8_t>(p);
      in.nparams = static_cast<uint8_t>(np);
      in.gap = rec == 0 && p == 0 ? gap : 0;
      in.flags = trace::kFlagPairCall | (first && rec == 0 && p == 0 ? trace::kFlagFirstOfWarp : 0u);
      in.active_mask = mask;
      for (uint32_t l = 0; l < 32; ++l)
        if (mask >> l & 1) {
          in.addr[l] = addr(l, rec, p);
          if (!t.header.timing_only) in.value[l] = 0x3f800000u + 7 * l + 3 * p + 11 * rec;
        }
      t.instrs.push_back(in);
    }
}

// A bilinear row's taps: record 0 on texel base + pixel, record 1 on the next texel over, np
// words per texel; lanes 2k and 2k+1 sample the same texel pair half the time (a texel spans 2
// pixels).
void push_pair(trace::Trace& t, uint64_t& seq, uint32_t warp, uint32_t mask, uint32_t base, uint32_t np, bool first,
               uint32_t gap) {
  push_pair_with(t, seq, warp, mask, np, first, gap, [&](uint32_t l, uint32_t rec, uint32_t p) {
    return np * (base + (l / 2) * 2 + rec + (l % 2 && (l / 2) % 2 ? 1 : 0)) + p;
  });
}

// An empty trace of the tests' 4 SMs x 4 sub-cores, `words` gradient words.
trace::Trace empty_trace(uint32_t words, bool timing_only = false) {
  trace::Trace t;
  t.header.gpu_name = "test";
  t.header.sm_count = 4;
  t.header.subcores_per_sm = 4;
  t.header.buffer_words = words;
  t.header.timing_only = timing_only;
  return t;
}

trace::Trace pair_trace(uint32_t np, uint32_t calls) {
  trace::Trace t = empty_trace(np * 4096);
  for (uint32_t w = 0; w < 32; ++w) {
    uint64_t seq = 0;
    for (uint32_t c = 0; c < calls; ++c)
      push_pair(t, seq, w, c % 3 ? 0xFFFFFFFFu : 0x0FF0FF0Fu, (w * 7 + c * 40) % 4000, np, c == 0, 30);
  }
  t.final_buffer.assign(t.header.buffer_words, 0);
  return t;
}

TEST(SimPair, RegroupMovesEachLaneToItsPlace) {
  trace::Trace t;
  uint64_t seq = 0;
  push_pair(t, seq, 3, 0xF0F0F00Fu, 200, 2, true, 55);
  std::vector<trace::Instr> out(4);
  pair_regroup(&t.instrs[0], &t.instrs[2], 2, out.data());
  for (uint32_t r = 0; r < 2; ++r)
    for (uint32_t p = 0; p < 2; ++p) {
      const trace::Instr& o = out[r * 2 + p];
      EXPECT_EQ(o.param, p);
      EXPECT_EQ(o.seq, r * 2 + p);
      EXPECT_EQ(o.gap, r == 0 && p == 0 ? 55u : 0u);
      EXPECT_EQ(o.flags & trace::kFlagFirstOfWarp, r == 0 && p == 0 ? trace::kFlagFirstOfWarp : 0u);
      EXPECT_TRUE(o.flags & trace::kFlagPairSum);
      EXPECT_FALSE(o.flags & trace::kFlagPairCall);
      for (uint32_t l = 0; l < 32; ++l) {
        const uint32_t src = 16 * r + l / 2;
        const trace::Instr& rec = t.instrs[(l % 2) * 2 + p];
        ASSERT_EQ(o.active_mask >> l & 1, 0xF0F0F00Fu >> src & 1) << "lane " << l;
        if (!(o.active_mask >> l & 1)) continue;
        EXPECT_EQ(o.addr[l], rec.addr[src]);
        EXPECT_EQ(o.value[l], rec.value[src]);
      }
      EXPECT_EQ(o.reduced_mask, pair_takers(out[r * 2]));
    }
  // Record 1 missing (the second record is not a pair call's): a clear error.
  t.instrs[2].flags &= ~trace::kFlagPairCall;
  EXPECT_THROW(pair_regroup(&t.instrs[0], &t.instrs[2], 2, out.data()), Error);
}

// In adaptive mode the pair call's trace runs exactly as the same instructions regrouped ahead
// of time (what a capture of Adaptive's pair send holds): same cycles, requests and image; the
// pairs' words leave in fewer requests than the plain records'. Baseline ignores the flag.
TEST(SimPair, AdaptiveReplaysPairCallsAsThePairSend) {
  const trace::Trace t = pair_trace(4, 12);
  trace::Trace regrouped = t, plain = t;
  for (size_t i = 0; i < t.instrs.size(); i += 8)
    pair_regroup(&t.instrs[i], &t.instrs[i + 4], 4, &regrouped.instrs[i]);
  for (trace::Instr& in : plain.instrs) in.flags &= ~trace::kFlagPairCall;
  uint64_t takers = 0;
  for (const trace::Instr& in : regrouped.instrs) takers += static_cast<uint64_t>(__builtin_popcount(in.reduced_mask));
  ASSERT_GT(takers, 100u);
  RunSpec s = testing::small_gpu();
  s.gpu.coalesce_bytes = 128;
  s.mode = Mode::Adaptive;
  const RunResult a = run_isolated(s, t), b = run_isolated(s, regrouped), c = run_isolated(s, plain);
  EXPECT_EQ(a.stats.total_cycles, b.stats.total_cycles);
  EXPECT_EQ(a.stats.requests_to_l2, b.stats.requests_to_l2);
  EXPECT_EQ(a.image, b.image);
  EXPECT_EQ(a.stats.groups_reduced_in_core, takers) << "each taker one in-core add";
  EXPECT_LT(a.stats.requests_to_l2, c.stats.requests_to_l2) << "the regrouped lanes fall in fewer lines";
  // Streamed from a file (the packed read-ahead keeps the flag), full and timing-only form.
  const std::string full = testing::tmp_file("pair-full.arctrace"), timing = testing::tmp_file("pair-timing.arctrace");
  trace::write_trace(full, t);
  trace::Trace stripped = t;
  stripped.header.timing_only = true;
  stripped.final_buffer.clear();
  trace::write_trace(timing, stripped);
  const RunResult f = run_isolated(s, full, summarize(full)), g = run_isolated(s, timing, summarize(timing));
  EXPECT_EQ(f.stats.total_cycles, a.stats.total_cycles);
  EXPECT_EQ(f.image, a.image);
  EXPECT_EQ(g.stats.requests_to_l2, a.stats.requests_to_l2);
  EXPECT_EQ(g.stats.groups_reduced_in_core, takers);
  s.mode = Mode::Baseline;
  const RunResult d = run_isolated(s, t), e = run_isolated(s, plain);
  EXPECT_EQ(d.stats.total_cycles, e.stats.total_cycles);
  EXPECT_EQ(d.image, e.image);
  // The same words get the same sums: each word's total matches the baseline's to rounding.
  for (size_t w = 0; w < a.image.size(); ++w)
    ASSERT_NEAR(testing::as_double(a.image[w]), testing::as_double(d.image[w]),
                1e-5 * std::max(1.0, std::abs(testing::as_double(d.image[w]))))
        << "word " << w;
}

// With 4-wide vector atomics (--vector 4: a call's 4 params leave as one float4 RED per lane),
// the pair send's merged lanes leave as the regrouped trace's do.
TEST(SimPair, VectorAtomicsReplayThePairSend) {
  const trace::Trace t = pair_trace(4, 40);
  trace::Trace regrouped = t;
  for (size_t i = 0; i < t.instrs.size(); i += 8)
    pair_regroup(&t.instrs[i], &t.instrs[i + 4], 4, &regrouped.instrs[i]);
  RunSpec s = testing::small_gpu();
  s.gpu.coalesce_bytes = 128;
  s.mode = Mode::Adaptive;
  s.vector = 4;
  const RunResult a = run_isolated(s, t), b = run_isolated(s, regrouped);
  EXPECT_EQ(a.stats.total_cycles, b.stats.total_cycles);
  EXPECT_EQ(a.stats.requests_to_l2, b.stats.requests_to_l2);
  EXPECT_EQ(a.image, b.image);
}

// Warp-uniform pair records (every lane of record 0 on one texel, of record 1 on the next: a
// magnified texture) in a timing-only file, whose source makes such a record's lanes from its
// brief: regrouped like any other, scalar and 4-wide.
TEST(SimPair, UniformTimingOnlyRecordsRegroup) {
  trace::Trace t = empty_trace(4 * 4096, true);
  for (uint32_t w = 0; w < 64; ++w) {
    uint64_t seq = 0;
    for (uint32_t c = 0; c < 30; ++c) {
      const uint32_t base = (w * 13 + c * 7) % 4000;
      const bool uniform = c % 2 == 0;
      push_pair_with(t, seq, w, c % 3 ? 0xFFFFFFFFu : 0xFFFF00FFu, 4, c == 0, 40, [&](uint32_t l, uint32_t rec, uint32_t p) {
        return 4 * (base + rec + (uniform ? 0 : l / 2)) + p;
      });
    }
  }
  trace::Trace regrouped = t;
  for (size_t i = 0; i < t.instrs.size(); i += 8)
    pair_regroup(&t.instrs[i], &t.instrs[i + 4], 4, &regrouped.instrs[i]);
  const std::string path = testing::tmp_file("pair-uniform.arctrace");
  trace::write_trace(path, t);
  for (uint32_t vec : {0u, 4u}) {
    RunSpec s = testing::small_gpu();
    s.gpu.coalesce_bytes = 128;
    s.mode = Mode::Adaptive;
    s.vector = vec;
    const RunResult a = run_isolated(s, path, summarize(path)), b = run_isolated(s, regrouped);
    EXPECT_EQ(a.stats.total_cycles, b.stats.total_cycles) << "vector " << vec;
    EXPECT_EQ(a.stats.requests_to_l2, b.stats.requests_to_l2) << "vector " << vec;
    EXPECT_GT(a.stats.groups_reduced_in_core, 0u);
  }
}

// A pair call whose active lanes are all in one half-warp: the CUDA code skips the other
// instruction (a capture has none); the model serves it with no active lane, sends nothing for
// it and charges it nothing. Same requests as the capture's form, scalar and 4-wide.
TEST(SimPair, HalfEmptyPairCallsSendOneInstruction) {
  trace::Trace t = empty_trace(4 * 4096);
  for (uint32_t w = 0; w < 32; ++w) {
    uint64_t seq = 0;
    for (uint32_t c = 0; c < 20; ++c) {
      const uint32_t mask = c % 3 == 0 ? 0x0000FFFFu : c % 3 == 1 ? 0xFFFF0000u : 0x00FFFF00u;
      push_pair(t, seq, w, mask, (w * 11 + c * 50) % 4000, 4, c == 0, 20);
    }
  }
  trace::Trace captured = t;  // the pair send as a capture holds it: no empty instruction
  captured.instrs.clear();
  std::vector<trace::Instr> out(8);
  uint64_t empty = 0;
  for (size_t i = 0; i < t.instrs.size(); i += 8) {
    pair_regroup(&t.instrs[i], &t.instrs[i + 4], 4, out.data());
    for (const trace::Instr& in : out) {
      if (in.active_mask == 0) {
        ++empty;
        continue;
      }
      captured.instrs.push_back(in);
    }
  }
  ASSERT_GT(empty, 0u);
  std::map<std::pair<uint32_t, uint32_t>, uint64_t> next_seq;  // renumber each warp's instructions
  for (trace::Instr& in : captured.instrs) in.seq = next_seq[{in.sm, in.warp}]++;
  for (uint32_t vec : {0u, 4u}) {
    RunSpec s = testing::small_gpu();
    s.gpu.coalesce_bytes = 128;
    s.mode = Mode::Adaptive;
    s.vector = vec;
    const RunResult a = run_isolated(s, t), b = run_isolated(s, captured);
    EXPECT_EQ(a.stats.requests_to_l2, b.stats.requests_to_l2) << "vector " << vec;
    EXPECT_EQ(a.stats.lane_updates, b.stats.lane_updates);
    EXPECT_EQ(a.stats.instructions, b.stats.instructions + empty) << "an empty half still counts as issued";
    EXPECT_EQ(a.stats.groups_reduced_in_core, b.stats.groups_reduced_in_core);
  }
}

TEST(SimPair, PairCallWithoutItsSecondRecordIsAnError) {
  trace::Trace t = pair_trace(2, 2);
  // Warp 0's first record 1 becomes a plain record: the model names the broken pair.
  for (trace::Instr& in : t.instrs)
    if (in.warp == 0 && (in.seq == 2 || in.seq == 3)) in.flags &= ~trace::kFlagPairCall;
  RunSpec s = testing::small_gpu();
  s.mode = Mode::Adaptive;
  try {
    run_isolated(s, t);
    FAIL() << "a broken pair ran";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("pair call"), std::string::npos) << e.what();
  }
  s.mode = Mode::Baseline;  // other modes read the records as they are
  EXPECT_NO_THROW(run_isolated(s, t));
}

}  // namespace
}  // namespace arc::sim

int sc_main(int argc, char* argv[]) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
