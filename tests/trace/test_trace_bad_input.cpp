// Bad input: every case gives one arc::Error whose one-line message names the problem (and
// the block, where there is one) -- never a crash, never silent acceptance.
#include <gtest/gtest.h>

#include "trace_codec.h"
#include "error.h"
#include "test_util.h"
#include "trace.h"

namespace arc::trace {
namespace {

using testing::first_block_offset;
using testing::read_bytes;
using testing::small_trace;
using testing::tmp_path;
using testing::write_bytes;

// Reads the whole file; returns the arc::Error message ("" if it read cleanly).
std::string read_error(const std::string& path) {
  try {
    read_trace(path);
  } catch (const Error& e) {
    const std::string msg = e.what();
    EXPECT_EQ(msg.find('\n'), std::string::npos) << "message is not one line: " << msg;
    return msg;
  }
  return "";
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

TEST(TraceBadInput, GoodFileReads) { EXPECT_EQ(read_error(small_trace("good")), ""); }

TEST(TraceBadInput, MissingFile) {
  const std::string msg = read_error("/nonexistent/dir/none.trace");
  EXPECT_TRUE(contains(msg, "cannot open trace '/nonexistent/dir/none.trace'")) << msg;
  EXPECT_TRUE(contains(msg, "No such file")) << msg;
}

TEST(TraceBadInput, WrongMagic) {
  const std::string path = small_trace("magic");
  auto b = read_bytes(path);
  b[3] = 'X';
  write_bytes(path, b);
  EXPECT_TRUE(contains(read_error(path), "not an ARCsim trace (wrong magic")) << read_error(path);
  write_bytes(path, {'h', 'e', 'l', 'l', 'o', '\n'});
  EXPECT_TRUE(contains(read_error(path), "wrong magic")) << read_error(path);
}

TEST(TraceBadInput, WrongVersion) {
  const std::string path = small_trace("version");
  auto b = read_bytes(path);
  b[8] = 7;
  b[9] = 0;
  write_bytes(path, b);
  EXPECT_TRUE(contains(read_error(path), "unsupported trace format version 7 (this arcsim reads versions 1 to 3)"))
      << read_error(path);
}

TEST(TraceBadInput, TruncatedFile) {
  const std::string good = small_trace("trunc");
  const auto b = read_bytes(good);
  const size_t block0 = first_block_offset(b);
  const size_t block1 = block0 + detail::kBlockHeaderBytes + detail::get_u32(b.data() + block0 + 12);
  // Cut inside the preamble, the header, a block header, a block's data, exactly between
  // blocks, and one byte short of the end.
  const size_t cuts[] = {10, 20, block0 + 5, block0 + 40, block1, b.size() - 1};
  int passed = 0;
  for (size_t cut : cuts) {
    const std::string path = tmp_path(std::to_string(cut));
    write_bytes(path, std::vector<uint8_t>(b.begin(), b.begin() + static_cast<long>(cut)));
    const std::string msg = read_error(path);
    EXPECT_TRUE(contains(msg, "truncated file")) << "cut at " << cut << ": " << msg;
    passed += contains(msg, "truncated file");
  }
  std::printf("truncated at %zu places: %d detected\n", std::size(cuts), passed);
}

TEST(TraceBadInput, FlippedByteNamesTheBlock) {
  const std::string path = small_trace("flip");
  auto b = read_bytes(path);
  const size_t block0 = first_block_offset(b);
  const size_t block1 = block0 + detail::kBlockHeaderBytes + detail::get_u32(b.data() + block0 + 12);
  b[block1 + detail::kBlockHeaderBytes + 17] ^= 0x10;  // inside block 1's compressed data
  write_bytes(path, b);
  const std::string msg = read_error(path);
  EXPECT_TRUE(contains(msg, "block 1 (offset " + std::to_string(block1) + "): checksum mismatch")) << msg;
}

// Every single-bit flip anywhere in a small file is caught (crc32 detects all of them).
TEST(TraceBadInput, EveryFlippedByteIsDetected) {
  const std::string good = small_trace("every", 3, 6);
  const auto b = read_bytes(good);
  const std::string path = tmp_path("flipped");
  int detected = 0, missed = 0;
  for (size_t i = 0; i < b.size(); ++i) {
    auto c = b;
    c[i] ^= static_cast<uint8_t>(1u << (i % 8));
    write_bytes(path, c);
    const bool caught = !read_error(path).empty();
    EXPECT_TRUE(caught) << "flip at byte " << i << " not detected";
    (caught ? detected : missed)++;
  }
  std::printf("single-bit flips in a %zu-byte trace: %d detected, %d missed\n", b.size(), detected, missed);
}

// A record whose lane count disagrees with its active mask, in a block with valid checksums
// (as a buggy producer would write it).
TEST(TraceBadInput, LaneDataInconsistentWithMask) {
  const std::string path = small_trace("lanes");
  const size_t at = testing::corrupt_lane_count(path);
  const std::string msg = read_error(path);
  EXPECT_TRUE(contains(msg, "block 0 (offset " + std::to_string(at) + ") record 0: lane data inconsistent with the mask"))
      << msg;
}

TEST(TraceBadInput, DroppedBlockIsNoticedAtTheEnd) {
  const std::string path = small_trace("drop");
  auto b = read_bytes(path);
  const size_t block0 = first_block_offset(b);
  const size_t block1 = block0 + detail::kBlockHeaderBytes + detail::get_u32(b.data() + block0 + 12);
  b.erase(b.begin() + static_cast<long>(block0), b.begin() + static_cast<long>(block1));
  write_bytes(path, b);
  EXPECT_TRUE(contains(read_error(path), "blocks are missing")) << read_error(path);
}

TEST(TraceBadInput, TrailingGarbage) {
  const std::string path = small_trace("tail");
  auto b = read_bytes(path);
  b.push_back(0);
  write_bytes(path, b);
  EXPECT_TRUE(contains(read_error(path), "unexpected data after the end-of-trace block")) << read_error(path);
}

// RecordDecoder reads a record's head without per-field bounds checks when the block holds
// enough bytes after it for the longest head, field by field otherwise: both read the same
// record, and give the same message for the same malformed one.
TEST(TraceBadInput, RecordHeadSameWithOrWithoutRoomAfterIt) {
  // Returns the message ("" if it decoded, then `out`), reading `rec` with `slack` bytes after it.
  const auto decode = [](const detail::Bytes& rec, size_t slack, Instr* out) -> std::string {
    detail::Bytes buf = rec;
    buf.resize(rec.size() + slack, 0);
    detail::Cursor c(buf.data(), buf.size(), "blk");
    detail::RecordDecoder dec(kVersion, true);
    std::vector<Instr> call;
    try {
      dec.decode(c, call, false);
    } catch (const Error& e) {
      return e.what();
    }
    EXPECT_EQ(c.pos(), buf.data() + rec.size());
    if (out) *out = call[0];
    return "";
  };
  Instr in;
  in.sm = 3;
  in.subcore = 1;
  in.warp = 200;
  in.active_mask = 0xF0F0F0F1u;
  in.gap = 100000;
  for (int l = 0; l < kLanes; ++l) in.addr[static_cast<size_t>(l)] = 1000u + 70001u * static_cast<uint32_t>(l % 7);
  detail::RecordEncoder enc(true);
  detail::Bytes rec;
  enc.encode(&in, 1, rec);
  for (size_t slack : {size_t{0}, size_t{600}}) {
    Instr got;
    ASSERT_EQ(decode(rec, slack, &got), "") << slack;
    EXPECT_TRUE(same_content(got, in)) << slack;
  }
  detail::Bytes long_sm = rec;  // sm (one byte) as an 11-byte varint
  long_sm.erase(long_sm.begin() + 1);
  long_sm.insert(long_sm.begin() + 1, {0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x03});
  detail::Bytes bad_count = rec;
  bad_count[0] = 3;
  Instr one;  // one lane on word 0: the record ends with its delta, 0
  one.active_mask = 1;
  detail::Bytes below_zero;
  detail::RecordEncoder enc1(true);
  enc1.encode(&one, 1, below_zero);
  ASSERT_EQ(below_zero.back(), 0);
  below_zero.back() = 1;  // zigzag -1: address -1
  for (const auto& [bad, want] : {std::pair{long_sm, "blk: malformed: varint longer than 10 bytes"},
                                  std::pair{bad_count, "blk: lane data inconsistent with the mask: 3 lane entries"},
                                  std::pair{below_zero, "blk: malformed: address delta leaves the 32-bit range"}}) {
    const std::string tight = decode(bad, 0, nullptr), roomy = decode(bad, 600, nullptr);
    EXPECT_TRUE(contains(tight, want)) << tight;
    EXPECT_EQ(tight, roomy);
  }
}

}  // namespace
}  // namespace arc::trace
