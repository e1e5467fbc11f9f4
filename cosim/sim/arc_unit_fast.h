// ArcUnitFast: the ARC unit at the fast level. What it emits is arc::golden::process() (the
// golden model the RTL is proven equal to); when it emits is rtl_timing::schedule() (the
// RTL's measured cycle behaviour), shifted by every cycle the LSU port refused a transaction,
// exactly as the RTL's valid/ready pipeline stalls.
#pragma once
#include <vector>

#include "arc_unit.h"
#include "rtl_timing.h"

namespace arc::sim {

class ArcUnitFast : public ArcUnit {
 public:
  ArcUnitFast(sc_core::sc_module_name name, const ArcUnitSetup& setup, Stats& stats);

 private:
  void step();
  Cycle emit_offset(size_t i) const;  // transaction i's offer, cycles after accept (rtl_timing)

  bool holding_ = false;                  // an instruction is inside the unit
  std::vector<golden::Transaction> txns_;
  golden::rtl_timing::InstrSchedule sched_;  // unless all_lsu_
  bool all_lsu_ = false;                  // every transaction per-lane to the LSU: lsu_stream_emit()
  bool reduced_alone_ = false;            // one transaction, a reduced group: reduced_alone_emit()
  size_t next_ = 0;                       // next transaction to emit
  size_t count_ = 0;                      // the held instruction's transactions
  bool uniform_ = false;                  // held in compact form (ArcUnit::accepted_uniform_pass): no txns_
  uint32_t uniform_addr_ = 0;             // its word
  Cycle accepted_ = 0;                    // accept cycle of the held instruction
  Cycle delay_ = 0;                       // cycles lost to back-pressure so far
  Cycle free_at_ = 0;                     // next instruction can be accepted from here
};

}  // namespace arc::sim
