// Internal to arc_trace (and its tests): byte-level pieces of the format in FORMAT.md --
// little-endian integers, LEB128 varints, the file header and block framing (zstd + crc32).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "trace.h"

namespace arc::trace::detail {

constexpr char kMagic[8] = {'A', 'R', 'C', 'T', 'R', 'A', 'C', 'E'};
constexpr size_t kPreambleBytes = 16;     // magic, u16 version, u16 reserved, u32 header length
constexpr size_t kBlockHeaderBytes = 24;  // see FORMAT.md "Blocks"
constexpr uint32_t kMaxHeaderBytes = 1u << 20;
constexpr uint32_t kMaxBlockRawBytes = 64u << 20;
constexpr uint32_t kBufferWordsPerBlock = 1u << 20;

enum class BlockKind : uint8_t { Records = 1, Buffer = 2, End = 3, WarpTable = 4 };
constexpr uint32_t kWarpsPerTableBlock = 1u << 16;  // warp-table entries per kind-4 block (version 3)

using Bytes = std::vector<uint8_t>;

inline void put_u8(Bytes& b, uint8_t v) { b.push_back(v); }
inline void put_u16(Bytes& b, uint16_t v) {
  b.push_back(static_cast<uint8_t>(v));
  b.push_back(static_cast<uint8_t>(v >> 8));
}
inline void put_u32(Bytes& b, uint32_t v) {
  for (int i = 0; i < 4; ++i) b.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
inline void put_u64(Bytes& b, uint64_t v) {
  for (int i = 0; i < 8; ++i) b.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
inline void put_varint(Bytes& b, uint64_t v) {
  while (v >= 0x80) {
    b.push_back(static_cast<uint8_t>(v | 0x80));
    v >>= 7;
  }
  b.push_back(static_cast<uint8_t>(v));
}
inline uint64_t zigzag(int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63); }
inline int64_t unzigzag(uint64_t v) { return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1); }
inline uint32_t get_u32(const uint8_t* p) {
  return uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
}
std::string hex32(uint32_t v);  // "0x0000ffff"
inline uint16_t get_u16(const uint8_t* p) { return static_cast<uint16_t>(p[0] | p[1] << 8); }

// The LEB128 varint at p into v when it takes at most three bytes (deltas, flags, gaps, most
// addresses), p past it; false (nothing read past p[2], p unchanged) for a longer one. p[0..2]
// must be readable.
inline bool short_varint(const uint8_t*& p, uint64_t& v) {
  const uint64_t b0 = p[0];
  if (b0 < 0x80) {
    v = b0;
    p += 1;
    return true;
  }
  const uint64_t b1 = p[1];
  if (b1 < 0x80) {
    v = (b0 & 0x7F) | b1 << 7;
    p += 2;
    return true;
  }
  const uint64_t b2 = p[2];
  if (b2 < 0x80) {
    v = (b0 & 0x7F) | (b1 & 0x7F) << 7 | b2 << 14;
    p += 3;
    return true;
  }
  return false;
}

// True when the n bytes at p are all zero (n varints of 0).
inline bool all_zero(const uint8_t* p, size_t n) {
  uint64_t any = 0;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {  // eight at a time (a warp-uniform record: up to 31 zero bytes)
    uint64_t w;
    std::memcpy(&w, p + i, 8);
    any |= w;
  }
  if (i < n && n >= 8) {  // the last n - i: the eight ending at n (overlapping the ones above)
    uint64_t w;
    std::memcpy(&w, p + n - 8, 8);
    any |= w;
  } else {
    for (; i < n; ++i) any |= p[i];
  }
  return any == 0;
}

// A bounds-checked cursor over a decoded payload. Running past the end throws arc::Error
// with `what` (e.g. "block 3") in the message.
class Cursor {
 public:
  Cursor(const uint8_t* p, size_t n, std::string what) : p_(p), end_(p + n), what_(std::move(what)) {}
  uint8_t u8() { need(1); return *p_++; }
  uint16_t u16() { need(2); const uint16_t v = get_u16(p_); p_ += 2; return v; }
  uint32_t u32() { need(4); const uint32_t v = get_u32(p_); p_ += 4; return v; }
  uint64_t u64() { const uint64_t lo = u32(); return lo | uint64_t(u32()) << 32; }
  uint64_t varint() {
    uint64_t v;
    if (end_ - p_ >= 3) {
      if (short_varint(p_, v)) return v;
    } else if (p_ != end_ && *p_ < 0x80) {
      return *p_++;
    }
    return varint_long();
  }
  std::string str();  // u32 length + bytes
  bool done() const { return p_ == end_; }
  size_t left() const { return static_cast<size_t>(end_ - p_); }
  const uint8_t* pos() const { return p_; }
  void skip_to(const uint8_t* p) { p_ = p; }  // p: pos() .. pos() + left()
  // The varint (any length) at p, a position in this cursor's data, into v; returns the
  // position past it. Fails as varint() does (the data ends inside it, or it is over 10 bytes).
  const uint8_t* varint_at(const uint8_t* p, uint64_t& v) const;
  // The next n_bytes bytes (one bounds check for all of them).
  const uint8_t* take(size_t n_bytes) {
    need(n_bytes);
    const uint8_t* p = p_;
    p_ += n_bytes;
    return p;
  }
  // True (and skips them) when the next n bytes exist and are all zero: n varints of 0.
  bool skip_zeros(size_t n) {
    if (left() < n || !all_zero(p_, n)) return false;
    p_ += n;
    return true;
  }
  [[noreturn]] void fail(const std::string& msg) const;

