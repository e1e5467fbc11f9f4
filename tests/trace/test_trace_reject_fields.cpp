// Corrupt or impossible traces, as in test_trace_reject.cpp (which says how every reader is run):
// here header fields, record fields wider than 32 bits, reserved and empty fields, and a
// version-3 file's warp table against its records.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "reject_util.h"
#include "trace_stats.h"

namespace arc::trace::reject {
namespace {

// ---- item 6: buffer_words beyond 32-bit addresses -------------------------------------------

TEST(TraceReject, BufferWordsBeyondThe32BitAddressRange) {
  const std::string good = full_trace("good");
  for (uint64_t w : {uint64_t(1) << 40, UINT64_MAX, (uint64_t(1) << 32) + 1}) {
    const std::string bad = with_header_field(good, "buffer_words", w, "bw.arctrace");
    expect_rejected(bad, good, kSim | kInfo | kVerify | kStrip | kCompare,
                    "buffer_words is " + std::to_string(w) + ", outside 0..4294967296");
  }
  // Exactly 2^32 words is legal: every 32-bit address is inside (no 32-bit wrap to 0 words).
  const std::string tgood = timing_trace("tgood");
  const std::string big = with_header_field(tgood, "buffer_words", uint64_t(1) << 32, "bw32.arctrace");
  const CmdResult r = arcsim("trace info " + big);
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(testing::error_of([&] { read_trace(big); }), "");
  Header h;
  h.buffer_words = uint64_t(1) << 32;
  Instr in;
  in.active_mask = 1;
  in.addr[0] = 0xFFFFFFFFu;
  EXPECT_EQ(check_instr(h, in), "");
}

// ---- item 7: record fields wider than 32 bits -----------------------------------------------

// Block 0's record 0 with varint field `field` (0 sm, 1 subcore, 2 warp, 4 gap, 5 flags,
// 6 reduced_mask; 3 = seq) replaced by f(old value).
void patch_record0(Surgery& s, int field, const std::function<uint64_t(uint64_t)>& f) {
  Bytes& raw = s.blocks[0].raw;
  detail::Cursor c(raw.data(), raw.size(), "block 0");
  c.u8();
  for (int i = 0; i <= 6; ++i) {
    if (i == 4) c.u32();  // the active mask
    const uint8_t* start = c.pos();
    const uint64_t v = c.varint();
    if (i == field) {
      Bytes nv;
      detail::put_varint(nv, f(v));
      const size_t a = static_cast<size_t>(start - raw.data()), e = static_cast<size_t>(c.pos() - raw.data());
      Bytes out(raw.begin(), raw.begin() + static_cast<long>(a));
      out.insert(out.end(), nv.begin(), nv.end());
      out.insert(out.end(), raw.begin() + static_cast<long>(e), raw.end());
      raw = out;
      return;
    }
  }
}

TEST(TraceReject, RecordFieldsWiderThan32Bits) {
  const std::string good = full_trace("good"), tgood = timing_trace("tgood"), bad = tmp_path("wide.arctrace");
  const uint64_t k32 = uint64_t(1) << 32;
  struct Case {
    int field;
    std::function<uint64_t(uint64_t)> f;
    std::string what;
  };
  const Case cases[] = {
      {0, [&](uint64_t v) { return v + k32; }, "record 0: malformed: field sm is "},
      {1, [&](uint64_t v) { return v + k32; }, "record 0: malformed: field subcore is "},
      {2, [&](uint64_t v) { return v + k32; }, "record 0: malformed: field warp is "},
      {4, [&](uint64_t v) { return v + k32; }, "record 0: malformed: field gap is "},
      {5, [](uint64_t v) { return v | uint64_t(1) << 40; }, "record 0: undefined flag bits 0x10000000000"},
      {5, [](uint64_t v) { return v | uint64_t(1) << 63; }, "record 0: undefined flag bits 0x8000000000000000"},
      {6, [](uint64_t v) { return v | uint64_t(1) << 40; }, "record 0: reduced_mask 0x1"},
  };
  for (const Case& c : cases) {
    Surgery x = open_file(good);
    patch_record0(x, c.field, c.f);
    save(bad, x);
    expect_rejected(bad, good, kFull, c.what);
    Surgery t = open_file(tgood);
    patch_record0(t, c.field, c.f);
    save(bad, t);
    expect_rejected(bad, tgood, kTiming, c.what);
  }
  // Flag bit 9 (the first undefined one) keeps its old message.
  Surgery t = open_file(tgood);
  patch_record0(t, 5, [](uint64_t v) { return v | 1u << 9; });
  save(bad, t);
  expect_rejected(bad, tgood, kTiming, "undefined flag bits 0x00000200");
}

// Block 0's record 0 made a 2-param call with address stride `stride` (its param count, then
// the stride, replace its count of 1): the decoder must refuse a stride no 32-bit address pair
// can have before it multiplies it (an int64 overflow would pass the range test).
void make_record0_a_call(Surgery& s, int64_t stride) {
  Bytes& raw = s.blocks[0].raw;
  detail::Cursor c(raw.data(), raw.size(), "block 0");
  c.u8();
  for (int i = 0; i <= 6; ++i) {
    if (i == 4) c.u32();  // the active mask
    c.varint();
  }
  const uint8_t* start = c.pos();
  ASSERT_EQ(c.varint(), 1u) << "record 0 is a 1-param call";
  Bytes nv;
  detail::put_varint(nv, 2);
  detail::put_varint(nv, (static_cast<uint64_t>(stride) << 1) ^ static_cast<uint64_t>(stride >> 63));  // zigzag
  const size_t a = static_cast<size_t>(start - raw.data()), e = static_cast<size_t>(c.pos() - raw.data());
  Bytes out(raw.begin(), raw.begin() + static_cast<long>(a));
  out.insert(out.end(), nv.begin(), nv.end());
  out.insert(out.end(), raw.begin() + static_cast<long>(e), raw.end());
  raw = out;
}

TEST(TraceReject, CallStrideBeyondThe32BitRange) {
  const std::string good = full_trace("good"), tgood = timing_trace("tgood"), bad = tmp_path("stride.arctrace");
  for (const int64_t stride : {int64_t(1) << 62, -(int64_t(1) << 62), int64_t(1) << 32, INT64_MIN}) {
    const std::string what = "record 0: malformed: a call's address stride " + std::to_string(stride) + " leaves the 32-bit range";
    Surgery x = open_file(good);
    make_record0_a_call(x, stride);
    save(bad, x);
    expect_rejected(bad, good, kFull, what);
    Surgery t = open_file(tgood);
    make_record0_a_call(t, stride);
    save(bad, t);
    expect_rejected(bad, tgood, kTiming, what);
  }
}

// A pair call (flag bit 8) is two records of one warp in a row with the same lanes and params
// (FORMAT.md): every reader refuses a record 0 whose warp ends, or whose warp's next record is
// not its record 1; a well-formed pair reads.
TEST(TraceReject, PairCallWithoutItsRecord1) {
  const std::string good = full_trace("good"), bad = tmp_path("pair.arctrace");
  const Trace base = read_trace(good);
  std::vector<size_t> of_warp0;  // the instructions of the first instruction's warp, in order
  for (size_t i = 0; i < base.instrs.size(); ++i)
    if (base.instrs[i].sm == base.instrs[0].sm && base.instrs[i].warp == base.instrs[0].warp) of_warp0.push_back(i);
  ASSERT_GE(of_warp0.size(), 3u);
  const auto with = [&](const std::vector<size_t>& flagged, bool same_lanes) {
    Trace t = base;
    for (size_t i : flagged) {
      t.instrs[i].flags |= kFlagPairCall;
      t.instrs[i].reduced_mask = 0;
      t.instrs[i].partial_sum.fill(0);
    }
    if (same_lanes && flagged.size() == 2) t.instrs[flagged[1]].active_mask = t.instrs[flagged[0]].active_mask;
    write_trace(bad, t);
  };
  with({of_warp0.back()}, false);
  expect_rejected(bad, good, kFull, "a pair call (flag bit 8) with no record 1 (the warp ends)");
  with({of_warp0[0]}, false);
  expect_rejected(bad, good, kFull, "a pair call (flag bit 8) whose next record is not its record 1");
  Trace t = base;  // record 1 on other lanes
  if (t.instrs[of_warp0[1]].active_mask == t.instrs[of_warp0[0]].active_mask) {
    const uint32_t other = t.instrs[of_warp0[1]].active_mask ^ 1u;  // lane 0 on or off (an added lane reads address 0)
    t.instrs[of_warp0[1]].active_mask = other ? other : 3u;
  }
  for (size_t i : {of_warp0[0], of_warp0[1]}) {
    t.instrs[i].flags |= kFlagPairCall;
    t.instrs[i].reduced_mask = 0;
  }
  write_trace(bad, t);
  expect_rejected(bad, good, kFull, "a pair call (flag bit 8) whose next record is not its record 1");
  with({of_warp0[0], of_warp0[1]}, true);
  EXPECT_EQ(testing::error_of([&] { read_trace(bad); }), "");
  const CmdResult r = arcsim("trace info " + bad);
  EXPECT_EQ(r.code, 0) << r.err;
}

// ---- item 8: impossible header values -------------------------------------------------------

TEST(TraceReject, ImpossibleHeaderValues) {
  const std::string good = full_trace("good");
  struct Case {
    const char* field;
    uint64_t v;
    const char* range;
  };
  const Case cases[] = {
      {"sm_count", 0, "1..4096"},          {"sm_count", 5000, "1..4096"},         {"sm_count", UINT32_MAX, "1..4096"},
      {"subcores_per_sm", 0, "1..16"},     {"subcores_per_sm", 17, "1..16"},      {"subcores_per_sm", UINT32_MAX, "1..16"},
      {"balancing_threshold", 1000, "0..32"}, {"balancing_threshold", 33, "0..32"},
      {"threads_per_block", UINT32_MAX, "0..1024"}, {"threads_per_block", 1025, "0..1024"},
      {"resident_warps_per_sm", UINT32_MAX, "0..1024"},
  };
  for (const Case& c : cases) {
    const std::string bad = with_header_field(good, c.field, c.v, "hdr.arctrace");
    const std::string what = std::string("file header: ") + c.field + " is " + std::to_string(c.v) + ", outside " + c.range;
    // Every reader for the ones the simulator uses; the library reader for the rest.
    const bool sim_field = std::string(c.field) == "subcores_per_sm" || std::string(c.field) == "sm_count";
    expect_rejected(bad, good, sim_field ? kFull : kInfo, what);
  }
  // The writer refuses them too: no program writes a file the readers refuse.
  Trace t = read_trace(good);
  t.header.subcores_per_sm = 0;
  EXPECT_NE(testing::error_of([&] { write_trace(tmp_path("w.arctrace"), t); }).find("subcores_per_sm is 0"),
            std::string::npos);
  // The edges are accepted.
  for (const auto& [field, v] : std::vector<std::pair<std::string, uint64_t>>{
           {"sm_count", 4096}, {"subcores_per_sm", 16}, {"balancing_threshold", 32}, {"threads_per_block", 1024},
           {"resident_warps_per_sm", 1024}, {"threads_per_block", 0}, {"resident_warps_per_sm", 0}}) {
    const std::string ok = with_header_field(good, field, v, "edge.arctrace");
    EXPECT_EQ(testing::error_of([&] { Reader r(ok); }), "") << field << " = " << v;
  }
}

// ---- item 9: fields that must be 0 or empty -------------------------------------------------

TEST(TraceReject, ReservedAndEmptyFields) {
  const std::string good = full_trace("good"), bad = tmp_path("reserved.arctrace");
  const Surgery s = open_file(good);
  {
    Surgery x = s;
    x.blocks[0].r8 = 1;
    save(bad, x);
    expect_rejected(bad, good, kFull, "block 0 (offset");
    expect_rejected(bad, good, kInfo, "reserved block-header fields are 1 and 0 (must be 0)");
  }
  {  // in a block after the records: every reader gets there
    Surgery x = s;
    x.blocks[index_of(s, BlockKind::WarpTable)].r16 = 0x100;
    save(bad, x);
    expect_rejected(bad, good, kFull, "reserved block-header fields are 0 and 256 (must be 0)");
  }
  {
    Surgery x = s;
    x.blocks.back().count = 5;
    save(bad, x);
    expect_rejected(bad, good, kFull, "end-of-trace block with count 5 (must be 0)");
  }
  {
    Surgery x = s;
    x.blocks.back().raw.push_back(0);
    save(bad, x);
    expect_rejected(bad, good, kFull, "1 bytes after the end-of-trace totals");
  }
  {  // two zstd frames in one block (zstd alone would decompress both)
    Surgery x = s;
    const Bytes empty_frame = detail::frame_block(BlockKind::End, 0, {}, 3);
    Block& t = x.blocks[index_of(s, BlockKind::WarpTable)];
    t.extra.assign(empty_frame.begin() + detail::kBlockHeaderBytes, empty_frame.end());
    save(bad, x);
    expect_rejected(bad, good, kFull, "is not one zstd frame");
    Surgery y = s;
    y.blocks[1].extra = x.blocks[index_of(s, BlockKind::WarpTable)].extra;
    save(bad, y);
    expect_rejected(bad, good, kInfo | kSim, "block 1 (offset");
  }
}

// ---- item 16: trace info, sim and verify check the warp table entry by entry ---------------------

TEST(TraceReject, EveryReaderChecksTheWarpTableAgainstTheRecords) {
  const std::string good = full_trace("good"), bad = tmp_path("table.arctrace");
  Surgery x = open_file(good);
  Block& t = x.blocks[index_of(x, BlockKind::WarpTable)];
  Header h = Reader(good).header();
  std::vector<WarpEntry> e;
  detail::decode_warp_table(t.raw, t.count, h, "table", &e);
  ASSERT_GE(e.size(), 2u);
  e[1].gap_sum += 1;  // totals unchanged: only an entry-by-entry check sees it
  t.raw = detail::encode_warp_table(e.data(), e.size());
  save(bad, x);
  expect_rejected(bad, good, kFull, "warp table entry 1", false);
  EXPECT_NE(testing::error_of([&] { compute_stats(bad); }).find("warp table entry 1"), std::string::npos);
  EXPECT_EQ(testing::error_of([&] { compute_stats(good); }), "");
}

}  // namespace
}  // namespace arc::trace::reject
