// Vector atomics in the timing model (issue 17): with a vector width of 2 or 4 (the trace's
// kFlagVec2/kFlagVec4, or RunSpec::vector) a call's params leave in chunks, one packet per
// chunk whose lanes carry 2 / 4 words each. The same words get the same updates in the same
// per-word order (same image, same ROP ops), in fewer requests and fewer bytes.
#include <gtest/gtest.h>

#include <systemc>
#include <vector>

#include "coalesce.h"
#include "error.h"
#include "run.h"
#include "sim_fixture.h"
#include "trace.h"

namespace arc::sim {
namespace {

// 4 SMs x 4 sub-cores x 2 warps, each `calls` calls of `np` params on one 16-word (64 B
// aligned) record per call: stride 1, so a 4-wide chunk is 16 aligned bytes per lane. Lanes
// 0..active-1; uniform (every lane on the call's record) or each lane its own record.
trace::Trace vec_trace(uint32_t np, bool uniform, uint32_t calls, uint32_t flags = 0) {
  trace::Trace t;
  t.header.gpu_name = "test";
  t.header.sm_count = 4;
  t.header.subcores_per_sm = 4;
  const uint32_t records = 4 * 8 * calls * 32;
  t.header.buffer_words = 16 * records;
  uint32_t rec = 0;
  for (uint32_t sm = 0; sm < 4; ++sm)
    for (uint32_t w = 0; w < 8; ++w)
      for (uint32_t i = 0; i < calls; ++i, rec += 32) {
        for (uint32_t p = 0; p < np; ++p) {
          trace::Instr in;
          in.sm = sm;
          in.subcore = w % 4;
          in.warp = w;
          in.seq = static_cast<uint64_t>(i) * np + p;
          in.param = static_cast<uint8_t>(p);
          in.nparams = static_cast<uint8_t>(np);
          in.gap = p == 0 ? 25 : 0;
          in.flags = flags | (i == 0 && p == 0 ? trace::kFlagFirstOfWarp : 0u);
          in.active_mask = i % 2 ? 0xFFFFFFFFu : 0x00FFFFFFu;
          for (uint32_t l = 0; l < 32; ++l) {
            in.addr[l] = 16 * (rec + (uniform ? 0 : l)) + p;
            in.value[l] = 0x3f800000u + l + 5 * p;
          }
          t.instrs.push_back(in);
        }
      }
  t.final_buffer.assign(t.header.buffer_words, 0);
  return t;
}

RunSpec coalescing_gpu(Mode mode, uint32_t vector) {
  RunSpec s = testing::small_gpu();
  s.gpu.coalesce_bytes = 128;
  // The plain round cost (header + words; the sector cost has its own test below), whatever
  // h100.toml says.
  s.gpu.request_header_bytes = 28;
  s.gpu.request_word_bytes = 4;
  s.gpu.request_sector_bytes = 0;
  s.gpu.request_multi_lane_bytes = 0;
  s.mode = mode;
  s.threshold = 2;
  s.vector = vector;
  return s;
}

TEST(SimVector, FourWideChunksSameMemoryFewerRequestsAndBytes) {
  for (Mode mode : {Mode::Baseline, Mode::SwS, Mode::SwB}) {
    for (bool uniform : {true, false}) {
      SCOPED_TRACE(std::string(mode_name(mode)) + (uniform ? " uniform" : " distinct"));
      const trace::Trace t = vec_trace(4, uniform, 6);
      const RunResult v1 = run_isolated(coalescing_gpu(mode, 1), t);
      const RunResult v4 = run_isolated(coalescing_gpu(mode, 4), t);
      EXPECT_EQ(v4.image, v1.image) << "every word gets the same updates in the same order";
      EXPECT_EQ(v4.stats.rop_ops, v1.stats.rop_ops);
      EXPECT_EQ(v4.stats.lane_updates, v1.stats.lane_updates);
      EXPECT_EQ(v4.stats.instructions, v1.stats.instructions) << "a trace instruction is one param";
      EXPECT_LT(v4.stats.requests_to_l2, v1.stats.requests_to_l2);
      EXPECT_LT(v4.stats.rop_bytes, v1.stats.rop_bytes);
      if (mode == Mode::Baseline && uniform) {
        // 4 x 6 x 32 calls of 24 or 32 lanes on one record. Scalar: per param one request of
        // `lanes` one-word rounds (28 + 4 bytes each). 4-wide: one request per call, `lanes`
        // rounds of the record's 4 words (28 + 16 bytes each).
        const uint64_t lanes = 3 * 32 * (24 + 32);  // per param, over the calls
        EXPECT_EQ(v1.stats.requests_to_l2, 4u * 6 * 32);
        EXPECT_EQ(v4.stats.requests_to_l2, 6u * 32);
        EXPECT_EQ(v1.stats.rop_bytes, 4 * lanes * 32);
        EXPECT_EQ(v4.stats.rop_bytes, lanes * (28 + 16));
      }
    }
  }
}

TEST(SimVector, TraceFlagsActAsTheOverride) {
  const trace::Trace plain = vec_trace(9, true, 4);
  const trace::Trace flagged = vec_trace(9, true, 4, trace::kFlagVec4);
  const RunResult a = run_isolated(coalescing_gpu(Mode::Baseline, 4), plain);
  const RunResult b = run_isolated(coalescing_gpu(Mode::Baseline, 0), flagged);
  const RunResult c = run_isolated(coalescing_gpu(Mode::Baseline, 1), flagged);  // forced scalar
  const RunResult d = run_isolated(coalescing_gpu(Mode::Baseline, 0), plain);
  EXPECT_EQ(a.stats.total_cycles, b.stats.total_cycles);
  EXPECT_EQ(a.stats.requests_to_l2, b.stats.requests_to_l2);
  EXPECT_EQ(a.stats.rop_bytes, b.stats.rop_bytes);
  EXPECT_EQ(c.stats.requests_to_l2, d.stats.requests_to_l2);
  // 9 params in chunks of 4, 4, 1: three requests per call (the record is one 64 B granule's
  // worth of words, but a chunk is a packet of its own).
  EXPECT_EQ(b.stats.requests_to_l2, 3u * 4 * 32);
  EXPECT_EQ(d.stats.requests_to_l2, 9u * 4 * 32);
  EXPECT_EQ(a.image, d.image);
}

// The H100's link costs: 32 bytes per 32-byte sector, 16 more for a round of several lanes.
CoalesceSetup h100_link_costs() {
  CoalesceSetup h;
  h.granule_words = 32;
  h.flit_bytes = 32;
  h.header_bytes = 0;
  h.word_bytes = 0;
  h.sector_bytes = 32;
  h.multi_lane_bytes = 16;
  return h;
}

// The sector cost of a request round (request_sector_bytes, request_multi_lane_bytes), with
// the H100's values: 32 bytes per 32-byte sector, 16 more for a round of several lanes.
TEST(SimVector, SectorCostPerRound) {
  CoalesceSetup h = h100_link_costs();
  auto bytes = [&](const std::vector<LaneOp>& ops, uint32_t vec) {
    Packet p;
    append_requests(p, ops.data(), ops.size(), 0, h, vec);
    uint64_t b = 0;
    for (const Request& r : p) b += r.bytes;
    return std::make_pair(p.size(), b);
  };
  std::vector<LaneOp> line32, spread8, uniform, two_words, v4_lane, v4_line;
  for (uint32_t l = 0; l < 32; ++l) {
    line32.push_back({64 + l, 0, 1});            // 32 words of one line: 4 sectors, 32 lanes
    uniform.push_back({64, 0, 1});               // one word: 32 one-lane rounds
    two_words.push_back({64 + l % 2, 0, 1});     // 2 words of a sector: 16 rounds of 2 lanes
  }
  for (uint32_t l = 0; l < 8; ++l) spread8.push_back({64 + 4 * l, 0, 1});  // 8 lanes 16 B apart: 4 sectors
  for (uint32_t e = 0; e < 4; ++e) {
    v4_lane.push_back({64 + e, 0, 1});  // one lane's float4: one sector, one lane
    for (uint32_t l = 0; l < 8; ++l) v4_line.push_back({64 + 4 * l + e, 0, 1});  // 8 float4 lanes: param-major
  }
  EXPECT_EQ(bytes(line32, 1), std::make_pair(size_t{1}, uint64_t{4 * 32 + 16}));
  EXPECT_EQ(bytes(spread8, 1), std::make_pair(size_t{1}, uint64_t{4 * 32 + 16}));
  EXPECT_EQ(bytes(uniform, 1), std::make_pair(size_t{1}, uint64_t{32 * 32}));
  EXPECT_EQ(bytes(two_words, 1), std::make_pair(size_t{1}, uint64_t{16 * (32 + 16)}));
  EXPECT_EQ(bytes(v4_lane, 4), std::make_pair(size_t{1}, uint64_t{32}));
  EXPECT_EQ(bytes(v4_line, 4), std::make_pair(size_t{1}, uint64_t{4 * 32 + 16}));
  EXPECT_EQ(round_bytes(1, 1, 1, h), 32u);
}

// The L2 side's own costs (issue 17): header and sector bytes of its own and a cost per warp
// instruction on the first request; the SM's link keeps the GPU keys' costs.
TEST(SimVector, L2SideCostsAndInstructionBytes) {
  CoalesceSetup h = h100_link_costs();
  h.l2_header_bytes = 8;
  h.l2_sector_bytes = 24;
  h.instruction_bytes = 20;
  auto costs = [&](const std::vector<LaneOp>& ops) {
    Packet p;
    append_requests(p, ops.data(), ops.size(), 0, h);
    std::vector<std::pair<uint32_t, uint32_t>> c;  // (link, L2) per request
    for (const Request& r : p) c.emplace_back(r.link_bytes, r.bytes);
    return c;
  };
  std::vector<LaneOp> line32, scattered, one_lane, uniform;
  for (uint32_t l = 0; l < 32; ++l) {
    line32.push_back({64 + l, 0, 1});      // one round: 4 sectors, 32 lanes
    scattered.push_back({64 * l, 0, 1});   // 32 one-lane requests on 32 lines
    uniform.push_back({64, 0, 1});         // 32 one-lane rounds of one request
  }
  one_lane.push_back({64, 0, 1});
  using C = std::vector<std::pair<uint32_t, uint32_t>>;
  EXPECT_EQ(costs(line32), (C{{4 * 32 + 16, 8 + 4 * 24 + 16 + 20}}));
  EXPECT_EQ(costs(one_lane), (C{{32, 32 + 20}}));
  EXPECT_EQ(costs(uniform), (C{{32 * 32, 32 * 32 + 20}}));
  const C sc = costs(scattered);
  ASSERT_EQ(sc.size(), 32u);
  EXPECT_EQ(sc[0], std::make_pair(32u, 52u));  // the instruction's cost rides on its first request only
  for (size_t i = 1; i < sc.size(); ++i) EXPECT_EQ(sc[i], std::make_pair(32u, 32u)) << i;
  EXPECT_EQ(l2_round_bytes(1, 1, 1, h), 32u);
  h.l2_header_bytes = h.l2_sector_bytes = CoalesceSetup::kAsLink;  // unset: the link's costs
  h.instruction_bytes = 0;
  EXPECT_EQ(costs(line32), (C{{4 * 32 + 16, 4 * 32 + 16}}));
}

TEST(SimVector, BadWidthOrModeIsRefused) {
  RunSpec s = coalescing_gpu(Mode::Baseline, 3);
  EXPECT_THROW(validate(s), arc::Error);
  s = coalescing_gpu(Mode::ArcHw, 4);
  EXPECT_THROW(validate(s), arc::Error);
  s = coalescing_gpu(Mode::SwT, 2);
  EXPECT_THROW(validate(s), arc::Error);
  EXPECT_NO_THROW(validate(coalescing_gpu(Mode::SwB, 2)));
  EXPECT_NO_THROW(validate(coalescing_gpu(Mode::ArcHw, 0)));
  trace::Trace t = vec_trace(4, true, 1, trace::kFlagVec2 | trace::kFlagVec4);
  EXPECT_NE(trace::check_instr(t.header, t.instrs[0]).find("vector"), std::string::npos);
}

}  // namespace
}  // namespace arc::sim

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
