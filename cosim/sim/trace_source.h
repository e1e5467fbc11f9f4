// Where the timing model's warp instructions come from, in two passes over a trace:
//  1. summarize(): per warp (in order of first appearance) its placement, instruction count
//     and work, plus the per-word lane counts and exact sums the end-of-run check compares
//     against. A version-3 file lists its warps in a warp table at its end (trace.h
//     WarpTable): the summary's warps come from there without a pass over the records, and
//     the per-word part is made by the file source while the model streams the records
//     (InstrSource::finish, which also checks that the table matches the records). Older
//     files: one streaming pass that checks every address and counts all of it. Memory:
//     O(warps + gradient words), independent of the trace's length. The file is decoded on a
//     second thread while this one summarizes (a timing-only trace a whole call at a time,
//     trace::Reader::next_call; a full one instruction by instruction, trace::PrefetchReader).
//  2. an InstrSource hands each warp its instructions in order while the model runs.
//     file_source() streams the file block by block: an instruction is read when some warp
//     needs it, and the records read past it on the way wait in their warps' queues. With
//     records roughly in issue order (what `arcsim trace gen` and the GPU capture write) the
//     queues hold a few instructions per resident warp; buffered_peak() reports the most, and
//     buffered_bytes_peak() the memory they took (packed, in a pool of chunks that are reused
//     as soon as read: it follows the read-ahead of the moment, not the trace's length).
//     memory_source() serves a trace already in memory (tests, small traces).
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "trace.h"
#include "zero_table.h"

namespace arc::sim {

struct WarpSummary {
  uint32_t sm = 0, subcore = 0, warp = 0;
  uint64_t count = 0;  // warp instructions
  uint64_t work = 0;   // compute gaps + one issue cycle per atomic (the mapping's load measure)
};
inline bool operator==(const WarpSummary& a, const WarpSummary& b) {
  return a.sm == b.sm && a.subcore == b.subcore && a.warp == b.warp && a.count == b.count && a.work == b.work;
}

struct TraceSummary {
  trace::Header header;
  std::vector<WarpSummary> warps;  // in order of first appearance
  uint64_t instructions = 0, lane_updates = 0;
  ZeroTable<uint32_t> word_updates;  // per gradient word: lane updates the trace sends it
  // Per word, from the lane values (empty for a timing-only trace): exact sum, sum of |v|.
  ZeroTable<double> word_sum, word_abs_sum;
  double scan_seconds = 0;  // CPU time of the pass
  // Made from the file's warp table: word_updates, word_sum and word_abs_sum are empty until
  // the file source has streamed the records (InstrSource::finish).
  bool from_table = false;
};

// Whether a run will touch most of the gradient buffer's words (at least as many lane updates as
// words): the per-word tables then ask for huge pages (ZeroTable's `dense`).
inline bool dense_words(const TraceSummary& s) { return s.lane_updates >= s.header.buffer_words; }

// Pass 1. Throws arc::Error on a bad trace (naming the record) or an address outside the buffer.
// use_table = false: the full pass even where the file has a warp table (tests, benchmarks).
TraceSummary summarize(const std::string& path, bool use_table = true);
TraceSummary summarize(const trace::Trace& t);

// What a sub-core reads of a warp's next instruction to schedule it and, when every active
// lane is on one word, to issue it: the instruction without its lanes. The sub-core keeps its
// resident warps' briefs; a call's params that follow in the same record (`more`, `stride`)
// are made from the brief itself (InstrSource::pop), without the source's state.
struct InstrBrief {
  uint32_t active_mask = 0, gap = 0, flags = 0;
  uint32_t addr = 0;     // uniform: the word every active lane updates
  int64_t stride = 0;    // more > 0: the next param's addresses are this one's + stride
  uint8_t param = 0, nparams = 1;
  uint8_t more = 0;      // params of this instruction's call that follow it in the same record
  bool uniform = false;  // every active lane on word `addr`
  const void* next_at = nullptr;  // the source's own hint: where it expects the warp's next record
};
InstrBrief brief_of(const trace::Instr& in);  // more = 0

class InstrSource {
 public:
  virtual ~InstrSource() = default;
  // Warp w's first instruction, briefly (when the warp becomes resident); valid until the
  // next call. The caller keeps its copy and hands it back to front() and pop().
  virtual const InstrBrief& brief(size_t w) = 0;
  // The lanes of warp w's current instruction, whose brief is b; valid until the next
  // front() or pop(). The file source keeps a warp's record packed, and a warp-uniform
  // timing-only record not at all (its brief says everything): a resident warp's state in
  // the source stays small or empty, and the issue path reads only the brief.
  virtual const trace::Instr& front(size_t w, const InstrBrief& b) = 0;
  // Warp w's current instruction (brief b) has issued. next: b becomes the brief of the
  // warp's next instruction (false after its last).
  virtual void pop(size_t w, InstrBrief& b, bool next) = 0;
  // A hint, for speed only: warp w (current brief b) will pop soon (its instruction is about
  // to issue), so the source may start loading the record pop() will read.
  virtual void will_pop(size_t, const InstrBrief&) {}
  // Warp w's current instruction (brief b, not warp-uniform) of a timing-only trace as its
  // words in order of first appearance (lane order) with each one's lane count, into
  // words[0..n) and counts[0..n), n <= kMaxWordRuns; 0 where the source does not have it at
  // hand (then front() gives the lanes). For the baseline's coalesced issue, which needs no more.
  static constexpr uint32_t kMaxWordRuns = 8;
  virtual uint32_t word_runs(size_t, const InstrBrief&, uint32_t* /*words*/, uint32_t* /*counts*/) { return 0; }
  // Warp w's current instruction (brief b, warp-uniform) of a full trace: its active lanes'
  // values, 4 bytes each (little-endian binary32), in lane order; nullptr where the source
  // does not have them at hand packed (then front() gives the lanes). For the baseline's
  // issue of a warp-uniform instruction, which needs no more.
  virtual const uint8_t* uniform_values(size_t, const InstrBrief&) { return nullptr; }
  virtual uint64_t buffered_peak() const { return 0; }        // instructions read ahead, at most
  virtual uint64_t buffered_bytes_peak() const { return 0; }  // bytes they took, at most
  // After the model ran on `ran_on` (from_table): reads the trace to its end and returns the
  // full first-pass summary of the records it streamed, with their per-word counts and sums;
  // throws arc::Error if its warps or totals differ from ran_on's (a warp table that does not
  // match its records) or records are left that no warp took.
  virtual TraceSummary finish(const TraceSummary& ran_on) { return ran_on; }
};

std::unique_ptr<InstrSource> memory_source(const trace::Trace& t, const TraceSummary& s);
std::unique_ptr<InstrSource> file_source(const std::string& path, const TraceSummary& s);

}  // namespace arc::sim
