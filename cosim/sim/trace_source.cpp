#include "trace_source.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <deque>

#include "error.h"
#include "lane_mask.h"
#include "prefetch.h"
#include "proc.h"

namespace arc::sim {

namespace {

// (sm, warp) -> warp index. A table per SM (warp ids are small: hardware slots), a hash map
// only for ids beyond kDense (a producer may number its warps any way it likes).
class WarpIndex {
 public:
  static constexpr uint32_t kDense = 1u << 12;
  static constexpr size_t kNone = SIZE_MAX;
  size_t find(uint32_t sm, uint32_t warp) const {
    if (warp < kDense) {
      if (sm >= dense_.size() || warp >= dense_[sm].size()) return kNone;
      const uint32_t v = dense_[sm][warp];
      return v ? v - 1 : kNone;
    }
    const auto it = sparse_.find((static_cast<uint64_t>(sm) << 32) | warp);
    return it == sparse_.end() ? kNone : it->second;
  }
  void insert(uint32_t sm, uint32_t warp, size_t idx) {
    if (warp < kDense) {
      if (sm >= dense_.size()) dense_.resize(sm + 1);
      if (warp >= dense_[sm].size()) dense_[sm].resize(warp + 1, 0);
      dense_[sm][warp] = static_cast<uint32_t>(idx + 1);
    } else {
      sparse_.emplace((static_cast<uint64_t>(sm) << 32) | warp, idx);
    }
  }

 private:
  std::vector<std::vector<uint32_t>> dense_;
  std::unordered_map<uint64_t, size_t> sparse_;
};

// True when every active lane of `in` (mask != 0) is on the word of its lowest active lane.
bool one_address(const trace::Instr& in) {
  const uint32_t a0 = in.addr[static_cast<size_t>(__builtin_ctz(in.active_mask))];
  return (lanes_equal(in.addr, a0) & in.active_mask) == in.active_mask;
}

double as_double(uint32_t bits) {
  float f;
  static_assert(sizeof f == sizeof bits);
  __builtin_memcpy(&f, &bits, sizeof f);
  return static_cast<double>(f);
}

class Summarizer {
 public:
  explicit Summarizer(const trace::Header& h) {
    s_.header = h;
    s_.word_updates.assign(h.buffer_words, 0);
    if (!h.timing_only) {
      s_.word_sum.assign(h.buffer_words, 0.0);
      s_.word_abs_sum.assign(h.buffer_words, 0.0);
    }
  }
  void add(const trace::Instr& in, uint64_t i) {
    const bool values = !s_.header.timing_only;
    const uint32_t a0 = in.active_mask ? in.addr[static_cast<size_t>(__builtin_ctz(in.active_mask))] : 0;
    // Timing only, one word: a count per word, one add.
    const bool uniform = !values && in.active_mask && a0 < s_.header.buffer_words && one_address(in);
    if (uniform) s_.word_updates[a0] += static_cast<uint32_t>(__builtin_popcount(in.active_mask));
    for (uint32_t m = uniform ? 0 : in.active_mask; m; m &= m - 1) {
      const int l = __builtin_ctz(m);
      const uint32_t a = in.addr[l];
      if (a >= s_.header.buffer_words)
        throw Error(fmt::format("trace record {}: lane {} address {} is outside the {}-word gradient buffer", i, l, a,
                                s_.header.buffer_words));
      ++s_.word_updates[a];
      if (values) {
        const double v = as_double(in.value[l]);
        s_.word_sum[a] += v;
        s_.word_abs_sum[a] += v < 0 ? -v : v;
      }
    }
    WarpSummary& w = warp(in);
    ++w.count;
    w.work += static_cast<uint64_t>(in.gap) + 1;
    ++s_.instructions;
    s_.lane_updates += static_cast<uint64_t>(__builtin_popcount(in.active_mask));
  }
  // A timing-only trace, a whole call at once (Reader::next_call): param p is in0 at
  // address + p x stride with gap 0; the reader has checked every param's addresses.
  void add_call(const trace::Instr& in0, uint32_t n, int64_t stride) {
    const uint32_t lanes = static_cast<uint32_t>(__builtin_popcount(in0.active_mask));
    if (one_address(in0)) {
      const uint32_t a0 = in0.addr[static_cast<size_t>(__builtin_ctz(in0.active_mask))];
      for (uint32_t p = 0; p < n; ++p) s_.word_updates[static_cast<size_t>(a0 + static_cast<int64_t>(p) * stride)] += lanes;
    } else {
      for (uint32_t m = in0.active_mask; m; m &= m - 1) {
        const int64_t a = in0.addr[static_cast<size_t>(__builtin_ctz(m))];
        for (uint32_t p = 0; p < n; ++p) ++s_.word_updates[static_cast<size_t>(a + static_cast<int64_t>(p) * stride)];
      }
    }
    WarpSummary& w = warp(in0);
    w.count += n;
    w.work += static_cast<uint64_t>(in0.gap) + n;  // the call's params: one issue cycle each, gap before the first
    s_.instructions += n;
    s_.lane_updates += static_cast<uint64_t>(n) * lanes;
  }
  TraceSummary take() { return std::move(s_); }

