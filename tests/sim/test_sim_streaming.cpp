// Streaming traces (cosim/sim/trace_source.h) and coalesced requests (cosim/sim/coalesce.h):
//  - a trace streamed from its file gives the same cycles, statistics, image and ROP commit
//    order as the same trace held in memory, in every mode and at both levels;
//  - the summary pass checks addresses and counts what the end-of-run check needs;
//  - the coalescer groups a warp's word updates by granule, in rounds, with the flit cost of
//    the H100's line requests; a coalesced run still conserves every lane update and equals a
//    golden replay of its commit order.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <systemc>

#include "coalesce.h"
#include "error.h"
#include "golden.h"
#include "run.h"
#include "sim_fixture.h"

namespace arc::sim {
namespace {

TEST(SimStreaming, FileStreamEqualsInMemoryEveryModeBothLevels) {
  const std::string path = testing::synthetic_file("stream", testing::hot(2500, 21));
  const trace::Trace t = trace::read_trace(path);
  const TraceSummary summary = summarize(path);
  EXPECT_EQ(summary.instructions, t.instrs.size());
  int compared = 0, same = 0;
  for (bool coalesce : {false, true}) {
    for (Mode m : {Mode::Baseline, Mode::SwS, Mode::SwB, Mode::ArcHw}) {
      for (Fidelity f : {Fidelity::Fast, Fidelity::Rtl}) {
        if (f == Fidelity::Rtl && m != Mode::ArcHw) continue;
        RunSpec s = testing::small_gpu();
        s.mode = m;
        s.fidelity = f;
        s.record_commits = true;
        if (coalesce) s.gpu.coalesce_bytes = 128;
        const RunResult mem = run_isolated(s, t);
        const RunResult file = run_isolated(s, path, summary);
        SCOPED_TRACE(mem.label + (coalesce ? " coalesced" : ""));
        const bool ok = to_json(mem.stats) == to_json(file.stats) && mem.image == file.image && mem.commits == file.commits;
        EXPECT_TRUE(ok);
        EXPECT_GT(file.lookahead_peak, 0u);
        ++compared;
        same += ok;
        std::printf("  %-16s %-10s %-5s cycles %7llu  read ahead at most %llu of %zu instructions\n", mem.label.c_str(),
                    coalesce ? "coalesced" : "per-lane", fidelity_name(f),
                    static_cast<unsigned long long>(file.stats.total_cycles),
                    static_cast<unsigned long long>(file.lookahead_peak), t.instrs.size());
      }
    }
  }
  std::printf("streaming vs in-memory: %d of %d runs identical\n", same, compared);
}

// A timing-only trace whose records are calls of several params (3DGS writes 9 gradients per
// call): the file source carries each call as one record and makes its params as it goes; the
// run must equal the in-memory one (every param its own Instr), warps interleaved in the file.
TEST(SimStreaming, TimingOnlyCallsStreamEqualInMemory) {
  trace::Trace t;
  t.header.gpu_name = "test";
  t.header.sm_count = 2;
  t.header.subcores_per_sm = 4;
  t.header.buffer_words = 1u << 16;
  t.header.timing_only = true;
  std::vector<uint64_t> seq(64, 0);
  for (uint32_t round = 0; round < 40; ++round)
    for (uint32_t w = 0; w < 64; ++w) {
      const uint32_t np = 1 + (w * 7 + round) % 9;                      // 1..9 params
      const int64_t stride = (w % 3 == 0) ? -1 : 1 + static_cast<int64_t>(w % 4);  // down and up
      const uint32_t mask = (w % 5 == 0) ? 0x0000FFFFu : 0xFFFFFFFFu >> (w % 7);
      const uint32_t base = 200 + (w * 911 + round * 37) % 60000;
      // warp-uniform for even warps, 4 words for odd ones
      testing::push_call(
          t, seq[w], {w % 2, (w / 2) % 4, w, mask, 5 + (w + round) % 40, np, round == 0},
          [&](uint32_t l, uint32_t p) {
            return static_cast<uint32_t>(base + (w % 2 ? (l % 4) * 16 : 0) + static_cast<int64_t>(p) * stride);
          },
          [](uint32_t, uint32_t) { return 0u; });
    }
  const auto dir = std::filesystem::temp_directory_path() / "arcsim-tests-sim";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "timing-calls.arctrace").string();
  trace::write_trace(path, t);
  const TraceSummary summary = summarize(path);
  ASSERT_EQ(summary.instructions, t.instrs.size());
  int same = 0, compared = 0;
  for (Mode m : {Mode::Baseline, Mode::SwS, Mode::SwB, Mode::ArcHw}) {
    RunSpec s = testing::small_gpu();
    s.gpu.sms = 2;
    s.gpu.warps_per_subcore = 2;
    s.gpu.coalesce_bytes = 128;
    s.mode = m;
    const RunResult mem = run_isolated(s, trace::read_trace(path));
    const RunResult file = run_isolated(s, path, summary);
    SCOPED_TRACE(mem.label);
    const bool ok = to_json(mem.stats) == to_json(file.stats) && mem.image == file.image;
    EXPECT_TRUE(ok);
    EXPECT_EQ(file.stats.instructions, t.instrs.size());
    EXPECT_GT(file.lookahead_peak, 0u);
    ++compared;
    same += ok;
  }
  std::printf("timing-only calls, streaming vs in-memory: %d of %d runs identical (%zu instructions)\n", same,
              compared, t.instrs.size());
}

// Warps in pairs, each pair's records interleaved in the file, one warp resident: running the
// first warp of a pair reads the whole second one ahead, which then drains before the next
// pair. The read-ahead's memory must follow what is buffered now (one warp's records), not
// the trace's length: the same peak bytes for 2 pairs and for 40.
TEST(SimStreaming, ReadAheadMemoryIsIndependentOfTraceLength) {
  auto peak_of = [](uint32_t pairs) {
    constexpr uint32_t kPerWarp = 300;
    trace::Trace t;
    t.header.gpu_name = "test";
    t.header.sm_count = 1;
    t.header.subcores_per_sm = 4;
    t.header.buffer_words = 4096;
    t.header.timing_only = true;
    for (uint32_t p = 0; p < pairs; ++p)
      for (uint32_t i = 0; i < kPerWarp; ++i)
        for (uint32_t w : {2 * p, 2 * p + 1}) {
          trace::Instr in;
          in.warp = w;
          in.seq = i;
          in.active_mask = 0xFFFFFFFFu;
          in.gap = 3;
          for (uint32_t l = 0; l < 32; ++l) in.addr[l] = (w * 37 + i * 5 + l * 129) % 4096;
          t.instrs.push_back(in);
        }
    const auto dir = std::filesystem::temp_directory_path() / "arcsim-tests-sim";
    std::filesystem::create_directories(dir);
    const std::string path = (dir / ("readahead-" + std::to_string(pairs) + ".arctrace")).string();
    trace::write_trace(path, t);
    RunSpec s = testing::small_gpu();
    s.gpu.sms = 1;
    s.gpu.warps_per_subcore = 1;
    const RunResult r = run_isolated(s, path, summarize(path));
    EXPECT_EQ(r.stats.instructions, uint64_t{2} * pairs * kPerWarp);
    EXPECT_GE(r.lookahead_peak, kPerWarp - 1);  // a whole warp is read ahead
    EXPECT_LE(r.lookahead_peak, kPerWarp + 1);
    std::printf("  %u warp pairs: read ahead at most %llu instructions, %llu bytes\n", pairs,
                static_cast<unsigned long long>(r.lookahead_peak), static_cast<unsigned long long>(r.lookahead_bytes_peak));
    return r.lookahead_bytes_peak;
  };
  const uint64_t small = peak_of(2), large = peak_of(40);
  EXPECT_GT(small, 0u);
  EXPECT_EQ(small, large);
  // 32 lanes of at most 3-byte address deltas and 8 small fields, plus a chunk of slack.
  EXPECT_LE(large, 300u * (2 + 16 + 32 * 3) + 512);
}

TEST(SimStreaming, SummaryCountsWhatTheEndCheckNeedsAndRejectsBadAddresses) {
  trace::Trace t = testing::synthetic("summary", testing::hot(500, 22));
  const TraceSummary s = summarize(t);
  uint64_t lanes = 0;
  std::vector<uint32_t> per_word(t.header.buffer_words, 0);
  for (const auto& in : t.instrs)
    for (uint32_t m = in.active_mask; m; m &= m - 1) {
      ++lanes;
      ++per_word[in.addr[__builtin_ctz(m)]];
    }
  EXPECT_EQ(s.lane_updates, lanes);
  EXPECT_EQ(s.word_updates, per_word);
  uint64_t counted = 0;
  for (const WarpSummary& w : s.warps) counted += w.count;
  EXPECT_EQ(counted, t.instrs.size());
  t.instrs[123].addr[__builtin_ctz(t.instrs[123].active_mask)] = static_cast<uint32_t>(t.header.buffer_words);
  try {
    summarize(t);
    ADD_FAILURE() << "an address outside the buffer was accepted";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("trace record 123"), std::string::npos) << e.what();
  }
}

