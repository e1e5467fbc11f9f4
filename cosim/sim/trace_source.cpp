#include "trace_source.h"

#include <fmt/format.h>

#include <algorithm>

#include "error.h"
#include "proc.h"

namespace arc::sim {

namespace {

uint64_t key_of(const trace::Instr& in) { return (static_cast<uint64_t>(in.sm) << 32) | in.warp; }

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
    for (uint32_t m = in.active_mask; m; m &= m - 1) {
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
    auto [it, fresh] = index_.emplace(key_of(in), s_.warps.size());
    if (fresh) {
      s_.warps.emplace_back();
      s_.warps.back().sm = in.sm;
      s_.warps.back().subcore = in.subcore;
      s_.warps.back().warp = in.warp;
    }
    WarpSummary& w = s_.warps[it->second];
    ++w.count;
    w.work += static_cast<uint64_t>(in.gap) + 1;
    ++s_.instructions;
    s_.lane_updates += static_cast<uint64_t>(__builtin_popcount(in.active_mask));
  }
  TraceSummary take() { return std::move(s_); }

 private:
  TraceSummary s_;
  std::unordered_map<uint64_t, size_t> index_;
};

std::unordered_map<uint64_t, size_t> warp_index(const TraceSummary& s) {
  std::unordered_map<uint64_t, size_t> index;
  index.reserve(s.warps.size());
  for (size_t i = 0; i < s.warps.size(); ++i)
    index.emplace((static_cast<uint64_t>(s.warps[i].sm) << 32) | s.warps[i].warp, i);
  return index;
}

class MemorySource : public InstrSource {
 public:
  MemorySource(const trace::Trace& t, const TraceSummary& s) : t_(t), lists_(s.warps.size()), next_(s.warps.size(), 0) {
    const auto index = warp_index(s);
    for (size_t i = 0; i < t.instrs.size(); ++i) lists_[index.at(key_of(t.instrs[i]))].push_back(i);
  }
  const trace::Instr& front(size_t w) override { return t_.instrs[lists_[w][next_[w]]]; }
  void pop(size_t w) override { ++next_[w]; }

 private:
  const trace::Trace& t_;
  std::vector<std::vector<size_t>> lists_;
  std::vector<size_t> next_;
};

// Read-ahead: a record read for another warp waits in that warp's byte queue, packed (varint
// fields, zigzag address deltas between active lanes, raw values; no partial sums, which the
// model never reads): ~6 bytes per lane instead of the 432-byte Instr. Each warp's next
// instruction is unpacked once into heads_[w], where it stays put until pop(w).
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
  }
  const trace::Instr& front(size_t w) override {
    if (!head_valid_[w]) {
      Queue& q = queues_[w];
      while (q.count == 0) read_one();
      unpack(q, heads_[w]);
      head_valid_[w] = 1;
    }
    return heads_[w];
  }
  void pop(size_t w) override { head_valid_[w] = 0; }
  uint64_t buffered_peak() const override { return peak_; }

 private:
  struct Queue {
    std::vector<uint8_t> bytes;
    size_t rd = 0;
    uint32_t count = 0;
  };
  static void put(std::vector<uint8_t>& b, uint64_t v) {
    while (v >= 0x80) {
      b.push_back(static_cast<uint8_t>(v | 0x80));
      v >>= 7;
    }
    b.push_back(static_cast<uint8_t>(v));
  }
  static uint64_t get(const std::vector<uint8_t>& b, size_t& at) {
    uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
      const uint8_t c = b[at++];
      v |= static_cast<uint64_t>(c & 0x7F) << shift;
      if (!(c & 0x80)) return v;
    }
  }
  void read_one() {
    if (!reader_.next(scratch_))
      throw Error(fmt::format("{}: the trace ended before its first pass said it would (did the file change?)", path_));
    const auto it = index_.find(key_of(scratch_));
    if (it == index_.end()) throw Error(fmt::format("{}: a warp appeared that the first pass did not see", path_));
    Queue& q = queues_[it->second];
    const trace::Instr& in = scratch_;
    put(q.bytes, in.subcore);
    put(q.bytes, in.seq);
    put(q.bytes, in.active_mask);
    put(q.bytes, in.gap);
    put(q.bytes, in.flags);
    put(q.bytes, in.reduced_mask);
    put(q.bytes, in.param);
    put(q.bytes, in.nparams);
    uint32_t prev = 0;
    for (uint32_t m = in.active_mask; m; m &= m - 1) {
      const int l = __builtin_ctz(m);
      const int64_t d = static_cast<int64_t>(in.addr[l]) - static_cast<int64_t>(prev);
      put(q.bytes, (static_cast<uint64_t>(d) << 1) ^ static_cast<uint64_t>(d >> 63));  // zigzag
      prev = in.addr[l];
      if (values_) {
        const uint32_t v = in.value[l];
        q.bytes.insert(q.bytes.end(), {static_cast<uint8_t>(v), static_cast<uint8_t>(v >> 8),
                                       static_cast<uint8_t>(v >> 16), static_cast<uint8_t>(v >> 24)});
      }
    }
    ++q.count;
    if (++buffered_ > peak_) peak_ = buffered_;
  }
  void unpack(Queue& q, trace::Instr& out) {
    size_t& at = q.rd;
    const std::vector<uint8_t>& b = q.bytes;
    out.subcore = static_cast<uint32_t>(get(b, at));
    out.seq = get(b, at);
    out.active_mask = static_cast<uint32_t>(get(b, at));
    out.gap = static_cast<uint32_t>(get(b, at));
    out.flags = static_cast<uint32_t>(get(b, at));
    out.reduced_mask = static_cast<uint32_t>(get(b, at));
    out.param = static_cast<uint8_t>(get(b, at));
    out.nparams = static_cast<uint8_t>(get(b, at));
    out.addr.fill(0);
    out.value.fill(0);
    int64_t prev = 0;
    for (uint32_t m = out.active_mask; m; m &= m - 1) {
      const int l = __builtin_ctz(m);
      const uint64_t z = get(b, at);
      prev += static_cast<int64_t>(z >> 1) ^ -static_cast<int64_t>(z & 1);
      out.addr[l] = static_cast<uint32_t>(prev);
      if (values_) {
        out.value[l] = static_cast<uint32_t>(b[at]) | static_cast<uint32_t>(b[at + 1]) << 8 |
                       static_cast<uint32_t>(b[at + 2]) << 16 | static_cast<uint32_t>(b[at + 3]) << 24;
        at += 4;
      }
    }
    --q.count;
    --buffered_;
    if (q.count == 0) {
      q.bytes.clear();
      q.rd = 0;
    } else if (q.rd > 4096 && q.rd * 2 > q.bytes.size()) {
      q.bytes.erase(q.bytes.begin(), q.bytes.begin() + static_cast<std::ptrdiff_t>(q.rd));
      q.rd = 0;
    }
  }

  std::string path_;
  trace::Reader reader_;
  bool values_;
  std::unordered_map<uint64_t, size_t> index_;
  std::vector<Queue> queues_;
  std::vector<trace::Instr> heads_;
  std::vector<char> head_valid_;
  trace::Instr scratch_;
  uint64_t buffered_ = 0, peak_ = 0;
};

}  // namespace

TraceSummary summarize(const std::string& path) {
  const double t0 = process_cpu_seconds();
  trace::Reader r(path);
  Summarizer s(r.header());
  trace::Instr in;
  for (uint64_t i = 0; r.next(in); ++i) s.add(in, i);
  TraceSummary out = s.take();
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