 private:
  WarpSummary& warp(const trace::Instr& in) {  // in's warp, added in order of first appearance
    size_t at = index_.find(in.sm, in.warp);
    if (at == WarpIndex::kNone) {
      at = s_.warps.size();
      index_.insert(in.sm, in.warp, at);
      s_.warps.emplace_back();
      s_.warps.back().sm = in.sm;
      s_.warps.back().subcore = in.subcore;
      s_.warps.back().warp = in.warp;
    }
    return s_.warps[at];
  }
  TraceSummary s_;
  WarpIndex index_;
};

WarpIndex warp_index(const TraceSummary& s) {
  WarpIndex index;
  for (size_t i = 0; i < s.warps.size(); ++i) index.insert(s.warps[i].sm, s.warps[i].warp, i);
  return index;
}

class MemorySource : public InstrSource {
 public:
  MemorySource(const trace::Trace& t, const TraceSummary& s) : t_(t), lists_(s.warps.size()), next_(s.warps.size(), 0) {
    const WarpIndex index = warp_index(s);
    for (size_t i = 0; i < t.instrs.size(); ++i) {
      const size_t w = index.find(t.instrs[i].sm, t.instrs[i].warp);
      if (w == WarpIndex::kNone) throw Error("trace: a warp appeared that the first pass did not see");
      lists_[w].push_back(i);
    }
  }
  const trace::Instr& front(size_t w) override { return t_.instrs[lists_[w][next_[w]]]; }
  void pop(size_t w) override { ++next_[w]; }

 private:
  const trace::Trace& t_;
  std::vector<std::vector<size_t>> lists_;
  std::vector<size_t> next_;
};

// Read-ahead: a record read for another warp waits in that warp's queue, packed (varint
// fields, zigzag address deltas between active lanes, raw values; no partial sums, which the
// model never reads): ~6 bytes per lane instead of the 432-byte Instr. The queues live in
// one pool of fixed-size chunks (ChunkQueues): a chunk a queue has read past goes back to the
// pool at once, so the memory held is the bytes read ahead now plus at most two partly used
// chunks per warp with a backlog, never the sum of every warp's largest backlog (a per-warp
// growable buffer kept that, 2.9 GB on the 1080p gs capture). Each warp's next instruction is
// unpacked once into heads_[w], where it stays put until pop(w); a record that is the asking
// warp's next one (the usual case for a trace in issue order) goes straight there.
class ChunkQueues {
 public:
  static constexpr uint32_t kChunk = 256;  // bytes of a chunk's data
  explicit ChunkQueues(size_t queues) : q_(queues) {}
  uint32_t count(size_t w) const { return q_[w].count; }
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
      std::memcpy(chunk(q.tail).data + q.wr, p, k);
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
      std::memcpy(out, chunk(q.head).data + q.rd, k);
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
  // drops it: one call, the common case (the whole record in the head chunk) one memcpy.
  void take_record(size_t w, uint8_t* out) {
    Queue& q = q_[w];
    const uint32_t end = q.head == q.tail ? q.wr : kChunk;
    if (end - q.rd >= 2) {
      const uint8_t* p = chunk(q.head).data + q.rd;
      const size_t n = 2 + (static_cast<size_t>(p[0]) | static_cast<size_t>(p[1]) << 8);
      if (end - q.rd > n) {  // whole, with bytes left after it: the chunk stays
        std::memcpy(out, p, n);
        q.rd += static_cast<uint32_t>(n);
        return;
      }
    }
    take(w, out, 2);
    take(w, out + 2, (static_cast<size_t>(out[0]) | static_cast<size_t>(out[1]) << 8));
  }
  size_t chunks_peak() const { return chunks_.size(); }  // the pool never shrinks: its size is the peak

