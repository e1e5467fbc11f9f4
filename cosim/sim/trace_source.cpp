#include "trace_source.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "cache_hint.h"
#include "error.h"
#include "batch_worker.h"
#include "read_ahead.h"
#include "summarizer.h"

namespace arc::sim {

static_assert(packed::kMaxWords <= InstrSource::kMaxWordRuns, "a record's words fit word_runs()'s arrays");

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

using detail::Summarizer;
using detail::WarpIndex;
using detail::warp_index;

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
        head_of_(s.warps.size(), nullptr),
        in_queue_(s.warps.size(), nullptr) {
    if (s.from_table) {
      tally_.emplace(s.header, dense_words(s));
      tally_->keys(s.warps.size());  // a record's warp is found in index_ (the table) first: its key
    }
    reader_.ignore_seq();  // nothing here reads seq (packed records do not keep it)
    reader_.skip_warp_entries();  // the tally checks the table against the records (finish())
    // The worker's last next() checks the file after the records (final buffer, warp table, end
    // block, nothing after it: trace::Reader::next), the same check as every reader's; the
    // final buffer's words are not needed here.
    reader_.drop_final_buffer();
    if (values_) reader_.keep_values_packed();  // packed on as they come (pack_full, Summarizer::add_record)
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
    if (const uint8_t* p = in_queue_[w]) return front_in_queue(w, p);
    Head& h = *head_of_[w];
    if (!h.in) {
      h.in = take_instr(w);
      unpack(h.rec, *h.in);
    }
    if (h.in->param != b.param) packed::advance(*h.in, static_cast<uint32_t>(b.param - h.in->param), b.stride);
    return *h.in;
  }
  // front() of a record read where it waits in its queue.
  const trace::Instr& front_in_queue(size_t w, const uint8_t* p) {
    Head* h = head_of_[w];
    if (!h) {
      h = &take_head(w);
      h->in = take_instr(w);
      unpack(p, *h->in);
    }
    return *h->in;
  }
  void pop(size_t w, InstrBrief& b, bool next) override {
    if (b.more) {  // the call's next param, from this one (the head, if any, follows in front())
      --b.more;
      packed::next_param(b, b.stride);
      return;
    }
    if (const uint8_t* p = in_queue_[w]) {  // read in place: it leaves its queue now
      queues_.drop_whole(w, record_length(p));
      in_queue_[w] = nullptr;
    }
    if (Head* h = head_of_[w]) {  // (none for a brief-only record, or one read in place unless front() asked)
      if (h->in) free_instrs_.push_back(h->in);
      h->in = nullptr;
      free_heads_.push_back(h);
      head_of_[w] = nullptr;
    }
    if (next) read_next(w, b);
  }
  const uint8_t* uniform_values(size_t w, const InstrBrief& b) override {
    if (!values_ || !b.uniform) return nullptr;
    if (const uint8_t* p = in_queue_[w]) return packed::uniform_values(p);
    const Head& h = *head_of_[w];
    return h.in ? nullptr : packed::uniform_values(h.rec);  // unpacked already: its lanes are at hand
  }
  uint32_t word_runs(size_t w, const InstrBrief& b, uint32_t* words, uint32_t* counts) override {
    if (values_ || brief_only(b)) return 0;
    const Head& h = *head_of_[w];
    if (h.in) return 0;  // unpacked already (front() was asked): its lanes are at hand
    return packed::word_runs(h.rec, b.param, b.stride, words, counts);
  }
  void will_pop(size_t w, const InstrBrief& b) override {
    queues_.prefetch_queue(w);  // what take_next() reads first
    if (b.next_at) load_hint(b.next_at);
    // What the issue reads first, last touched when the warp's previous instruction left: its
    // record's values (uniform_values), read in place or in its head slot.
    if (const uint8_t* p = in_queue_[w]) hint_bytes(p, kMaxUniform);
    else if (const Head* h = head_of_[w]) hint_bytes(h, sizeof(Head));
  }
  static void hint_bytes(const void* at, size_t n) {
    const auto* p = static_cast<const char*>(at);
    for (size_t k = 0; k < n; k += 64) load_hint(p + k);
    load_hint(p + n - 1);
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
  static constexpr size_t kMaxUniform = 2 + packed::kFixed + 4 * trace::kLanes;  // a full warp-uniform record
  struct Batch {
    // Packed records, back to back. It grows as records need room (kMax free before each
    // pack), so a batch clears only the bytes its records use, not kBatch x kMax (~1.9 MB):
    // clearing all four batches up front cost ~80 instructions per warp instruction of a
    // 100k-instruction trace, for bytes written before they are read.
    std::vector<uint8_t> bytes;
    std::vector<uint32_t> warp;    // per record: its warp (index into the summary)
    std::vector<uint32_t> offset;  // per record: where it starts in bytes
  };
  // Worker thread: the next kBatch records; false once the file has no more. A timing-only
  // trace's record is a whole call (Reader::next_call: its params not made one by one).
  bool fill(Batch& b) {
    b.warp.clear();
    b.offset.clear();
    size_t at = 0;
    size_t tallied = 0;  // a full trace's records tallied (from their packed form, in order)
    while (b.warp.size() < kBatch) {
      uint32_t n = 1;
      int64_t stride = 0;
      const trace::Instr* in = values_ ? reader_.next() : reader_.next_call(n, stride);
      if (!in) break;
      const size_t k = index_.find(in->sm, in->warp);
      if (k == WarpIndex::kNone)
        throw Error(fmt::format("{}: SM {} warp {} is not in the {}", path_, in->sm, in->warp,
                                tally_ ? "trace's warp table (corrupt file)" : "first pass's summary (did the file change?)"));
      const bool uniform = reader_.last_call_uniform();
      const uint8_t* const values = values_ ? reader_.packed_values() : nullptr;
      if (tally_) {
        if (values_) tally_->expect(*in, k);  // added from its packed record, kTallyLag records on
        else tally_->add_call(*in, n, stride, uniform, k);
      }
      b.warp.push_back(static_cast<uint32_t>(k));
      b.offset.push_back(static_cast<uint32_t>(at));
      if (b.bytes.size() < at + packed::kMax) b.bytes.resize(std::max(2 * b.bytes.size(), at + packed::kMax));
      uint8_t* const o = b.bytes.data() + at;
      at += values_   ? packed::pack_full(*in, values, uniform, o)
            : uniform ? packed::pack_uniform_timing(*in, o, n - 1, stride)
                      : packed::pack(*in, false, o, n - 1, stride);
      if (tally_ && values_ && b.warp.size() > tallied + kTallyLag) tally_record(b, tallied++);
    }
    if (tally_ && values_)
      while (tallied < b.warp.size()) tally_record(b, tallied++);
    return b.warp.size() == kBatch;
  }
  // A full trace's records are tallied kTallyLag records after they are read (the lines the
  // tally touches load meanwhile: Summarizer::expect), in the same order.
  static constexpr size_t kTallyLag = 4;
  void tally_record(const Batch& b, size_t j) {
    tally_->add_record(b.bytes.data() + b.offset[j], b.warp[j], tally_instrs_++, tally_scratch_);
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
  trace::Instr tally_scratch_;  // the worker's (tally_record)
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
    // !in: the packed record (a few words' record fits: kLanesWords; so does a full trace's
    // warp-uniform one, 32 values, which the baseline issues from here: uniform_values()).
    uint8_t rec[2 + packed::kFixed + 4 * trace::kLanes];
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
    if (const uint8_t* p = in_queue_[w]) b.next_at = queues_.count(w) > 1 ? p + record_length(p) : nullptr;
    else b.next_at = queues_.front_at(w);
  }
  void take_next(size_t w, InstrBrief& b) {
    if (queues_.count(w)) {
      if (const uint8_t* p = queues_.peek_whole(w)) {
        buffered_ -= packed::instructions(p);
        if (values_ && p[2 + packed::kUniform] == packed::kLanesUniform) {
          // A full trace's warp-uniform record: read where it waits, no copy to a head slot
          // (its chunk stays: bytes follow it there); pop() drops it.
          packed::unpack_brief(p, b);
          in_queue_[w] = p;
          return;
        }
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
      look_ahead(*batch_, at_);
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
  // Nearly every record read from a batch goes to its warp's queue, whose tail chunk was last
  // written a warp's turn ago: start loading the lines the next few records will read and
  // write (the queue's bookkeeping kFar records ahead, its tail and the record kNear ahead).
  static constexpr size_t kNear = 4, kFar = 8;
  void look_ahead(const Batch& b, size_t at) const {
    if (at + kFar < b.warp.size()) queues_.prefetch_queue(b.warp[at + kFar]);
    if (at + kNear < b.warp.size()) {
      const uint8_t* p = b.bytes.data() + b.offset[at + kNear];
      load_hint(p);
      load_hint(p + 64);
      queues_.prefetch_tail(b.warp[at + kNear]);
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
  // Per warp: its current record where it is read in place, whole in its queue's head chunk
  // (a full trace's warp-uniform record, take_next), else null. Its bytes stay put until
  // pop() drops it: only this warp reads or drops its queue, pushes only append.
  std::vector<const uint8_t*> in_queue_;
  InstrBrief brief_;            // brief()'s answer
  trace::Instr lanes_;          // front()'s answer for a brief-only record
  Batch* batch_ = nullptr;
  size_t at_ = 0;
  uint64_t buffered_ = 0, peak_ = 0;
  std::unique_ptr<trace::BatchWorker<Batch>> worker_;  // last: stopped before the members it uses go
};

}  // namespace

std::unique_ptr<InstrSource> memory_source(const trace::Trace& t, const TraceSummary& s) {
  return std::make_unique<MemorySource>(t, s);
}

std::unique_ptr<InstrSource> file_source(const std::string& path, const TraceSummary& s) {
  return std::make_unique<FileSource>(path, s);
}

}  // namespace arc::sim
