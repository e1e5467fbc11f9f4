// RopUnit: one address-sliced L2 atomic unit. Each cycle it starts up to rop_ops_per_cycle
// atomics from its input queue: the oldest ones among the first rop_window (1 = strictly in
// arrival order) that may start. An atomic may not start less than rop_same_addr_interval
// cycles after the previous one on its address (same-address serialization; the interval may
// be fractional: due times are kept in 1/kSubCycles cycle and an op starts at the first whole
// cycle at or after its due time, so a run of m ops spans m x interval on average), nor, for a
// request that carries several words of one line, less than rop_same_line_interval after the
// previous such request on that line (the line's data path; kept the same way), nor pass an
// older atomic on its own address, so per address the order is always arrival order. Starting an atomic commits it to the memory image (ROP semantics:
// arc::golden::MemoryImage::apply, FTZ=1); it is performed rop_latency cycles later, which
// is when the run can end. Ops to one address always go to one unit, so the image does not
// depend on the order units run in one cycle.
#pragma once
#include <systemc>

#include <utility>
#include <vector>

#include "golden.h"
#include "link.h"
#include "request.h"
#include "stats.h"

namespace arc::sim {

constexpr uint64_t kSubCycles = 1024;  // the resolution of a word's due time

struct RopSetup {
  uint32_t ops_per_cycle = 1;
  uint32_t latency = 160;
  uint64_t same_addr_sub = kSubCycles;  // rop_same_addr_interval in 1/kSubCycles cycle
  uint64_t same_line_sub = 0;           // rop_same_line_interval in 1/kSubCycles cycle (0: none)
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

class RopUnit : public sc_core::sc_module {
 public:
  // words: per gradient word, shared by the units (a word belongs to one unit); lines: per line,
  // when the next multi-word request may start on it (1/kSubCycles cycle; empty: no line rule).
  RopUnit(sc_core::sc_module_name name, uint32_t unit, const RopSetup& setup, golden::MemoryImage& image,
          CommitLog& log, std::vector<WordState>& words, std::vector<uint64_t>& lines, Stats& stats);

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
  std::vector<WordState>& words_;
  std::vector<uint64_t>& lines_;
  Stats& stats_;
  uint64_t next_slot_ = 0;                    // next free input byte (cycle x ops_per_cycle x flit_bytes + k)
  Cycle last_done_ = 0;
  std::vector<uint32_t> seen_;  // words met while looking ahead this cycle
};

}  // namespace arc::sim