 private:
  static constexpr uint32_t kNil = ~0u;
  struct Chunk {
    uint32_t next = kNil;
    uint8_t data[kChunk];
  };
  struct Queue {
    uint32_t head = kNil, tail = kNil;  // chunk chain, oldest first
    uint32_t rd = 0, wr = 0;            // read offset in head, write offset in tail
    uint32_t count = 0;                 // records
  };
  Chunk& chunk(uint32_t c) { return chunks_[c]; }
  uint32_t take_chunk() {
    if (free_.empty()) {
      chunks_.emplace_back();
      return static_cast<uint32_t>(chunks_.size() - 1);
    }
    const uint32_t c = free_.back();
    free_.pop_back();
    chunks_[c].next = kNil;
    return c;
  }
  void give_chunk(uint32_t c) { free_.push_back(c); }

  std::vector<Queue> q_;
  std::deque<Chunk> chunks_;  // stable addresses, grows in blocks
  std::vector<uint32_t> free_;
};

// A record packed for a warp's queue: a 2-byte length, then varint fields, the address kind
// and either one word (warp-uniform: every active lane on one word) or zigzag deltas between
// active lanes, then the raw values (full traces only).
namespace packed {

// The most bytes one packed record takes: 8 varint fields (<= 10 bytes), the address kind
// and 32 lanes of a zigzag delta (<= 10) and a value (4), after its 2-byte length.
constexpr size_t kMax = 2 + 8 * 10 + 1 + trace::kLanes * 14;
static_assert(kMax < 0x10000);

inline uint8_t* put(uint8_t* o, uint64_t v) {
  while (v >= 0x80) {
    *o++ = static_cast<uint8_t>(v | 0x80);
    v >>= 7;
  }
  *o++ = static_cast<uint8_t>(v);
  return o;
}

inline uint64_t get(const uint8_t*& p) {
  uint64_t v = 0;
  for (int shift = 0;; shift += 7) {
    const uint8_t c = *p++;
    v |= static_cast<uint64_t>(c & 0x7F) << shift;
    if (!(c & 0x80)) return v;
  }
}

// Packs `in` at out (kMax bytes free); returns the bytes written, length prefix included.
size_t pack(const trace::Instr& in, bool values, uint8_t* out) {
  uint8_t* o = out + 2;
  o = put(o, in.subcore);
  o = put(o, in.seq);
  o = put(o, in.active_mask);
  o = put(o, in.gap);
  o = put(o, in.flags);
  o = put(o, in.reduced_mask);
  o = put(o, in.param);
  o = put(o, in.nparams);
  const uint32_t a0 = in.addr[static_cast<size_t>(__builtin_ctz(in.active_mask))];
  const bool uniform = one_address(in);
  *o++ = uniform ? 1 : 0;
  if (uniform) {
    o = put(o, a0);
  } else {
    uint32_t prev = 0;
    for (uint32_t m = in.active_mask; m; m &= m - 1) {
      const int l = __builtin_ctz(m);
      const int64_t d = static_cast<int64_t>(in.addr[l]) - static_cast<int64_t>(prev);
      o = put(o, (static_cast<uint64_t>(d) << 1) ^ static_cast<uint64_t>(d >> 63));  // zigzag
      prev = in.addr[l];
    }
  }
  if (values) {
    for (uint32_t m = in.active_mask; m; m &= m - 1) {
      __builtin_memcpy(o, &in.value[static_cast<size_t>(__builtin_ctz(m))], 4);
      o += 4;
    }
  }
  const size_t n = static_cast<size_t>(o - out - 2);
  out[0] = static_cast<uint8_t>(n);
  out[1] = static_cast<uint8_t>(n >> 8);
  return n + 2;
}

inline size_t length(const uint8_t* p) { return 2 + (static_cast<size_t>(p[0]) | static_cast<size_t>(p[1]) << 8); }

// Unpacks the record at p (its length prefix first) into out; sm and warp stay as they are.
void unpack(const uint8_t* p, bool values, trace::Instr& out) {
  p += 2;
  out.subcore = static_cast<uint32_t>(get(p));
  out.seq = get(p);
  out.active_mask = static_cast<uint32_t>(get(p));
  out.gap = static_cast<uint32_t>(get(p));
  out.flags = static_cast<uint32_t>(get(p));
  out.reduced_mask = static_cast<uint32_t>(get(p));
  out.param = static_cast<uint8_t>(get(p));
  out.nparams = static_cast<uint8_t>(get(p));
  if (values) out.value.fill(0);  // inactive lanes read zero, as from the reader (a timing-only head's stay 0)
  if (*p++) {
    const uint32_t a0 = static_cast<uint32_t>(get(p));
    out.addr.fill(0);
    for (uint32_t m = out.active_mask; m; m &= m - 1) out.addr[static_cast<size_t>(__builtin_ctz(m))] = a0;
  } else {
    out.addr.fill(0);
    int64_t prev = 0;
    for (uint32_t m = out.active_mask; m; m &= m - 1) {
      const uint64_t z = get(p);
      prev += static_cast<int64_t>(z >> 1) ^ -static_cast<int64_t>(z & 1);
      out.addr[static_cast<size_t>(__builtin_ctz(m))] = static_cast<uint32_t>(prev);
    }
  }
  if (values) {
    for (uint32_t m = out.active_mask; m; m &= m - 1) {
      __builtin_memcpy(&out.value[static_cast<size_t>(__builtin_ctz(m))], p, 4);
      p += 4;
    }
  }
}

}  // namespace packed

// The model's source. A worker thread (BatchWorker) reads the file (decompressing, decoding
// and checking each record), finds each record's warp and packs it; the model's thread only
// files packed records into their warps' queues and unpacks the one a warp asks for.
class FileSource : public InstrSource {
 public:
  FileSource(const std::string& path, const TraceSummary& s)
      : path_(path),
        reader_(path),
        values_(!s.header.timing_only),
        index_(warp_index(s)),
        queues_(s.warps.size()),
        heads_(s.warps.size()),
        head_valid_(s.warps.size(), 0) {
    for (size_t w = 0; w < s.warps.size(); ++w) {
      heads_[w].sm = s.warps[w].sm;
      heads_[w].warp = s.warps[w].warp;
    }
    worker_ = std::make_unique<trace::BatchWorker<Batch>>(
        4, [] { return Batch{}; }, [this](Batch& b) { return fill(b); });
  }
  const trace::Instr& front(size_t w) override {
    if (!head_valid_[w]) {
      if (queues_.count(w)) {
        uint8_t buf[packed::kMax];
        queues_.take_record(w, buf);
        queues_.record_taken(w);
        --buffered_;
        packed::unpack(buf, values_, heads_[w]);
      } else {
        for (;;) {
          if (!batch_ || at_ == batch_->warp.size()) next_batch();
          const size_t k = batch_->warp[at_];
          const uint8_t* p = batch_->bytes.data() + batch_->offset[at_];
          ++at_;
          if (k == w) {
            packed::unpack(p, values_, heads_[w]);
            break;
          }
          queues_.push(k, p, packed::length(p));
          if (++buffered_ > peak_) peak_ = buffered_;
        }
      }
      head_valid_[w] = 1;
    }
    return heads_[w];
  }
  void pop(size_t w) override { head_valid_[w] = 0; }
  uint64_t buffered_peak() const override { return peak_; }
  uint64_t buffered_bytes_peak() const override { return queues_.chunks_peak() * ChunkQueues::kChunk; }

