#include "trace_source.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "cache_hint.h"
#include "error.h"
#include "prefetch.h"
#include "proc.h"
#include "read_ahead.h"

namespace arc::sim {

namespace {

// (sm, warp) -> warp index. One flat table of SMs x warp ids (warp ids are small: hardware
// slots; one load per look-up, the worker thread does one per record), a hash map only for
// ids beyond kDense (a producer may number its warps any way it likes).
class WarpIndex {
 public:
  static constexpr uint32_t kDense = 1u << 12;
  static constexpr size_t kNone = SIZE_MAX;
  size_t find(uint32_t sm, uint32_t warp) const {
    if (warp < kDense) {
      if (sm >= sms_ || warp >= stride_) return kNone;
      const uint32_t v = flat_[static_cast<size_t>(sm) * stride_ + warp];
      return v ? v - 1 : kNone;
    }
    const auto it = sparse_.find((static_cast<uint64_t>(sm) << 32) | warp);
    return it == sparse_.end() ? kNone : it->second;
  }
  void insert(uint32_t sm, uint32_t warp, size_t idx) {
    if (warp < kDense) {
      if (sm >= sms_ || warp >= stride_) grow(std::max(sms_, sm + 1), std::max(stride_, warp + 1));
      flat_[static_cast<size_t>(sm) * stride_ + warp] = static_cast<uint32_t>(idx + 1);
    } else {
      sparse_.emplace((static_cast<uint64_t>(sm) << 32) | warp, idx);
    }
  }

