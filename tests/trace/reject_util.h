// Shared by the reject tests (test_trace_reject*.cpp): running every reader on a bad file and
// expecting one error line (expect_rejected), and "trace surgery": a file taken apart into its
// header bytes and blocks, changed, and framed again with valid checksums, as a buggy producer
// or a bad copy would leave it.
#pragma once
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "test_util.h"
#include "trace.h"
#include "tracegen.h"

namespace arc::trace::reject {

using detail::BlockKind;
using detail::Bytes;
using testing::arcsim;
using testing::CmdResult;
using testing::first_block_offset;
using testing::read_bytes;
using testing::tmp_path;
using testing::write_bytes;

// ---- the readers ----------------------------------------------------------------------------

enum Rd : unsigned { kSim = 1, kInfo = 2, kVerify = 4, kVerifyLimit = 8, kStrip = 16, kCompare = 32, kUpgrade = 64 };
constexpr unsigned kFull = kSim | kInfo | kVerify | kVerifyLimit | kStrip | kCompare;  // a full v3 trace's readers
constexpr unsigned kTiming = kSim | kInfo | kCompare;  // a timing-only trace's (verify and strip refuse it anyway)
// The sanitizer build runs each case through the library reader and `trace info`, and the first
// case of each test through `sim` too (the streaming reader on its worker thread); the other
// commands wrap the same Reader and run in the normal build (an instrumented arcsim per command
// took ~200 CPU-s there).
#ifdef ARCSIM_QUICK_READERS
inline unsigned g_run = kSim | kInfo;
constexpr unsigned kRunLater = kInfo;
#else
inline unsigned g_run = ~0u;
constexpr unsigned kRunLater = ~0u;
#endif

// Every reader in `which` exits 2 with exactly one stderr line naming `what`; strip and
// upgrade leave no output file. `good`: a valid trace to compare against.
inline void expect_rejected(const std::string& bad, const std::string& good, unsigned which, const std::string& what,
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

inline Surgery open_file(const std::string& path) {
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

inline Bytes frame(const Block& k) {
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

inline Bytes build(const Surgery& s) {
  Bytes b = s.head;
  for (const Block& k : s.blocks) {
    const Bytes f = frame(k);
    b.insert(b.end(), f.begin(), f.end());
  }
  return b;
}

inline void save(const std::string& path, const Surgery& s) { write_bytes(path, build(s)); }

inline size_t index_of(const Surgery& s, BlockKind kind, bool last = false) {
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
inline void set_end(Block& end, uint64_t instructions, uint64_t lanes, uint64_t iblocks, uint64_t bblocks) {
  end.raw.clear();
  for (uint64_t v : {instructions, lanes, iblocks, bblocks}) detail::put_varint(end.raw, v);
}
inline detail::EndTotals end_of(const Surgery& s) { return detail::decode_end(s.blocks.back().raw, "end"); }

// Version 2: the same file without its warp table.
inline Surgery as_v2(Surgery s) {
  s.head[8] = 2;
  s.head[9] = 0;
  std::vector<Block> kept;
  for (Block& k : s.blocks)
    if (k.kind != static_cast<uint8_t>(BlockKind::WarpTable)) kept.push_back(std::move(k));
  s.blocks = std::move(kept);
  return s;
}

// A full trace (values, final buffer in several blocks) and a timing-only one, both version 3.
inline std::string full_trace(const std::string& tag, uint64_t seed = 7) {
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
inline std::string timing_trace(const std::string& tag) {
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
inline size_t header_field(const Bytes& b, const std::string& name) {
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
inline std::string with_header_field(const std::string& good, const std::string& name, uint64_t v, const std::string& tag) {
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

}  // namespace arc::trace::reject