 private:
  static constexpr size_t kBatch = 4096;  // records per batch
  struct Batch {
    std::vector<uint8_t> bytes;    // packed records, back to back
    std::vector<uint32_t> warp;    // per record: its warp (index into the summary)
    std::vector<uint32_t> offset;  // per record: where it starts in bytes
  };
  // Worker thread: the next kBatch records; false once the file has no more.
  bool fill(Batch& b) {
    b.bytes.resize(kBatch * packed::kMax);
    b.warp.clear();
    b.offset.clear();
    size_t at = 0;
    while (b.warp.size() < kBatch) {
      const trace::Instr* in = reader_.next();
      if (!in) break;
      const size_t k = index_.find(in->sm, in->warp);
      if (k == WarpIndex::kNone) throw Error(fmt::format("{}: a warp appeared that the first pass did not see", path_));
      b.warp.push_back(static_cast<uint32_t>(k));
      b.offset.push_back(static_cast<uint32_t>(at));
      at += packed::pack(*in, values_, b.bytes.data() + at);
    }
    return b.warp.size() == kBatch;
  }
  void next_batch() {
    do {
      batch_ = worker_->next();
      at_ = 0;
      if (!batch_)
        throw Error(fmt::format("{}: the trace ended before its first pass said it would (did the file change?)", path_));
    } while (batch_->warp.empty());
  }

