// Corrupt or impossible traces are rejected by EVERY reader with one line naming the problem
// and a non-zero exit: the simulator (`arcsim sim`, which streams the file through its own
// source), `trace info`, `verify` (with and without --limit), `trace strip`, `trace compare`
// (and `trace upgrade` for old versions). Each case builds the bad file from a good one with
// valid checksums (as a buggy producer or a bad copy would leave it) and runs the built binary.
// This file: what follows the records (end block, final buffer, old versions, strip and compare,
// verify --limit); test_trace_reject_fields.cpp: header and record fields, the warp table.
#include <gtest/gtest.h>

#include <filesystem>

#include "reject_util.h"

namespace arc::trace::reject {
namespace {

// ---- item 3: everything after the records is checked by the simulator as by `trace info` -----

TEST(TraceReject, GoodFilesPassEveryReader) {
  // The baseline the cases below break: every reader accepts the unmodified files.
  const std::string full = full_trace("full"), timing = timing_trace("timing");
  for (const std::string& args :
       {"sim --gpu h100 --trace " + full, "trace info " + full, "verify --limit 10 --trace " + full,
        "trace strip " + full + " -o " + tmp_path("s.arctrace"), "trace compare " + full + " " + full,
        "sim --gpu h100 --trace " + timing, "trace info " + timing}) {
    const CmdResult r = arcsim(args);
    EXPECT_EQ(r.code, 0) << "arcsim " << args << ": " << r.err;
  }
  // Version 2 (no warp table) and the surgery's own framing read cleanly too.
  const std::string v2 = tmp_path("v2.arctrace");
  save(v2, as_v2(open_file(full)));
  EXPECT_EQ(testing::error_of([&] { read_trace(v2); }), "");
  EXPECT_EQ(arcsim("sim --gpu h100 --trace " + v2).code, 0);
  const std::string same = tmp_path("same.arctrace");
  save(same, open_file(timing));
  EXPECT_EQ(arcsim("trace compare " + same + " " + timing).code, 0);
}

TEST(TraceReject, TrailingBytesAfterTheEndBlock) {
  const std::string good = full_trace("good"), bad = tmp_path("trail.arctrace");
  Bytes b = read_bytes(good);
  for (char ch : std::string("garbage")) b.push_back(static_cast<uint8_t>(ch));
  write_bytes(bad, b);
  expect_rejected(bad, good, kFull, "unexpected data after the end-of-trace block");
  // A doubled file: two end blocks.
  Bytes d = read_bytes(good);
  const Bytes again = d;
  d.insert(d.end(), again.begin(), again.end());
  write_bytes(bad, d);
  expect_rejected(bad, good, kFull, "unexpected data after the end-of-trace block");
  // A timing-only trace (the simulator reads it a call at a time).
  const std::string tgood = timing_trace("tgood");
  Bytes t = read_bytes(tgood);
  t.push_back(0);
  write_bytes(bad, t);
  expect_rejected(bad, tgood, kTiming, "unexpected data after the end-of-trace block");
}

TEST(TraceReject, EndBlockCountsOffByOne) {
  const std::string good = full_trace("good"), bad = tmp_path("counts.arctrace");
  const Surgery s = open_file(good);
  const detail::EndTotals e = end_of(s);
  const uint64_t plus_minus[] = {1, UINT64_MAX};  // +1, -1
  for (uint64_t d : plus_minus) {
    Surgery x = s;
    set_end(x.blocks.back(), e.instructions, e.lanes, e.instruction_blocks + d, e.buffer_blocks);
    save(bad, x);
    expect_rejected(bad, good, kFull, "end-of-trace totals");
    x = s;
    set_end(x.blocks.back(), e.instructions, e.lanes, e.instruction_blocks, e.buffer_blocks + d);
    save(bad, x);
    expect_rejected(bad, good, kFull, "end-of-trace totals");
  }
}

TEST(TraceReject, FinalBufferShortMissingOrDuplicated) {
  const std::string good = full_trace("good"), bad = tmp_path("buffer.arctrace");
  const Surgery s = open_file(good);
  const detail::EndTotals e = end_of(s);
  const size_t last_buf = index_of(s, BlockKind::Buffer, true);
  {  // short: its last block gone (the end block's count agrees, so only the length tells)
    Surgery x = s;
    x.blocks.erase(x.blocks.begin() + static_cast<long>(last_buf));
    set_end(x.blocks.back(), e.instructions, e.lanes, e.instruction_blocks, e.buffer_blocks - 1);
    save(bad, x);
    expect_rejected(bad, good, kFull, "final buffer has");
  }
  {  // missing: every buffer block gone
    Surgery x = s;
    std::vector<Block> kept;
    for (Block& k : x.blocks)
      if (k.kind != static_cast<uint8_t>(BlockKind::Buffer)) kept.push_back(k);
    x.blocks = kept;
    set_end(x.blocks.back(), e.instructions, e.lanes, e.instruction_blocks, 0);
    save(bad, x);
    expect_rejected(bad, good, kFull, "final buffer has 0 words");
  }
  {  // duplicated: its last block twice
    Surgery x = s;
    x.blocks.insert(x.blocks.begin() + static_cast<long>(last_buf), x.blocks[last_buf]);
    set_end(x.blocks.back(), e.instructions, e.lanes, e.instruction_blocks, e.buffer_blocks + 1);
    save(bad, x);
    expect_rejected(bad, good, kFull, "final buffer longer than the header's");
  }
  {  // a buffer block after the warp table
    Surgery x = s;
    const Block moved = x.blocks[last_buf];
    x.blocks.erase(x.blocks.begin() + static_cast<long>(last_buf));
    x.blocks.insert(x.blocks.end() - 1, moved);
    save(bad, x);
    expect_rejected(bad, good, kFull, "final-buffer block after the warp table");
  }
  {  // a buffer block in a timing-only trace
    const std::string tgood = timing_trace("tgood");
    Surgery t = open_file(tgood);
    const detail::EndTotals te = end_of(t);
    Block buf;
    buf.kind = static_cast<uint8_t>(BlockKind::Buffer);
    buf.count = 16;
    buf.raw.assign(64, 0);
    t.blocks.insert(t.blocks.begin() + static_cast<long>(index_of(t, BlockKind::WarpTable)), buf);
    set_end(t.blocks.back(), te.instructions, te.lanes, te.instruction_blocks, 1);
    save(bad, t);
    expect_rejected(bad, tgood, kTiming, "a final-buffer block in a timing-only trace");
  }
}

TEST(TraceReject, OldVersionsCutBeforeOrInsideTheEndBlock) {
  const std::string good = full_trace("good"), bad = tmp_path("v2.arctrace");
  const Bytes v2 = build(as_v2(open_file(good)));
  const Bytes end = frame(open_file(good).blocks.back());
  const size_t end_at = v2.size() - end.size();
  // Cut right before the end block, inside it (header, data), one byte short.
  for (size_t cut : {end_at, end_at + 10, end_at + detail::kBlockHeaderBytes + 2, v2.size() - 1}) {
    write_bytes(bad, Bytes(v2.begin(), v2.begin() + static_cast<long>(cut)));
    expect_rejected(bad, good, kFull | kUpgrade, "truncated file");
  }
  // A flipped byte inside the end block's data.
  Bytes f = v2;
  f[v2.size() - 3] ^= 0x20;
  write_bytes(bad, f);
  expect_rejected(bad, good, kFull | kUpgrade, "checksum mismatch");
  // Version 1 is read by the same code: a v1 trace cut before its end block (a timing-only v2
  // trace exercises the simulator's call-at-a-time first pass).
  Surgery t = as_v2(open_file(timing_trace("tgood")));
  const Bytes tb = build(t);
  write_bytes(bad, Bytes(tb.begin(), tb.end() - static_cast<long>(frame(t.blocks.back()).size())));
  expect_rejected(bad, timing_trace("tgood2"), kTiming | kUpgrade, "truncated file");
}

// ---- item 4: strip and compare read to the end ----------------------------------------------

TEST(TraceReject, StripAndCompareReadToTheEnd) {
  const std::string good = full_trace("good"), bad = tmp_path("cut.arctrace");
  const Surgery s = open_file(good);
  const Bytes b = build(s);
  // Cut inside the warp table (after the records and the final buffer).
  size_t table_at = first_block_offset(b);
  for (size_t i = 0; i < index_of(s, BlockKind::WarpTable); ++i) table_at += frame(s.blocks[i]).size();
  write_bytes(bad, Bytes(b.begin(), b.begin() + static_cast<long>(table_at + 30)));
  expect_rejected(bad, good, kFull, "truncated file");
  // A flipped byte inside the warp table's data.
  Bytes f = b;
  f[table_at + detail::kBlockHeaderBytes + 5] ^= 0x01;
  write_bytes(bad, f);
  expect_rejected(bad, good, kFull, "checksum mismatch");
  // An unknown block kind after the records.
  Surgery x = s;
  Block nine;
  nine.kind = 9;
  nine.count = 1;
  nine.raw.assign(8, 0);
  x.blocks.insert(x.blocks.begin() + static_cast<long>(index_of(x, BlockKind::Buffer)), nine);
  save(bad, x);
  expect_rejected(bad, good, kFull, "unknown block kind 9");
  // compare answers DIFFER only for two valid files: a shorter but corrupt one is an error.
  Surgery y = s;
  y.blocks.back().raw.push_back(0);
  save(bad, y);
  const std::string other = full_trace("other", 99);  // differs at instruction 0
  EXPECT_EQ(arcsim("trace compare " + good + " " + other).code, 1);
  const CmdResult r = arcsim("trace compare " + bad + " " + other);
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_NE(r.err.find("bytes after the end-of-trace totals"), std::string::npos) << r.err;
}

// ---- item 5: verify --limit still checks the file to its end --------------------------------

TEST(TraceReject, VerifyLimitChecksTheWholeFile) {
  const std::string good = full_trace("good"), bad = tmp_path("limit.arctrace");
  const Surgery s = open_file(good);
  {  // cut right after the records
    Surgery x = s;
    x.blocks.resize(index_of(s, BlockKind::Buffer));
    save(bad, x);
    expect_rejected(bad, good, kVerifyLimit | kVerify, "truncated file");
  }
  {  // a short buffer
    Surgery x = s;
    Block& last = x.blocks[index_of(s, BlockKind::Buffer, true)];
    last.raw.resize(last.raw.size() - 4);
    --last.count;
    save(bad, x);
    expect_rejected(bad, good, kVerifyLimit | kVerify, "final buffer has");
  }
  {  // trailing data, two end blocks
    Surgery x = s;
    x.blocks.push_back(x.blocks.back());
    save(bad, x);
    expect_rejected(bad, good, kVerifyLimit | kVerify, "unexpected data after the end-of-trace block");
  }
  // --help says so.
  EXPECT_NE(arcsim("verify --help").out.find("still read and checked"), std::string::npos);
}

}  // namespace
}  // namespace arc::trace::reject
