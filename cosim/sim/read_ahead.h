// The timing model's trace read-ahead (trace_source.cpp's FileSource): records read for
// warps the model has not reached wait in per-warp queues, packed.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "cache_hint.h"
#include "huge_pages.h"
#include "lane_mask.h"
#include "trace.h"
#include "trace_source.h"

namespace arc::sim {

// True when every active lane of `in` (mask != 0) is on the word of its lowest active lane.
inline bool one_address(const trace::Instr& in) {
  const uint32_t a0 = in.addr[static_cast<size_t>(__builtin_ctz(in.active_mask))];
  return (lanes_equal(in.addr, a0) & in.active_mask) == in.active_mask;
}

// Read-ahead: a record read for another warp waits in that warp's queue, packed (varint
// fields, zigzag address deltas between active lanes, raw values; no partial sums, which the
// model never reads): ~6 bytes per lane instead of the 432-byte Instr. The queues live in
// one pool of fixed-size chunks (ChunkQueues): a chunk a queue has read past goes back to the
// pool at once, so the memory held is the bytes read ahead now plus at most two partly used
// chunks per warp with a backlog, never the sum of every warp's largest backlog (a per-warp
// growable buffer kept that, 2.9 GB on the 1080p gs capture). Each warp's next instruction is
// unpacked once into a head slot (a small reused pool), where it stays put until pop(w); a
// record that is the asking warp's next one goes straight there. In a balanced run nearly
// every record waits in a queue (only the warp furthest ahead reads the file), which is why a
// timing-only trace's call travels as one record.
// A queued record: a 2-byte length (little-endian), then that many bytes. Its whole size.
inline size_t record_length(const uint8_t* p) { return 2 + (static_cast<size_t>(p[0]) | static_cast<size_t>(p[1]) << 8); }

class ChunkQueues {
 public:
  // Bytes of a chunk's data. 1 KB: a full trace's record (~115 bytes on the synthetic trace)
  // seldom straddles two chunks (at 256 B four in ten did: copied out, with a chase down the
  // chain) and a warp's queued records lie together. The price, at most two partly used chunks
  // per warp with a backlog: the 1M synthetic trace's read-ahead peak 10.5 -> 17.9 MB
  // timing-only, 45.6 -> 52.1 MB full (both ran 10-20 % faster; 2 KB: no faster, more memory).
  // 1020 data bytes and the chain link make a chunk 1 KB, 2,048 to a 2 MB block.
  static constexpr uint32_t kChunk = 1020;
  explicit ChunkQueues(size_t queues) : q_(queues) {}
  uint32_t count(size_t w) const { return q_[w].count; }
  // memcpy(d, s, n), without a library call for the usual 17-32 bytes (a warp-uniform
  // record): two overlapping 16-byte copies.
  static void copy_bytes(uint8_t* d, const uint8_t* s, size_t n) {
    if (n >= 16 && n <= 32) {
      std::memcpy(d, s, 16);
      std::memcpy(d + n - 16, s + n - 16, 16);
    } else {
      std::memcpy(d, s, n);
    }
  }
  // Appends one record of n bytes to queue w.
  void push(size_t w, const uint8_t* p, size_t n) {
    Queue& q = q_[w];
    while (n) {
      if (q.tail == kNil || q.wr == kChunk) {
        const uint32_t c = take_chunk();
        if (q.tail == kNil) q.head = c;
        else chunk(q.tail).next = c;
        q.tail = c;
        q.wr = 0;
      }
      const size_t k = std::min<size_t>(n, kChunk - q.wr);
      copy_bytes(chunk(q.tail).data + q.wr, p, k);
      q.wr += static_cast<uint32_t>(k);
      p += k;
      n -= k;
    }
    ++q.count;
  }
  // Copies the next n bytes of queue w to out and drops them (freeing emptied chunks).
  void take(size_t w, uint8_t* out, size_t n) {
    Queue& q = q_[w];
    while (n) {
      const uint32_t end = q.head == q.tail ? q.wr : kChunk;
      const size_t k = std::min<size_t>(n, end - q.rd);
      copy_bytes(out, chunk(q.head).data + q.rd, k);
      q.rd += static_cast<uint32_t>(k);
      out += k;
      n -= k;
      if (q.rd == kChunk || (q.head == q.tail && q.rd == q.wr)) {
        const uint32_t next = chunk(q.head).next;
        give_chunk(q.head);
        if (q.head == q.tail) {
          q.head = q.tail = kNil;
          q.wr = 0;
        } else {
          q.head = next;
        }
        q.rd = 0;
      }
    }
  }
  void record_taken(size_t w) { --q_[w].count; }
  // Copies the next record of queue w (its 2-byte length, then that many bytes) to out and
  // drops it, across chunks: for a record peek_whole() does not give.
  void take_record(size_t w, uint8_t* out) {
    take(w, out, 2);
    take(w, out + 2, record_length(out) - 2);
  }
  // The next record of queue w where it lies whole in its head chunk with bytes after it (the
  // common case: read in place, then drop_whole()); null otherwise (take_record() copies it).
  const uint8_t* peek_whole(size_t w) const {
    const Queue& q = q_[w];
    const uint32_t end = q.head == q.tail ? q.wr : kChunk;
    if (end - q.rd < 2) return nullptr;
    const uint8_t* p = chunk(q.head).data + q.rd;
    return end - q.rd > record_length(p) ? p : nullptr;
  }
  // Starts loading queue w's bookkeeping.
  void prefetch_queue(size_t w) const { load_hint(&q_[w]); }
  // Starts loading where push(w) will write (its tail chunk's next bytes, if any).
  void prefetch_tail(size_t w) const {
    const Queue& q = q_[w];
    if (q.tail == kNil || q.wr == kChunk) return;
    const uint8_t* p = chunk(q.tail).data + q.wr;
    load_hint(p);
    load_hint(p + 64);
    if (q.wr + 128 < kChunk) load_hint(p + 128);
  }
  // Where queue w's next record starts (null when the queue is empty).
  const uint8_t* front_at(size_t w) const {
    const Queue& q = q_[w];
    return q.count ? chunk(q.head).data + q.rd : nullptr;
  }
  // Drops the record peek_whole(w) gave (n bytes, length included): the chunk stays.
  void drop_whole(size_t w, size_t n) {
    q_[w].rd += static_cast<uint32_t>(n);
    --q_[w].count;
  }
  size_t chunks_peak() const { return chunks_; }  // the pool never shrinks: its size is the peak

