// ArcUnit: the ARC hardware of one sub-core (scheduler + address matcher + reduction unit,
// paper section 5.1) as the timing model sees it. Two levels with the same ports and, by
// test (tests/sim/test_sim_fidelity.cpp), the same cycle-for-cycle and bit-for-bit behaviour:
//  - ArcUnitRtl (arc_unit_rtl.h): the Verilated rtl/arc_subcore_top, clocked by the model
//    only while it holds work;
//  - ArcUnitFast (arc_unit_fast.h): arc::golden::process() for the transactions and
//    arc::golden::rtl_timing::schedule() for when the RTL emits them.
// Ports: `in` takes warp instructions from the sub-core (one at a time: the RTL holds one
// instruction); each emitted transaction goes to the LSU port as a one-request packet;
// `busy` is the LSU's registered back-pressure signal (the dynamic scheduler's input),
// sampled in the cycle an instruction is accepted.
#pragma once
#include <systemc>

#include "golden.h"
#include "link.h"
#include "request.h"
#include "stats.h"

namespace arc::sim {

struct ArcUnitSetup {
  uint32_t sm = 0;
  golden::SchedConfig sched;
  uint32_t request_bytes = 32;       // what one transaction's request costs at the crossbar output and ROP (coalesce.h),
                                     // its packet's l2_instruction_bytes included
  uint32_t link_request_bytes = 32;  // the same on the SM's link
};

class ArcUnit : public sc_core::sc_module {
 public:
  ArcUnit(sc_core::sc_module_name name, const ArcUnitSetup& setup, Stats& stats)
      : sc_module(name), setup_(setup), stats_(stats) {}

  Link<InstrRef> in{1};
  Link<Packet>* out = nullptr;
  const Registered<bool>* busy = nullptr;
  Wake wake;

 protected:
  // Book-keeping shared by both levels when a transaction leaves for the LSU.
  Packet to_packet(const golden::Transaction& t) {
    if (t.route == golden::Route::Reduced) {
      ++stats_.groups_reduced_in_core;
      stats_.lane_adds_in_core += static_cast<uint64_t>(__builtin_popcount(t.lane_mask)) - 1;
    }
    Request r{LaneOp{t.addr, t.value, static_cast<uint32_t>(__builtin_popcount(t.lane_mask))}, setup_.sm};
    r.bytes = setup_.request_bytes;
    r.link_bytes = setup_.link_request_bytes;
    Packet p = take_packet();  // recycled storage: no allocation per transaction
    p.push_back(std::move(r));
    return p;
  }
  static golden::WarpInstr warp_instr(const trace::Instr& in) {
    golden::WarpInstr w;
    w.active_mask = in.active_mask;
    w.addr = in.addr;
    w.value = in.value;
    return w;
  }

  ArcUnitSetup setup_;
  Stats& stats_;
};

}  // namespace arc::sim
