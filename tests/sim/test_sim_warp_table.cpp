// The warp table (trace format version 3, cosim/trace/FORMAT.md) and the timing model's use of it:
//  - the writer lists every warp in order of first appearance with its instruction count and
//    gap sum: equal to an independent count over the records, for calls of one to nine params;
//  - a version-2 file has none, and the model then makes its first pass as before;
//  - a run whose summary came from the table equals the run after the full first pass, bit for
//    bit (statistics, memory image, ROP commit order), in several modes and at both levels;
//  - a table that disagrees with its records (a count, a gap sum, the order, a missing block) is
//    a one-line error from the reader or from the model, never a silent wrong answer.
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <map>
#include <systemc>

#include "error.h"
#include "run.h"
#include "sim_fixture.h"
#include "test_util.h"  // tests/trace: read_bytes, write_bytes, error_of
#include "trace_codec.h"

namespace arc::sim {
namespace {

namespace d = trace::detail;

std::string tmp(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / "arcsim-tests-sim";
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

// A trace of 48 warps over 3 SMs whose records are calls of 1..9 params, warps interleaved
// and first appearing out of (sm, warp) order; timing-only or with values.
trace::Trace calls_trace(bool timing_only) {
  trace::Trace t;
  t.header.gpu_name = "test";
  t.header.sm_count = 3;
  t.header.subcores_per_sm = 4;
  t.header.buffer_words = 1u << 14;
  t.header.timing_only = timing_only;
  std::vector<uint64_t> seq(48, 0);
  for (uint32_t round = 0; round < 12; ++round)
    for (uint32_t k = 0; k < 48; ++k) {
      const uint32_t w = (k * 29 + 7) % 48;  // first appearances in a scrambled order
      if ((w + round) % 5 == 0) continue;    // warps of different lengths
      const uint32_t np = 1 + (w * 5 + round) % 9;
      const uint32_t mask = 0xFFFFFFFFu >> (w % 9);
      const uint32_t base = 100 + (w * 313 + round * 41) % 15000;
      testing::push_call(
          t, seq[w], {w % 3, (w / 3) % 4, w, mask, 3 + (w * 7 + round) % 50, np, round == 0},
          [&](uint32_t l, uint32_t p) { return base + (w % 2 ? (l % 4) * 8 : 0) + p; },
          [&](uint32_t l, uint32_t) { return 0x3F800000u + ((w * 131 + l * 17 + round) & 0xFFFF); });  // 1.0 + a little
    }
  if (!timing_only) t.final_buffer.assign(t.header.buffer_words, 0);
  return t;
}

// Rewrites the file's warp-table blocks: `edit` gets the entries (and may change, reorder or
// drop them; drop_block removes the table altogether), re-encoded as FORMAT.md says with valid
// checksums: what a buggy producer would write.
void rewrite_table(const std::string& path, const std::function<void(std::vector<trace::WarpEntry>&)>& edit,
                   bool drop_block = false) {
  const std::vector<uint8_t> b = trace::testing::read_bytes(path);
  ASSERT_FALSE(b.empty());
  const uint32_t hlen = d::get_u32(b.data() + 12);
  size_t at = d::kPreambleBytes + hlen + 4;
  std::vector<uint8_t> out(b.begin(), b.begin() + static_cast<long>(at));
  std::vector<trace::WarpEntry> entries;
  bool table_done = false;
  while (at < b.size()) {
    const d::BlockHeader bh = d::parse_block_header(b.data() + at, "test");
    const size_t len = d::kBlockHeaderBytes + bh.stored_bytes;
    if (bh.kind == d::BlockKind::WarpTable) {
      d::Bytes raw;
      d::unframe_payload(bh, b.data() + at + d::kBlockHeaderBytes, raw, "test");
      d::Cursor c(raw.data(), raw.size(), "test");
      for (uint32_t i = 0; i < bh.count; ++i) {
        trace::WarpEntry e;
        e.sm = static_cast<uint32_t>(c.varint());
        e.subcore = static_cast<uint32_t>(c.varint());
        e.warp = static_cast<uint32_t>(c.varint());
        e.instructions = c.varint();
        e.gap_sum = c.varint();
        entries.push_back(e);
      }
    } else {
      if (bh.kind == d::BlockKind::End && !table_done) {  // the edited table goes where the old one was
        table_done = true;
        edit(entries);
        if (!drop_block) {
          d::Bytes raw;
          for (const trace::WarpEntry& e : entries)
            for (uint64_t v : {uint64_t{e.sm}, uint64_t{e.subcore}, uint64_t{e.warp}, e.instructions, e.gap_sum})
              d::put_varint(raw, v);
          const d::Bytes block = d::frame_block(d::BlockKind::WarpTable, static_cast<uint32_t>(entries.size()), raw, 3);
          out.insert(out.end(), block.begin(), block.end());
        }
      }
      out.insert(out.end(), b.begin() + static_cast<long>(at), b.begin() + static_cast<long>(at + len));
    }
    at += len;
  }
  trace::testing::write_bytes(path, out);
}

TEST(WarpTable, ListsEveryWarpAsTheRecordsDo) {
  int checked = 0;
  for (bool timing_only : {true, false}) {
    const trace::Trace t = calls_trace(timing_only);
    const std::string path = tmp(std::string("warp-table-") + (timing_only ? "t" : "v") + ".arctrace");
    trace::write_trace(path, t);
    // The independent count: first appearance, instructions and gap sums over the records.
    std::map<std::pair<uint32_t, uint32_t>, size_t> at;
    std::vector<trace::WarpEntry> want;
    uint64_t lanes = 0;
    for (const trace::Instr& in : t.instrs) {
      const auto [it, fresh] = at.emplace(std::make_pair(in.sm, in.warp), want.size());
      if (fresh) want.push_back({in.sm, in.subcore, in.warp, 0, 0});
      ++want[it->second].instructions;
      want[it->second].gap_sum += in.gap;
      lanes += static_cast<uint64_t>(__builtin_popcount(in.active_mask));
    }
    const trace::Reader r(path);
    EXPECT_EQ(r.version(), trace::kVersion);
    const std::optional<trace::WarpTable> table = r.warp_table();
    ASSERT_TRUE(table.has_value());
    EXPECT_EQ(table->instructions, t.instrs.size());
    EXPECT_EQ(table->lanes, lanes);
    ASSERT_EQ(table->warps.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i, ++checked) {
      const trace::WarpEntry &a = table->warps[i], &b = want[i];
      EXPECT_TRUE(a == b)
          << "entry " << i;
    }
    // The model's summary from the table is the first pass's, less the per-word part.
    const TraceSummary fast = summarize(path), full = summarize(path, false);
    EXPECT_TRUE(fast.from_table);
    EXPECT_FALSE(full.from_table);
    EXPECT_TRUE(fast.word_updates.empty());
    EXPECT_EQ(fast.instructions, full.instructions);
    EXPECT_EQ(fast.lane_updates, full.lane_updates);
    ASSERT_EQ(fast.warps.size(), full.warps.size());
    for (size_t i = 0; i < full.warps.size(); ++i) {
      const WarpSummary &a = fast.warps[i], &b = full.warps[i];
      EXPECT_TRUE(a == b)
          << "warp " << i;
    }
  }
  std::printf("warp table: %d entries equal to the count over the records\n", checked);
}

TEST(WarpTable, AVersion2FileHasNoneAndGetsTheFirstPass) {
  const std::string path = ARCSIM_DATA_DIR "/gs-il-floor-h100.arctrace";
  const trace::Reader r(path);
  ASSERT_EQ(r.version(), 2);
  EXPECT_FALSE(r.warp_table().has_value());
  EXPECT_FALSE(summarize(path).from_table);
}

TEST(SimWarpTable, RunFromTheTableEqualsRunAfterTheFirstPass) {
  int same = 0, compared = 0;
  for (bool timing_only : {true, false}) {
    const std::string path = tmp(std::string("warp-table-run-") + (timing_only ? "t" : "v") + ".arctrace");
    trace::write_trace(path, calls_trace(timing_only));
    const TraceSummary from_table = summarize(path), from_pass = summarize(path, false);
    ASSERT_TRUE(from_table.from_table);
    for (Mode m : {Mode::Baseline, Mode::SwS, Mode::ArcHw}) {
      for (Fidelity f : {Fidelity::Fast, Fidelity::Rtl}) {
        if (f == Fidelity::Rtl && m != Mode::ArcHw) continue;
        RunSpec s = testing::small_gpu();
        s.gpu.sms = 3;
        s.gpu.warps_per_subcore = 2;
        s.gpu.coalesce_bytes = 128;
        s.mode = m;
        s.fidelity = f;
        s.record_commits = !timing_only;
        const RunResult a = run_isolated(s, path, from_table), b = run_isolated(s, path, from_pass);
        SCOPED_TRACE(a.label + (timing_only ? " timing-only" : " values"));
        const bool ok = to_json(a.stats) == to_json(b.stats) && a.image == b.image && a.commits == b.commits;
        EXPECT_TRUE(ok);
        EXPECT_GT(a.stats.instructions, 0u);
        ++compared;
        same += ok;
      }
    }
  }
  std::printf("warp table vs first pass: %d of %d runs identical\n", same, compared);
}

// Each way a table can disagree with its records, and who says so.
TEST(SimWarpTable, ATableThatDisagreesWithItsRecordsIsAOneLineError) {
  RunSpec s = testing::small_gpu();
  s.gpu.sms = 3;
  s.gpu.warps_per_subcore = 2;
  const trace::Trace t = calls_trace(true);
  struct Case {
    const char* name;
    std::function<void(std::vector<trace::WarpEntry>&)> edit;
    bool drop;
    const char* reader_says;  // reading the records (read_trace: every Reader checks the table entry by entry)
    const char* model_says;   // summarize + run
  };
  const std::vector<Case> cases = {
      {"one more instruction", [](auto& e) { ++e[0].instructions; }, false, "the warp table lists",
       "the warp table lists"},
      {"an instruction moved to another warp",
       [](auto& e) {
         --e[1].instructions;
         ++e[0].instructions;
       },
       false, "does not match the records", "warp table"},
      {"a gap sum", [](auto& e) { e[3].gap_sum += 7; }, false, "does not match the records", "does not match the records"},
      {"two warps swapped", [](auto& e) { std::swap(e[0], e[1]); }, false, "does not match the records",
       "does not match the records"},
      {"a sub-core", [](auto& e) { e[2].subcore = (e[2].subcore + 1) % 4; }, false, "does not match the records",
       "does not match the records"},
      {"a warp left out",
       [](auto& e) {
         e[1].instructions += e.back().instructions;  // the total still holds
         e.pop_back();
       },
       false, "warp table lists 47 warps, the records hold 48", "warp table"},
      {"no table", [](auto&) {}, true, "the warp table is missing", "the warp table is missing"},
  };
  int caught = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string path = tmp("warp-table-bad.arctrace");
    trace::write_trace(path, t);
    rewrite_table(path, c.edit, c.drop);
    const std::string reader = trace::testing::error_of([&] { trace::read_trace(path); });
    EXPECT_NE(reader.find(c.reader_says), std::string::npos) << reader;
    EXPECT_EQ(reader.find('\n'), std::string::npos) << reader;
    const std::string model = trace::testing::error_of([&] { run_isolated(s, path, summarize(path)); });
    EXPECT_NE(model.find(c.model_says), std::string::npos) << model;
    EXPECT_EQ(model.find('\n'), std::string::npos) << model;
    caught += !model.empty();
    std::printf("  %-40s model: %s\n", c.name, model.c_str());
  }
  EXPECT_EQ(caught, static_cast<int>(cases.size()));
}

}  // namespace
}  // namespace arc::sim

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