 private:
  uint64_t varint_long();
  void need(size_t n) const {
    if (static_cast<size_t>(end_ - p_) < n) fail("malformed: data ends inside a field");
  }
  const uint8_t* p_;
  const uint8_t* end_;
  std::string what_;
};

uint32_t crc32_of(const uint8_t* p, size_t n);  // zlib crc32

// File header: preamble + body + crc32(body).
// Header field ranges (FORMAT.md "File layout"; the simulator's config limits, cosim/config).
constexpr uint32_t kMaxSms = 4096, kMaxSubcoresPerSm = 16, kMaxThreshold = 32;
constexpr uint32_t kMaxThreadsPerBlock = 1024, kMaxResidentWarpsPerSm = 1024;
constexpr uint64_t kMaxBufferWords = uint64_t(1) << 32;  // addresses are 32-bit word indices
// "" when h's fields are in range, else what is wrong (one phrase). The writer and the reader
// both check it.
std::string check_header(const Header& h);
Bytes encode_header(const Header& h);
Header decode_header_body(const uint8_t* p, size_t n, const std::string& file, uint16_t version);

// A framed block: 24-byte block header + zstd frame of `raw`.
// raw_literals: zstd stores the literals as they are (no Huffman coding). For records with lane
// values, which are near-random float bits, that costs ~6% of the file and makes reading it
// ~5x faster (a 1M-instruction synthetic trace: 81.2% -> 86.9% of the raw bytes, 0.195 ->
// 0.035 s to decompress); timing-only records compress far better with it on.
Bytes frame_block(BlockKind kind, uint32_t count, const Bytes& raw, int zstd_level, bool raw_literals = false);

struct BlockHeader {
  BlockKind kind;
  uint32_t count;         // records, buffer words, or 0 (end block)
  uint32_t raw_bytes;     // payload size after decompression
  uint32_t stored_bytes;  // zstd frame size that follows
  uint32_t payload_crc;   // crc32 of the stored (compressed) bytes
};
// Parses and checks a block header (its own crc, kind, sizes); `where` names the block.
BlockHeader parse_block_header(const uint8_t* p, const std::string& where);
// Checks the payload crc, decompresses (exactly one zstd frame), checks the size; throws
// arc::Error naming `where`.
void unframe_payload(const BlockHeader& bh, const uint8_t* stored, Bytes& raw, const std::string& where);

// The end block's payload (FORMAT.md "Blocks"): four varints and nothing after them.
struct EndTotals {
  uint64_t instructions = 0, lanes = 0, instruction_blocks = 0, buffer_blocks = 0;
};
EndTotals decode_end(const Bytes& raw, const std::string& where);

// The last sequence number of each warp within the current block: the codec's seq prediction.
// A table per SM for small ids (hardware slots), a hash map beyond; reset() is O(1).
class SeqBook {
 public:
  bool get(uint32_t sm, uint32_t warp, uint64_t& seq) const;
  void set(uint32_t sm, uint32_t warp, uint64_t seq);
  void reset();

 private:
  static constexpr uint32_t kDense = 1u << 12;
  struct Slot {
    uint32_t epoch = 0;
    uint64_t seq = 0;
  };
  uint32_t epoch_ = 1;
  std::vector<std::vector<Slot>> dense_;
  std::unordered_map<uint64_t, uint64_t> sparse_;
};

// Record encoding within a Records block (state resets at every block). One record = one
// call: `call[0..n)` are its params (n = call[0].nparams), already checked to agree.
class RecordEncoder {
 public:
  explicit RecordEncoder(bool timing_only = false) : timing_only_(timing_only) {}
  void reset();
  void encode(const Instr* call, size_t n, Bytes& out);