// A timing-only trace's first pass reads whole calls (Reader::next_call): the same summary as
// the pass over its instructions one by one, on the bundled real H100 capture (9-param calls).
TEST(SimStreaming, CallByCallSummaryEqualsInstructionByInstruction) {
  const std::string path = ARCSIM_DATA_DIR "/gs-il-floor-h100.arctrace";
  const TraceSummary by_call = summarize(path), by_instr = summarize(trace::read_trace(path));
  ASSERT_TRUE(by_call.header.timing_only);
  EXPECT_EQ(by_call.instructions, by_instr.instructions);
  EXPECT_EQ(by_call.lane_updates, by_instr.lane_updates);
  EXPECT_EQ(by_call.word_updates, by_instr.word_updates);
  ASSERT_EQ(by_call.warps.size(), by_instr.warps.size());
  for (size_t i = 0; i < by_call.warps.size(); ++i) {
    const WarpSummary &a = by_call.warps[i], &b = by_instr.warps[i];
    EXPECT_TRUE(a == b)
        << "warp " << i;
  }
}

TEST(SimCoalesce, RequestsPerGranuleRoundsAndFlits) {
  CoalesceSetup line{32, 32, 28};  // 128-byte granule, 32-byte flits, 28-byte round header
  LaneOp ops[32];
  // 32 lanes on 32 words of one line: one request, one round of 28 + 32 x 4 bytes (4.875 flits).
  for (uint32_t l = 0; l < 32; ++l) ops[l] = {64 + l, l, 1};
  Packet p;
  append_requests(p, ops, 32, 0, line);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].count, 32u);
  EXPECT_EQ(p[0].bytes, 156u);
  // 32 lanes on one word: one request of 32 one-word rounds of one flit each (lanes on a word
  // are not merged): what 32 per-lane requests cost.
  for (uint32_t l = 0; l < 32; ++l) ops[l] = {7, l, 1};
  p.clear();
  append_requests(p, ops, 32, 0, line);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].bytes, 32u * 32u);
  // Two words of one line, 16 and 15 lanes: 15 rounds of 2 words and one of 1; a third word on
  // another line is its own one-flit request. Order inside a request: as given.
  for (uint32_t l = 0; l < 31; ++l) ops[l] = {l % 2 ? 1u : 2u, l, 1};
  ops[31] = {1000, 31, 1};
  p.clear();
  append_requests(p, ops, 32, 3, line);
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].count, 31u);
  EXPECT_EQ(p[0].bytes, 15u * 36u + 32u);
  EXPECT_EQ(p[0].begin()[1].addr, 1u);
  EXPECT_EQ(p[1].count, 1u);
  EXPECT_EQ(p[1].addr(), 1000u);
  EXPECT_EQ(p[1].sm, 3u);
  // Off: one single-flit request per op.
  p.clear();
  append_requests(p, ops, 32, 0, CoalesceSetup{});
  EXPECT_EQ(p.size(), 32u);
  for (const Request& r : p) EXPECT_EQ(r.bytes, 32u);
  EXPECT_EQ(round_bytes(1, 1, 1, line), 32u);
  EXPECT_EQ(round_bytes(8, 1, 8, line), 60u);
}