 private:
  // Re-lays the table out for at least `sms` x `stride` (doubling, so building it is linear).
  void grow(uint32_t sms, uint32_t stride) {
    if (sms > sms_) sms = std::max(sms, 2 * sms_);
    if (stride > stride_) stride = std::min(kDense, std::max(stride, 2 * stride_));
    std::vector<uint32_t> f(static_cast<size_t>(sms) * stride, 0);
    for (uint32_t m = 0; m < sms_; ++m)
      std::copy_n(flat_.begin() + static_cast<ptrdiff_t>(m) * stride_, stride_, f.begin() + static_cast<ptrdiff_t>(m) * stride);
    flat_ = std::move(f);
    sms_ = sms;
    stride_ = stride;
  }
  uint32_t sms_ = 0, stride_ = 0;
  std::vector<uint32_t> flat_;  // [sm x stride_ + warp]: index + 1, 0 = none
  std::unordered_map<uint64_t, size_t> sparse_;
};


}  // namespace

InstrBrief brief_of(const trace::Instr& in) {
  InstrBrief b;
  b.active_mask = in.active_mask;
  b.gap = in.gap;
  b.flags = in.flags;
  b.param = in.param;
  b.nparams = in.nparams;
  b.uniform = in.active_mask && one_address(in);
  b.addr = b.uniform ? in.addr[static_cast<size_t>(__builtin_ctz(in.active_mask))] : 0;
  return b;
}

namespace {

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
  // uniform: known warp-uniform (the reader said so); else its lanes tell.
  void add_call(const trace::Instr& in0, uint32_t n, int64_t stride, bool uniform = false) {
    const uint32_t lanes = static_cast<uint32_t>(__builtin_popcount(in0.active_mask));
    if (uniform || one_address(in0)) {
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
  const InstrBrief& brief(size_t w) override {
    brief_ = brief_of(t_.instrs[lists_[w][next_[w]]]);
    return brief_;
  }
  const trace::Instr& front(size_t w, const InstrBrief&) override { return t_.instrs[lists_[w][next_[w]]]; }
  void pop(size_t w, InstrBrief& b, bool next) override {
    ++next_[w];
    if (next) b = brief_of(t_.instrs[lists_[w][next_[w]]]);
  }

 private:
  const trace::Trace& t_;
  InstrBrief brief_;
  std::vector<std::vector<size_t>> lists_;
  std::vector<size_t> next_;
};


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
        warps_(s.warps),
        head_of_(s.warps.size(), nullptr) {
    if (s.from_table) tally_.emplace(s.header);
    reader_.ignore_seq();  // nothing here reads seq (packed records do not keep it)
    worker_ = std::make_unique<trace::BatchWorker<Batch>>(
        4, [] { return Batch{}; }, [this](Batch& b) { return fill(b); });
  }
  const InstrBrief& brief(size_t w) override {
    read_next(w, brief_);
    return brief_;
  }
  const trace::Instr& front(size_t w, const InstrBrief& b) override {
    if (brief_only(b)) {  // its lanes from the brief: every active lane on one word, value +0
      trace::Instr& in = lanes_;
      in.sm = warps_[w].sm;
      in.subcore = warps_[w].subcore;
      in.warp = warps_[w].warp;
      in.active_mask = b.active_mask;
      in.gap = b.gap;
      in.flags = b.flags;
      in.param = b.param;
      in.nparams = b.nparams;
      fill_lanes(in.addr, b.addr, b.active_mask);
      return in;
    }
    Head& h = *head_of_[w];
    if (!h.in) {
      h.in = take_instr(w);
      unpack(h.rec, *h.in);
    }
    if (h.in->param != b.param) packed::advance(*h.in, static_cast<uint32_t>(b.param - h.in->param), b.stride);
    return *h.in;
  }
  void pop(size_t w, InstrBrief& b, bool next) override {
    if (b.more) {  // the call's next param, from this one (the head, if any, follows in front())
      --b.more;
      packed::next_param(b, b.stride);
      return;
    }
    if (!brief_only(b)) {
      Head* h = head_of_[w];
      if (h->in) free_instrs_.push_back(h->in);
      h->in = nullptr;
      free_heads_.push_back(h);
      head_of_[w] = nullptr;
    }
    if (next) read_next(w, b);
  }
  void will_pop(size_t w, const InstrBrief& b) override {
    queues_.prefetch_queue(w);  // what take_next() reads first
    if (b.next_at) load_hint(b.next_at);
  }
  uint64_t buffered_peak() const override { return peak_; }
  uint64_t buffered_bytes_peak() const override { return queues_.chunks_peak() * ChunkQueues::kChunk; }
  TraceSummary finish(const TraceSummary& ran_on) override {
    if (!tally_) return ran_on;
    // The rest of the file: every record must have been taken by its warp.
    for (;;) {
      if (batch_ && at_ < batch_->warp.size())
        throw Error(fmt::format("{}: warp {} has more records than the trace's warp table lists (corrupt file)", path_,
                                describe(batch_->warp[at_])));
      batch_ = worker_->next();
      at_ = 0;
      if (!batch_) break;
    }
    for (size_t w = 0; w < warps_.size(); ++w)
      if (queues_.count(w))
        throw Error(fmt::format("{}: warp {} has more records than the trace's warp table lists (corrupt file)", path_,
                                describe(w)));
    TraceSummary s = tally_->take();  // the worker is done: its last fill() returned before next() said so
    if (s.warps.size() != ran_on.warps.size() || s.instructions != ran_on.instructions ||
        s.lane_updates != ran_on.lane_updates)
      throw Error(fmt::format("{}: the trace's warp table ({} warps, {} instructions, {} lane updates) does not match "
                              "its records ({}, {}, {}) (corrupt file)",
                              path_, ran_on.warps.size(), ran_on.instructions, ran_on.lane_updates, s.warps.size(),
                              s.instructions, s.lane_updates));
    for (size_t w = 0; w < s.warps.size(); ++w)
      if (!(s.warps[w] == ran_on.warps[w]))
        throw Error(fmt::format("{}: the trace's warp table entry {} (warp {}) does not match the records (SM {}, "
                                "sub-core {}, warp {}, {} instructions, work {}) (corrupt file)",
                                path_, w, describe(w), s.warps[w].sm, s.warps[w].subcore, s.warps[w].warp,
                                s.warps[w].count, s.warps[w].work));
    s.scan_seconds = ran_on.scan_seconds;
    return s;
  }

 private:
  static constexpr size_t kBatch = 4096;  // records per batch
  struct Batch {
    std::vector<uint8_t> bytes;    // packed records, back to back
    std::vector<uint32_t> warp;    // per record: its warp (index into the summary)
    std::vector<uint32_t> offset;  // per record: where it starts in bytes
  };
  // Worker thread: the next kBatch records; false once the file has no more. A timing-only
  // trace's record is a whole call (Reader::next_call: its params not made one by one).
  bool fill(Batch& b) {
    b.bytes.resize(kBatch * packed::kMax);
    b.warp.clear();
    b.offset.clear();
    size_t at = 0;
    while (b.warp.size() < kBatch) {
      uint32_t n = 1;
      int64_t stride = 0;
      const trace::Instr* in = values_ ? reader_.next() : reader_.next_call(n, stride);
      if (!in) break;
      const size_t k = index_.find(in->sm, in->warp);
      if (k == WarpIndex::kNone)
        throw Error(fmt::format("{}: SM {} warp {} is not in the {}", path_, in->sm, in->warp,
                                tally_ ? "trace's warp table (corrupt file)" : "first pass's summary (did the file change?)"));
      const bool uniform = !values_ && reader_.last_call_uniform();
      if (tally_) {
        if (values_) tally_->add(*in, tally_instrs_++);
        else tally_->add_call(*in, n, stride, uniform);
      }
      b.warp.push_back(static_cast<uint32_t>(k));
      b.offset.push_back(static_cast<uint32_t>(at));
      uint8_t* const o = b.bytes.data() + at;
      at += uniform ? packed::pack_uniform(*in, values_, o, n - 1, stride) : packed::pack(*in, values_, o, n - 1, stride);
    }
    return b.warp.size() == kBatch;
  }
  void next_batch() {
    do {
      batch_ = worker_->next();
      at_ = 0;
      if (!batch_)
        throw Error(fmt::format("{}: the trace ended before {} said it would ({})", path_,
                                tally_ ? "its warp table" : "the first pass",
                                tally_ ? "corrupt file" : "did the file change?"));
    } while (batch_->warp.empty());
  }

  std::string describe(size_t w) const {
    return fmt::format("(SM {}, warp {})", warps_[w].sm, warps_[w].warp);
  }

  std::string path_;
  trace::Reader reader_;  // the worker's
  std::optional<Summarizer> tally_;  // the summary's from_table: the worker's first pass, made while streaming
  uint64_t tally_instrs_ = 0;
  bool values_;
  WarpIndex index_;
  ChunkQueues queues_;
  // A warp's next record is read when its previous instruction has issued (pop) and is
  // unpacked into the warp's brief, which the sub-core keeps. Only a record whose lanes the
  // model may need (a full trace's, or one whose lanes are on several words) is kept, in a
  // head slot: a small reused pool, one slot per warp that holds such a record, reused
  // last-freed first, so the slots in use stay few and warm in cache however many warps the
  // trace has (a slot per warp was 28 MB of scattered 432-byte Instrs on the 1080p gs
  // capture). A slot holds the packed record; its lanes are unpacked into an Instr of a second
  // pool when front(w) asks for them (at once for a record too long to keep packed). A
  // warp-uniform timing-only record needs no slot: front() makes its lanes from the brief.
  struct Head {
    trace::Instr* in = nullptr;   // unpacked (from instrs_), or null while only `rec` holds it
    uint8_t rec[40];              // !in: the packed record
  };
  bool brief_only(const InstrBrief& b) const { return b.uniform && !values_; }
  void unpack(const uint8_t* p, trace::Instr& in) const {
    uint32_t more;
    int64_t stride;
    packed::unpack(p, values_, in, more, stride);
  }
  trace::Instr* take_instr(size_t w) {
    trace::Instr* in;
    if (free_instrs_.empty()) {
      in = &instrs_.emplace_back();  // a deque: the Instrs handed out stay where they are
    } else {
      in = free_instrs_.back();
      free_instrs_.pop_back();
    }
    in->sm = warps_[w].sm;  // unpack() fills the rest
    in->subcore = warps_[w].subcore;
    in->warp = warps_[w].warp;
    return in;
  }
  // Warp w's next record (from its queue or the file) into b, and into a head slot if kept;
  // b.next_at: where the record after it waits (its queue's front, now in cache), if queued.
  void read_next(size_t w, InstrBrief& b) {
    take_next(w, b);
    b.next_at = queues_.front_at(w);
  }
  void take_next(size_t w, InstrBrief& b) {
    if (queues_.count(w)) {
      if (const uint8_t* p = queues_.peek_whole(w)) {
        buffered_ -= packed::instructions(p);
        load(p, w, b);
        queues_.drop_whole(w, record_length(p));
        return;
      }
      uint8_t buf[packed::kMax];
      queues_.take_record(w, buf);
      queues_.record_taken(w);
      buffered_ -= packed::instructions(buf);
      load(buf, w, b);
      return;
    }
    for (;;) {
      if (!batch_ || at_ == batch_->warp.size()) next_batch();
      const size_t k = batch_->warp[at_];
      const uint8_t* p = batch_->bytes.data() + batch_->offset[at_];
      ++at_;
      if (k == w) {
        load(p, w, b);
        return;
      }
      queues_.push(k, p, record_length(p));
      buffered_ += packed::instructions(p);
      if (buffered_ > peak_) peak_ = buffered_;
    }
  }
  void load(const uint8_t* p, size_t w, InstrBrief& b) {
    packed::unpack_brief(p, b);
    if (brief_only(b)) return;
    Head& h = take_head(w);
    const size_t n = record_length(p);
    if (n <= sizeof h.rec) {
      std::memcpy(h.rec, p, n);
    } else {
      h.in = take_instr(w);
      unpack(p, *h.in);
    }
  }
  Head& take_head(size_t w) {
    Head* h;
    if (free_heads_.empty()) {
      h = &heads_.emplace_back();  // a deque: the heads handed out stay where they are
    } else {
      h = free_heads_.back();
      free_heads_.pop_back();
    }
    head_of_[w] = h;
    return *h;
  }
  const std::vector<WarpSummary>& warps_;
  std::deque<Head> heads_;
  std::vector<Head*> free_heads_;
  std::deque<trace::Instr> instrs_;
  std::vector<trace::Instr*> free_instrs_;
  std::vector<Head*> head_of_;  // per warp: its head slot, or null
  InstrBrief brief_;            // brief()'s answer
  trace::Instr lanes_;          // front()'s answer for a brief-only record
  Batch* batch_ = nullptr;
  size_t at_ = 0;
  uint64_t buffered_ = 0, peak_ = 0;
  std::unique_ptr<trace::BatchWorker<Batch>> worker_;  // last: stopped before the members it uses go
};

// A timing-only trace's first pass, a call at a time: a worker thread reads and checks whole
// records (Reader::next_call, no per-param copies), this one adds them up.
TraceSummary summarize_calls(trace::Reader& reader) {
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

TraceSummary summarize(const std::string& path, bool use_table) {
  const double t0 = process_cpu_seconds();
  TraceSummary out;
  auto reader = std::make_unique<trace::Reader>(path);  // the header (errors name the file)
  std::optional<trace::WarpTable> table;
  if (use_table) table = reader->warp_table();
  if (table) {
    out.header = reader->header();
    out.from_table = true;
    out.instructions = table->instructions;
    out.lane_updates = table->lanes;
    out.warps.reserve(table->warps.size());
    for (const trace::WarpEntry& e : table->warps)
      out.warps.push_back({e.sm, e.subcore, e.warp, e.instructions, e.gap_sum + e.instructions});
  } else if (reader->header().timing_only) {
    out = summarize_calls(*reader);
  } else {
    reader.reset();  // a full trace: instruction by instruction (each param has its own values)
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
