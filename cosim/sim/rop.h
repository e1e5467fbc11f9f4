// RopUnit: one address-sliced L2 atomic unit. Each cycle it starts up to rop_ops_per_cycle
// atomics from its input queue: the oldest ones among the first rop_window (1 = strictly in
// arrival order) that may start. An atomic may not start less than rop_same_addr_interval
// cycles after the previous one on its address (same-address serialization; the interval may
// be fractional: due times are kept in 1/kSubCycles cycle and an op starts at the first whole
// cycle at or after its due time, so a run of m ops spans m x interval on average), nor, for a
// request that carries several lanes' words of one line (not one lane's float2 / float4, which
// goes as one address: Request::vector_lane), less than rop_same_line_interval after the
// previous such request on that line (the line's data path; kept the same way), nor pass an
// older atomic on its own address, so per address the order is always arrival order. Two
// further limits, both off at 0: a line's data path also takes rop_line_op_interval per
// one-word op (the words of one line share it: a run of m ops on a word of line L waits for
// L's due time and moves it on by m intervals, so several hot words of a line together go at
// the line's pace, each at its own interval), and an L2 slice (rop_slices; lines 128 and 512
// bytes apart share one, slice_of_line) starts a multi-word request at most every
// rop_slice_request_interval, on whichever of its lines, and serves its one-word ops in order
// (rop_slice_op_interval: SliceState). A line's and a slice's state are shared by the units (a
// line's sectors, a slice's lines, may belong to several), so each is Registered: a unit reads
// them as they stood when the cycle began and adds its own use on top, and two units that start
// on one line or slice in the same cycle see the same thing whichever runs first (the sum of
// their intervals does not depend on the order either). Starting an atomic commits it to the
// memory image (ROP semantics: arc::golden::MemoryImage::apply, FTZ=1); it is performed
// rop_latency cycles later, which is when the run can end. Ops to one address always go to one
// unit, so the image does not depend on the order units run in one cycle.
#pragma once
#include <systemc>

#include <utility>
#include <vector>

#include "golden.h"
#include "link.h"
#include "request.h"
#include "slice.h"
#include "stats.h"
#include "zero_table.h"

namespace arc::sim {

constexpr uint64_t kSubCycles = 1024;  // the resolution of a word's due time

struct RopSetup {
  uint32_t ops_per_cycle = 1;
  uint32_t latency = 160;
  uint64_t same_addr_sub = kSubCycles;  // rop_same_addr_interval in 1/kSubCycles cycle
  uint64_t same_line_sub = 0;           // rop_same_line_interval in 1/kSubCycles cycle (0: none)
  uint64_t line_op_sub = 0;             // rop_line_op_interval in 1/kSubCycles cycle (0: none)
  uint64_t slice_request_sub = 0;       // rop_slice_request_interval in 1/kSubCycles cycle (0: none)
  uint32_t slices = 0;                  // rop_slices (0: none)
  uint64_t slice_op_sub = 0;            // rop_slice_op_interval in 1/kSubCycles cycle (0: none)
  uint64_t slice_queue_sub = 0;         // rop_slice_queue_cycles in 1/kSubCycles cycle
  std::vector<uint64_t> slice_gap_sub;  // fifo_gap_table(rop_slice_op_interval, rop_same_addr_interval)
  uint32_t line_words = 32;             // words per line (coalesce_bytes / 4)
  uint32_t window = 1;
  uint32_t flit_bytes = 32;
  bool coalesced = false;  // requests may carry several ops (coalesce_bytes > 0)
  bool values = true;      // false for a timing-only trace: every value is 0, the image stays 0, no adds
};

// What the ROP units keep per gradient word, side by side so one op touches one cache line.
struct WordState {
  uint64_t free_sub = 0;  // when the word's next op may start, in 1/kSubCycles cycle (same-address serialization)
  uint32_t arrived = 0;   // lane updates committed to it (the end-of-run conservation check)
};

// What the ROP units commit (tests replay it). Units that start atomics in the same cycle own
// disjoint addresses, so their relative order is immaterial; sorted() puts it in the one
// canonical order (cycle, unit, order within the unit), independent of SystemC's schedule.
struct CommitLog {
  struct Entry {
    Cycle cycle;
    uint32_t unit, addr, value;
  };
  bool enabled = false;
  std::vector<Entry> entries;
  std::vector<std::pair<uint32_t, uint32_t>> sorted() const;  // (addr, value)
};

// The L2 slice of a line: its number without bits 0 and 2 (address bits 7 and 9, which the
// H100's slice function ignores: results/h100/validation/full/slices), modulo the slice count,
// so adjacent lines fill 2 slices per 8 lines and up to 4 x slices lines spread evenly (the
// H100's 128 adjacent lines touch 32 slices, at most 5 lines on one).
inline uint32_t slice_of_line(uint32_t line, uint32_t slices) {
  return static_cast<uint32_t>(((line >> 3) << 1 | (line >> 1 & 1)) % slices);
}

class RopUnit : public sc_core::sc_module {
 public:
  // words: per gradient word, shared by the units (a word belongs to one unit); lines: per line,
  // when the next request may start on it (1/kSubCycles cycle; empty: no line rule); slices:
  // per slice (empty: no slice rules). Lines and slices are shared by the units (a slice's lines
  // may belong to several).
  RopUnit(sc_core::sc_module_name name, uint32_t unit, const RopSetup& setup, golden::MemoryImage& image,
          CommitLog& log, ZeroTable<WordState>& words, std::vector<Registered<uint64_t>>& lines,
          std::vector<Registered<SliceState>>& slices,
          Stats& stats);

  Link<Request> in;
  Wake wake;
  Cycle last_done() const { return last_done_; }
  bool drained() const { return in.empty(); }

 private:
  void step();
  void prefetch(const Request& r) const;

  uint32_t unit_;
  RopSetup setup_;
  golden::MemoryImage& image_;
  CommitLog& log_;
  ZeroTable<WordState>& words_;
  std::vector<Registered<uint64_t>>& lines_;
  std::vector<Registered<SliceState>>& slices_;
  Stats& stats_;
  uint64_t next_slot_ = 0;                    // next free input byte (cycle x ops_per_cycle x flit_bytes + k)
  Cycle last_done_ = 0;
  std::vector<uint32_t> seen_;  // words met while looking ahead this cycle
  // Per look-ahead window position (0 = the front): a cycle before which that request cannot
  // start (0: not known), so a blocked window is not looked up again every step. Moves up with
  // the window when a request leaves it; a request entering the window starts at 0.
  std::vector<Cycle> blocked_;
};

}  // namespace arc::sim