 private:
  static constexpr uint32_t kNil = ~0u;
  struct Chunk {
    uint32_t next = kNil;
    uint8_t data[kChunk];
  };
  static_assert(sizeof(Chunk) == 1024, "2,048 chunks fill one 2 MB block");
  struct Queue {
    uint32_t head = kNil, tail = kNil;  // chunk chain, oldest first
    uint32_t rd = 0, wr = 0;            // read offset in head, write offset in tail
    uint32_t count = 0;                 // records
  };
  // Chunks live in blocks of kBlock that never move: chunk c is one index into a short table
  // of blocks away (a std::deque of these chunks held one per node, behind a map lookup that
  // missed the cache as often as the chunk did). A block is one 2 MB page where the kernel
  // has transparent huge pages (huge_block): the read-ahead (50-60 MB of chunks on issue 16's
  // trace with values) then takes a page fault and a TLB entry per 2 MB, not per 4 KB.
  static constexpr uint32_t kBlockShift = 11, kBlock = 1u << kBlockShift;
  Chunk& chunk(uint32_t c) { return blocks_[c >> kBlockShift].get()[c & (kBlock - 1)]; }
  const Chunk& chunk(uint32_t c) const { return blocks_[c >> kBlockShift].get()[c & (kBlock - 1)]; }
  static HugePtr<Chunk> new_block() {
    void* p = huge_block(size_t{kBlock} * sizeof(Chunk));
    auto* c = static_cast<Chunk*>(p);
    std::uninitialized_default_construct_n(c, kBlock);
    return HugePtr<Chunk>(c);
  }
  uint32_t take_chunk() {
    if (free_.empty()) {
      if (chunks_ % kBlock == 0) blocks_.push_back(new_block());
      return chunks_++;
    }
    const uint32_t c = free_.back();
    free_.pop_back();
    chunk(c).next = kNil;
    return c;
  }
  void give_chunk(uint32_t c) { free_.push_back(c); }