TEST(SimCoalesce, OneSmLineRequestsAreFasterAndEveryLaneIsConserved) {
  // One SM, every warp's 32 lanes on the 32 words of one 128-byte line (the microbenchmark's
  // "32 addresses in one line"): coalescing sends one 4.875-flit request per warp instruction
  // instead of 32 single-lane ones.
  trace::Trace t;
  t.header.gpu_name = "test";
  t.header.sm_count = 1;
  t.header.subcores_per_sm = 4;
  t.header.buffer_words = 32 * 512;
  for (uint32_t i = 0; i < 200; ++i)
    for (uint32_t w = 0; w < 16; ++w) {
      trace::Instr in;
      in.sm = 0;
      in.warp = w;
      in.subcore = w % 4;
      in.seq = i;
      in.flags = i == 0 ? trace::kFlagFirstOfWarp : 0;
      in.gap = 2;
      in.active_mask = 0xFFFFFFFFu;
      const uint32_t line = (w * 131 + i * 7) % 512;
      for (uint32_t l = 0; l < 32; ++l) {
        in.addr[l] = line * 32 + l;
        in.value[l] = 0x3F800000u + l;  // 1.0 + l ulp
      }
      t.instrs.push_back(in);
    }
  RunSpec s = testing::small_gpu();
  s.record_commits = true;
  const RunResult lanes = run_isolated(s, t);
  s.gpu.coalesce_bytes = 128;
  const RunResult lines = run_isolated(s, t);
  for (const RunResult* r : {&lanes, &lines}) {
    golden::MemoryImage replay(t.header.buffer_words);
    for (const auto& [a, v] : r->commits) replay.apply(a, v);
    EXPECT_EQ(replay.words(), r->image);
    EXPECT_EQ(r->stats.rop_ops, r->stats.lane_updates);
  }
  EXPECT_LT(lines.stats.requests_to_l2 * 4, lanes.stats.requests_to_l2);
  const double gain = static_cast<double>(lanes.stats.total_cycles) / static_cast<double>(lines.stats.total_cycles);
  std::printf("one SM, 32 words per line: per-lane %llu cycles, coalesced %llu cycles (%.2fx), requests %llu vs %llu\n",
              static_cast<unsigned long long>(lanes.stats.total_cycles),
              static_cast<unsigned long long>(lines.stats.total_cycles), gain,
              static_cast<unsigned long long>(lanes.stats.requests_to_l2),
              static_cast<unsigned long long>(lines.stats.requests_to_l2));
  EXPECT_GT(gain, 3.0);
}

}  // namespace
}  // namespace arc::sim

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