 private:
  bool timing_only_;
  uint32_t prev_addr_ = 0;
  SeqBook last_seq_;  // (sm, warp) -> last seq in this block
};

// check_instr(h, in) is empty, for an `in` whose active lanes are all on one address (a
// warp-uniform record): the same conditions without a look at every lane (Reader::next_call's
// fast path). False: check_instr() says what is wrong. Not for any other `in`.
// Inline: once per record on the reader's thread (Reader::next_call).
inline bool uniform_ok(const Header& h, const Instr& in) {
  const uint32_t mask = in.active_mask;
  if (mask == 0 || in.nparams < 1 || in.nparams > kMaxParams || in.param >= in.nparams) return false;
  if ((in.flags & ~kFlagsDefined) ||
      __builtin_popcount(in.flags & kFlagsSumOrder) > 1 || ((in.flags & kFlagPairCall) && (in.flags & kFlagPairSum)) ||
      ((in.flags & kFlagVec2) && (in.flags & kFlagVec4)))
    return false;
  if ((h.sm_count && in.sm >= h.sm_count) || (h.subcores_per_sm && in.subcore >= h.subcores_per_sm)) return false;
  if (in.addr[static_cast<size_t>(__builtin_ctz(mask))] >= h.buffer_words) return false;
  const uint32_t r = in.reduced_mask;
  if (in.flags & kFlagPairCall) return r == 0;
  // Pair sums: each reduced lane's next lane active (so on the one address), no two adjacent.
  if (in.flags & kFlagPairSum) return (r & ~mask) == 0 && (r & (r << 1)) == 0 && (r & ~(mask >> 1)) == 0;
  return (r & ~(mask & (0u - mask))) == 0;  // at most the lowest active lane leads
}

class RecordDecoder {
 public:
  RecordDecoder(uint16_t version, bool timing_only) : version_(version), timing_only_(timing_only) {}
  void reset();
  // Decodes one record into `call` (resized to its nparams); throws through Cursor on
  // malformed data. expand = false (timing-only traces only): call[0] alone, param 0; the
  // other params are nparams() and stride() away (param p at address + p x stride).
  void decode(Cursor& c, std::vector<Instr>& call, bool expand = true);
  uint32_t nparams() const { return nparams_; }  // of the last record decoded
  void ignore_seq() { track_seq_ = false; }     // Reader::ignore_seq
  void keep_values_packed() { packed_values_ = true; }  // Reader::keep_values_packed
  // keep_values_packed(): param p's values (4 x popcount(mask) bytes) of the last record, in
  // the cursor's data (null for a timing-only trace).
  const uint8_t* packed_values(size_t p) const {
    return values_ ? values_ + p * 4 * static_cast<size_t>(__builtin_popcount(mask_)) : nullptr;
  }
  bool uniform() const { return uniform_; }      // the last record: every active lane on one address
  int64_t stride() const { return stride_; }

 private:
  uint16_t version_;
  bool timing_only_;
  bool track_seq_ = true;
  bool packed_values_ = false;
  const uint8_t* values_ = nullptr;  // packed_values_: the last record's values in the cursor's data
  uint32_t mask_ = 0;                // the last record's active mask
  bool uniform_ = false;
  uint32_t prev_addr_ = 0;
  SeqBook last_seq_;
  uint32_t nparams_ = 1;
  int64_t stride_ = 0;
  // decode()'s first part: param 0's fields and addresses into out (In: Cursor, or a window
  // of it known to hold them, read without bounds checks).
  template <class In>
  void decode_head(In& in, Instr& out);
};

// Warp-table block payloads (FORMAT.md "Warp table"): n entries encoded; `count` entries
// decoded and checked against the header (appended to `out` when given), returning the
// instructions they list; throws arc::Error naming `where`.
Bytes encode_warp_table(const WarpEntry* e, size_t n);
uint64_t decode_warp_table(const Bytes& raw, uint32_t count, const Header& h, const std::string& where,
                           std::vector<WarpEntry>* out);

// "" when params call[0..n) form one call as Instr::param describes, else what is wrong.
std::string check_call(const Instr* call, size_t n);

// A FILE* that closes itself.
struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

}  // namespace arc::trace::detail
