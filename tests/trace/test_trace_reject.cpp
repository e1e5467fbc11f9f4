// Corrupt or impossible traces are rejected by EVERY reader with one line naming the problem
// and a non-zero exit: the simulator (`arcsim sim`, which streams the file through its own
// source), `trace info`, `verify` (with and without --limit), `trace strip`, `trace compare`
// (and `trace upgrade` for old versions). Each case builds the bad file from a good one with
// valid checksums (as a buggy producer or a bad copy would leave it) and runs the built binary.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>

#include "test_util.h"
#include "trace.h"
#include "trace_stats.h"

namespace arc::trace {
namespace {

using detail::BlockKind;
using detail::Bytes;
using testing::first_block_offset;
using testing::read_bytes;
using testing::tmp_path;
using testing::write_bytes;

using testing::arcsim;
using testing::CmdResult;

// ---- the readers ----------------------------------------------------------------------------

enum Rd : unsigned { kSim = 1, kInfo = 2, kVerify = 4, kVerifyLimit = 8, kStrip = 16, kCompare = 32, kUpgrade = 64 };
constexpr unsigned kFull = kSim | kInfo | kVerify | kVerifyLimit | kStrip | kCompare;  // a full v3 trace's readers
constexpr unsigned kTiming = kSim | kInfo | kCompare;  // a timing-only trace's (verify and strip refuse it anyway)
// The sanitizer build runs each case through the library reader and `trace info`, and the first
// case of each test through `sim` too (the streaming reader on its worker thread); the other
// commands wrap the same Reader and run in the normal build (an instrumented arcsim per command
// took ~200 CPU-s there).
#ifdef ARCSIM_QUICK_READERS
unsigned g_run = kSim | kInfo;
constexpr unsigned kRunLater = kInfo;
#else
unsigned g_run = ~0u;
constexpr unsigned kRunLater = ~0u;
#endif

// Every reader in `which` exits 2 with exactly one stderr line naming `what`; strip and
// upgrade leave no output file. `good`: a valid trace to compare against.
void expect_rejected(const std::string& bad, const std::string& good, unsigned which, const std::string& what,
                     bool library = true) {
  const std::string out = tmp_path("out.arctrace");
  struct Cmd {
    Rd rd;
    std::string args;
  };
  const Cmd cmds[] = {
      {kSim, "sim --gpu h100 --trace " + bad},
      {kInfo, "trace info " + bad},
      {kVerify, "verify --trace " + bad},
      {kVerifyLimit, "verify --limit 10 --trace " + bad},
      {kStrip, "trace strip " + bad + " -o " + out},
      {kCompare, "trace compare " + bad + " " + good},
      {kCompare, "trace compare " + good + " " + bad},
      {kUpgrade, "trace upgrade " + bad + " -o " + out},
  };
  for (const Cmd& c : cmds) {
    if (!(which & c.rd & g_run)) continue;
    std::filesystem::remove(out);
    const CmdResult r = arcsim(c.args);
    EXPECT_EQ(r.code, 2) << "arcsim " << c.args << "\nstdout: " << r.out << "\nstderr: " << r.err;
    EXPECT_EQ(r.err.rfind("arcsim: error: ", 0), 0u) << "arcsim " << c.args << ": " << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "arcsim " << c.args << ": " << r.err;
    EXPECT_NE(r.err.find(what), std::string::npos) << "arcsim " << c.args << ": expected '" << what << "' in: " << r.err;
    EXPECT_FALSE(std::filesystem::exists(out)) << "arcsim " << c.args << " wrote an output from a bad input";
  }
  g_run = kRunLater;
  // The library reader (what every one of them uses) says the same.
  if (!library) return;
  const std::string lib = testing::error_of([&] { read_trace(bad); });
  EXPECT_NE(lib.find(what), std::string::npos) << "read_trace: expected '" << what << "' in: " << lib;
}

// ---- trace surgery: a file as its header bytes and its blocks, framed again with valid crcs ---

struct Block {
  uint8_t kind = 0, r8 = 0;
  uint16_t r16 = 0;
  uint32_t count = 0;
  Bytes raw;    // the decompressed payload
  Bytes extra;  // stored after the zstd frame (a second frame)
};
struct Surgery {
  Bytes head;  // preamble, header, header crc
  std::vector<Block> blocks;
};

Surgery open_file(const std::string& path) {
  const Bytes b = read_bytes(path);
  Surgery s;
  size_t at = first_block_offset(b);
  s.head.assign(b.begin(), b.begin() + static_cast<long>(at));
  while (at < b.size()) {
    const detail::BlockHeader bh = detail::parse_block_header(b.data() + at, "block");
    Block k;
    k.kind = static_cast<uint8_t>(bh.kind);
    k.count = bh.count;
    detail::unframe_payload(bh, b.data() + at + detail::kBlockHeaderBytes, k.raw, "block");
    s.blocks.push_back(std::move(k));
    at += detail::kBlockHeaderBytes + bh.stored_bytes;
  }
  return s;
}

Bytes frame(const Block& k) {
  const Bytes f = detail::frame_block(static_cast<BlockKind>(k.kind == 9 ? 1 : k.kind), k.count, k.raw, 3);
  Bytes stored(f.begin() + detail::kBlockHeaderBytes, f.end());
  stored.insert(stored.end(), k.extra.begin(), k.extra.end());
  Bytes h;
  detail::put_u8(h, k.kind);
  detail::put_u8(h, k.r8);
  detail::put_u16(h, k.r16);
  detail::put_u32(h, k.count);
  detail::put_u32(h, static_cast<uint32_t>(k.raw.size()));
  detail::put_u32(h, static_cast<uint32_t>(stored.size()));
  detail::put_u32(h, detail::crc32_of(stored.data(), stored.size()));
  detail::put_u32(h, detail::crc32_of(h.data(), h.size()));
  h.insert(h.end(), stored.begin(), stored.end());
  return h;
}

Bytes build(const Surgery& s) {
  Bytes b = s.head;
  for (const Block& k : s.blocks) {
    const Bytes f = frame(k);
    b.insert(b.end(), f.begin(), f.end());
  }
  return b;
}

void save(const std::string& path, const Surgery& s) { write_bytes(path, build(s)); }

size_t index_of(const Surgery& s, BlockKind kind, bool last = false) {
  size_t found = SIZE_MAX;
  for (size_t i = 0; i < s.blocks.size(); ++i)
    if (s.blocks[i].kind == static_cast<uint8_t>(kind)) {
      found = i;
      if (!last) break;
    }
  EXPECT_NE(found, SIZE_MAX) << "no block of kind " << int(kind);
  return found;
}

// The end block's four totals, rewritten.
void set_end(Block& end, uint64_t instructions, uint64_t lanes, uint64_t iblocks, uint64_t bblocks) {
  end.raw.clear();
  for (uint64_t v : {instructions, lanes, iblocks, bblocks}) detail::put_varint(end.raw, v);
}
detail::EndTotals end_of(const Surgery& s) { return detail::decode_end(s.blocks.back().raw, "end"); }

// Version 2: the same file without its warp table.
Surgery as_v2(Surgery s) {
  s.head[8] = 2;
  s.head[9] = 0;
  std::vector<Block> kept;
  for (Block& k : s.blocks)
    if (k.kind != static_cast<uint8_t>(BlockKind::WarpTable)) kept.push_back(std::move(k));
  s.blocks = std::move(kept);
  return s;
}

// A full trace (values, final buffer in several blocks) and a timing-only one, both version 3.
std::string full_trace(const std::string& tag, uint64_t seed = 7) {
  tracegen::GenConfig c;
  c.seed = seed;
  c.instructions = 3000;
  c.buffer_words = (1u << 20) + 300;  // two final-buffer blocks (2^20 words each at most)
  WriterOptions o;
  o.records_per_block = 1000;
  const std::string path = tmp_path(tag);
  tracegen::generate(c, path, o);
  return path;
}
std::string timing_trace(const std::string& tag) {
  tracegen::GenConfig c;
  c.seed = 8;
  c.instructions = 3000;
  c.buffer_words = 4096;
  c.timing_only = true;
  WriterOptions o;
  o.records_per_block = 1000;
  const std::string path = tmp_path(tag);
  tracegen::generate(c, path, o);
  return path;
}

// ---- header fields, patched in place (the writer refuses to write them) -----------------------

// Offset (in the file) of header field `name`, walking the header body (FORMAT.md).
size_t header_field(const Bytes& b, const std::string& name) {
  size_t p = 16;
  const auto str = [&] { p += 4 + detail::get_u32(b.data() + p); };
  str();  // gpu_name
  if (name == "sm_count") return p;
  p += 4;
  if (name == "subcores_per_sm") return p;
  p += 4;
  str();   // kernel_name
  p += 1;  // method
  if (name == "balancing_threshold") return p;
  p += 4;
  str();   // scene_generator
  p += 8;  // scene_seed
  if (name == "buffer_words") return p;
  p += 8 + 1 + 1 + 1;  // buffer_words, reduce_ftz, gap_unit, timing_only
  p += 4;              // grid_blocks
  if (name == "threads_per_block") return p;
  p += 4;
  if (name == "resident_warps_per_sm") return p;
  ADD_FAILURE() << "unknown field " << name;
  return 0;
}

// A copy of `good` with header field `name` (u32, or u64 for buffer_words) set to v, header crc fixed.
std::string with_header_field(const std::string& good, const std::string& name, uint64_t v, const std::string& tag) {
  Bytes b = read_bytes(good);
  const size_t at = header_field(b, name);
  const int width = name == "buffer_words" ? 8 : 4;
  for (int i = 0; i < width; ++i) b[at + static_cast<size_t>(i)] = static_cast<uint8_t>(v >> (8 * i));
  const uint32_t hlen = detail::get_u32(b.data() + 12);
  const uint32_t crc = detail::crc32_of(b.data() + 16, hlen);
  for (int i = 0; i < 4; ++i) b[16 + hlen + static_cast<size_t>(i)] = static_cast<uint8_t>(crc >> (8 * i));
  const std::string path = tmp_path(tag);
  write_bytes(path, b);
  return path;
}

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

TEST(TraceReject, InfoSimAndVerifyCheckTheWarpTableAgainstTheRecords) {
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
  expect_rejected(bad, good, kInfo | kSim | kVerify | kVerifyLimit, "warp table entry 1", false);
  EXPECT_NE(testing::error_of([&] { compute_stats(bad); }).find("warp table entry 1"), std::string::npos);
  EXPECT_EQ(testing::error_of([&] { compute_stats(good); }), "");
}

}  // namespace
}  // namespace arc::trace