  std::string path_;
  trace::Reader reader_;  // the worker's
  bool values_;
  WarpIndex index_;
  ChunkQueues queues_;
  std::vector<trace::Instr> heads_;
  std::vector<char> head_valid_;
  Batch* batch_ = nullptr;
  size_t at_ = 0;
  uint64_t buffered_ = 0, peak_ = 0;
  std::unique_ptr<trace::BatchWorker<Batch>> worker_;  // last: stopped before the members it uses go
};

}  // namespace

namespace {

// A timing-only trace's first pass, a call at a time: a worker thread reads and checks whole
// records (Reader::next_call, no per-param copies), this one adds them up.
TraceSummary summarize_calls(const std::string& path) {
  struct Call {
    trace::Instr in0;
    uint32_t n = 1;
    int64_t stride = 0;
  };
  struct Batch {
    std::vector<Call> calls;
    size_t n = 0;
  };
  constexpr size_t kBatch = 2048;
  trace::Reader reader(path);
  Summarizer s(reader.header());
  {
    trace::BatchWorker<Batch> worker(
        4, [] { return Batch{std::vector<Call>(kBatch), 0}; },
        [&](Batch& b) {
          b.n = 0;
          while (b.n < kBatch) {
            Call& c = b.calls[b.n];
            const trace::Instr* in = reader.next_call(c.n, c.stride);
            if (!in) return false;
            c.in0 = *in;
            ++b.n;
          }
          return true;
        });
    while (Batch* b = worker.next())
      for (size_t k = 0; k < b->n; ++k) s.add_call(b->calls[k].in0, b->calls[k].n, b->calls[k].stride);
  }
  return s.take();
}

}  // namespace

TraceSummary summarize(const std::string& path) {
  const double t0 = process_cpu_seconds();
  TraceSummary out;
  bool timing_only = false;
  {
    trace::Reader probe(path);  // the header alone (errors name the file)
    timing_only = probe.header().timing_only;
  }
  if (timing_only) {
    out = summarize_calls(path);
  } else {
    trace::PrefetchReader r(path);  // decodes on a second thread
    Summarizer s(r.header());
    uint64_t i = 0;
    for (const trace::Instr* in = r.next(); in; in = r.next()) s.add(*in, i++);
    out = s.take();
  }
  out.scan_seconds = process_cpu_seconds() - t0;
  return out;
}

TraceSummary summarize(const trace::Trace& t) {
  const double t0 = process_cpu_seconds();
  Summarizer s(t.header);
  for (size_t i = 0; i < t.instrs.size(); ++i) s.add(t.instrs[i], i);
  TraceSummary out = s.take();
  out.scan_seconds = process_cpu_seconds() - t0;
  return out;
}

std::unique_ptr<InstrSource> memory_source(const trace::Trace& t, const TraceSummary& s) {
  return std::make_unique<MemorySource>(t, s);
}

std::unique_ptr<InstrSource> file_source(const std::string& path, const TraceSummary& s) {
  return std::make_unique<FileSource>(path, s);
}

}  // namespace arc::sim