  std::vector<Queue> q_;
  std::vector<HugePtr<Chunk>> blocks_;
  uint32_t chunks_ = 0;  // chunks made (in blocks_)
  std::vector<uint32_t> free_;
};

// A record packed for a warp's queue: its 2-byte length, then a fixed part of kFixed bytes
// (active mask, gap and the uniform word as u32; flags as u16; param, nparams, `more` and the
// address kind as u8), the stride (i64) where more > 0, then the lanes: nothing for a
// warp-uniform record (every active lane on the one word), else its few words and a word
// index per lane, or zigzag varint deltas between active lanes' addresses (kLanes* below);
// then the raw values (full traces only). No seq, reduced mask or
// partial sums: the model reads none of them. The fixed part is read with plain loads
// (unpack_brief, per instruction on the model's thread).
namespace packed {

// Offsets in the fixed part (after the length).
constexpr size_t kMask = 0, kGap = 4, kWord = 8, kFlags = 12, kParam = 14, kNparams = 15, kMore = 16, kUniform = 17;
constexpr size_t kFixed = 18;
static_assert(trace::kFlagsDefined < 0x10000, "the packed flags are a u16");
// The byte at kUniform: how the lanes' addresses follow. Uniform: none (every active lane on
// the fixed part's word). Words: a record whose lanes are on at most kMaxWords words (most
// of those that are not warp-uniform), as a u8 count, the words (u32 each) and a byte per
// active lane naming its word: no multi-byte varint per lane to write or read (the words of a
// scattered instruction lie far apart). Deltas: any other, zigzag varint deltas.
constexpr uint8_t kLanesDeltas = 0, kLanesUniform = 1, kLanesWords = 2;
constexpr uint32_t kMaxWords = 8;

// A timing-only trace's call travels as one record, its param 0 with `more` = the params that
// follow (then the stride): they differ from it only as next_param() says.
// The most bytes one packed record takes: the length, the fixed part, a stride, and 32 lanes
// of a zigzag delta (<= 10) and a value (4).
constexpr size_t kMax = 2 + kFixed + 8 + trace::kLanes * 14;
static_assert(kMax < 0x10000);

// Packs `in` at out (kMax bytes free); returns the bytes written, length prefix included.
// more > 0: `in` is param 0 of a call whose next `more` params are next_param() of it (timing-only).
size_t pack(const trace::Instr& in, bool values, uint8_t* out, uint32_t more = 0, int64_t stride = 0);
// pack(in, true, out) for a full trace's instruction whose values are `values` (as
// trace::Reader::packed_values gives them; in.value is not read): the same bytes. uniform:
// known warp-uniform (the reader said so), else its lanes tell.
size_t pack_full(const trace::Instr& in, const uint8_t* values, bool uniform, uint8_t* out);
// The same for a timing-only `in` known to be warp-uniform (every active lane on one word;
// the reader said so): the fixed part and the stride, no look at its lanes. Inline: once per
// record on the reader's thread.
// Writes a record's fixed part (the uniform word, the address kind) and, where more > 0, the
// stride at o (after the length prefix); returns the bytes written. The layout's one writer.
inline size_t put_fixed(const trace::Instr& in, uint32_t word, uint8_t kind, uint32_t more, int64_t stride,
                        uint8_t* o) {
  __builtin_memcpy(o + kMask, &in.active_mask, 4);
  __builtin_memcpy(o + kGap, &in.gap, 4);
  __builtin_memcpy(o + kWord, &word, 4);
  const uint16_t flags = static_cast<uint16_t>(in.flags);  // check_instr(): only kFlagsDefined
  __builtin_memcpy(o + kFlags, &flags, 2);
  o[kParam] = in.param;
  o[kNparams] = in.nparams;
  o[kMore] = static_cast<uint8_t>(more);
  o[kUniform] = kind;
  if (!more) return kFixed;
  __builtin_memcpy(o + kFixed, &stride, 8);
  return kFixed + 8;
}
inline size_t pack_uniform_timing(const trace::Instr& in, uint8_t* out, uint32_t more, int64_t stride) {
  const uint32_t word = in.addr[static_cast<size_t>(__builtin_ctz(in.active_mask))];
  const size_t n = put_fixed(in, word, kLanesUniform, more, stride, out + 2);
  out[0] = static_cast<uint8_t>(n);
  out[1] = static_cast<uint8_t>(n >> 8);
  return n + 2;
}
// Where the values of the record at p (its length prefix first) start, for a warp-uniform
// record of a full trace (nothing else follows its fixed part and stride).
inline const uint8_t* uniform_values(const uint8_t* p) { return p + 2 + kFixed + (p[2 + kMore] ? 8 : 0); }
// Warp instructions the record at p stands for (1, or a call's params).
inline uint32_t instructions(const uint8_t* p) { return 1u + p[2 + kMore]; }
// Unpacks the record at p (its length prefix first) into out; sm, subcore and warp stay as they
// are, seq and reduced_mask read 0.
void unpack(const uint8_t* p, bool values, trace::Instr& out, uint32_t& more, int64_t& stride);
// The fields an Instr and an InstrBrief share, from the fixed part of the record at p (its
// length prefix first); returns where its stride (if any) and lanes follow.
template <class Out>
const uint8_t* read_common(const uint8_t* p, Out& out, uint32_t& more, int64_t& stride) {
  p += 2;
  __builtin_memcpy(&out.active_mask, p + kMask, 4);
  __builtin_memcpy(&out.gap, p + kGap, 4);
  uint16_t flags;
  __builtin_memcpy(&flags, p + kFlags, 2);
  out.flags = flags;
  out.param = p[kParam];
  out.nparams = p[kNparams];
  more = p[kMore];
  const uint8_t* q = p + kFixed;
  stride = 0;
  if (more) {
    __builtin_memcpy(&stride, q, 8);
    q += 8;
  }
  return q;
}
// A kLanesWords record (else 0) at p as its words in lane order of first appearance, each
// with its lane count, for param `param` of its call (words + param x stride); returns their
// number (<= kMaxWords).
uint32_t word_runs(const uint8_t* p, uint32_t param, int64_t stride, uint32_t* words, uint32_t* counts);
// The record at p without its lanes (what unpack() would give, briefly), with its call's more
// and stride. Inline: once per warp instruction, on the model's thread.
inline void unpack_brief(const uint8_t* p, InstrBrief& out) {
  uint32_t more;
  out.uniform = p[2 + kUniform] == kLanesUniform;
  __builtin_memcpy(&out.addr, p + 2 + kWord, 4);
  read_common(p, out, more, out.stride);
  out.more = static_cast<uint8_t>(more);
}
// The call's next param from this one: param and seq + 1, gap 0, not first of its warp, active
// lanes' addresses + stride (what trace::Reader::next() makes of a call's record).
void next_param(trace::Instr& in, int64_t stride);
void next_param(InstrBrief& in, int64_t stride);
// next_param() k times.
void advance(trace::Instr& in, uint32_t k, int64_t stride);

}  // namespace packed

}  // namespace arc::sim
