// ArcUnit: the ARC hardware of one sub-core (scheduler + address matcher + reduction unit,
// paper section 5.1) as the timing model sees it. Two levels with the same ports and, by
// test (tests/sim/test_sim_fidelity.cpp), the same cycle-for-cycle and bit-for-bit behaviour:
//  - ArcUnitRtl (arc_unit_rtl.h): the Verilated rtl/arc_subcore_top, clocked by the model
//    only while it holds work;
//  - ArcUnitFast (arc_unit_fast.h): arc::golden::process() for the transactions and
//    arc::golden::rtl_timing::schedule() for when the RTL emits them.
// Ports: `in` takes warp instructions from the sub-core (one at a time: the RTL holds one
// instruction); each emitted reduced sum goes to the LSU port as a one-request packet, and the
// lanes passed through (not reduced) of one instruction gather and leave with the last of them
// as one packet, coalesced per granule as the sub-core's own atomic would be (the paper's
// design hands them to the LSU's coalescer; knob arc_pass_coalesce = 0: one packet each);
// `busy` is the LSU's registered back-pressure signal (the dynamic scheduler's input),
// sampled in the cycle an instruction is accepted.
#pragma once
#include <systemc>

#include <deque>
#include <vector>

#include "coalesce.h"
#include "golden.h"
#include "lane_mask.h"
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
  bool pass_coalesce = true;         // knob arc_pass_coalesce: an instruction's pass-through lanes leave as one packet
  CoalesceSetup coalesce;            // how that packet's lanes become requests (the sub-cores')
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
  // An instruction's lanes: its own, or a uniform ref's in buf as unpacking its record gives
  // them (the active lanes on its word, the others on word 0, every value +0).
  static const golden::WarpInstr& lanes_of(const InstrRef& r, golden::WarpInstr& buf) {
    if (r.lanes) return *r.lanes;
    fill_lanes(buf.addr, r.addr, r.active_mask);
    buf.value.fill(0);
    buf.active_mask = r.active_mask;
    return buf;
  }
  // Both levels call accepted() when the unit takes an instruction, with the transactions it
  // will emit (the golden model's, which the RTL's equal: tests/sim/test_sim_fidelity), and
  // emit() for each transaction in order as it leaves: false when it cannot leave this cycle
  // (the LSU port is full) and must be offered again. A pass-through lane that is not its
  // instruction's last needs no port: it joins the gathered packet.
  void accepted(const std::vector<golden::Transaction>& txns) {
    Pending e;
    for (const golden::Transaction& t : txns) {
      ++e.total;
      if (t.route == golden::Route::Lsu) ++e.pass;
    }
    if (e.total) pending_.push_back(e);
  }
  // A pass-through lane that is not its instruction's last: it joins the gathered packet and
  // needs no port, so its emit() cannot fail and nothing outside the unit sees when it happens.
  bool gathers(const golden::Transaction& t) const {
    return setup_.pass_coalesce && t.route == golden::Route::Lsu && pending_.front().pass > 1;
  }
  bool can_emit(Cycle now, const golden::Transaction& t) const { return gathers(t) || out->can_push(now); }
  // emit() of t[0, n) at once, each a gathered pass-through lane (gathers() holds for every one:
  // LSU route, and the instruction's last pass-through lane comes after them).
  void gather_all(const golden::Transaction* t, size_t n) {
    Pending& e = pending_.front();
    for (size_t i = 0; i < n; ++i)
      gather_.push_back({t[i].addr, t[i].value, static_cast<uint32_t>(__builtin_popcount(t[i].lane_mask))});
    e.pass -= static_cast<uint32_t>(n);
    e.total -= static_cast<uint32_t>(n);
  }
  // The fast unit's compact form of a warp-uniform instruction of a timing-only trace routed
  // whole to the LSU (n per-lane transactions on one word, each value +0), where the
  // pass-through lanes coalesce into runs (setup_.coalesce.runs, coalescing on):
  // accepted_uniform_pass() books it as accepted() and gather_all() would its first n - 1
  // transactions, and emit_uniform_last() is emit() of its last, whose packet is the run that
  // append_requests() makes of the n gathered lanes, built without them.
  bool uniform_pass_applies() const {
    return setup_.pass_coalesce && setup_.coalesce.runs && setup_.coalesce.granule_words != 0;
  }
  void accepted_uniform_pass() { pending_.push_back({1, 1}); }  // only the last transaction left
  bool emit_uniform_last(Cycle now, uint32_t addr, uint32_t n) {
    if (!out->can_push(now)) return false;
    Packet p = take_packet();
    append_run(p, addr, n, setup_.sm, setup_.coalesce);
    out->push(now, std::move(p));
    pending_.pop_front();
    return true;
  }
  bool emit(Cycle now, const golden::Transaction& t) {
    if (!can_emit(now, t)) return false;
    Pending& e = pending_.front();
    if (setup_.pass_coalesce && t.route == golden::Route::Lsu) {
      gather_.push_back({t.addr, t.value, static_cast<uint32_t>(__builtin_popcount(t.lane_mask))});
      if (--e.pass == 0) {  // the instruction's last pass-through lane: its lanes leave as one packet
        Packet p = take_packet();
        append_requests(p, gather_.data(), gather_.size(), setup_.sm, setup_.coalesce);
        out->push(now, std::move(p));
        gather_.clear();
      }
    } else {
      if (t.route == golden::Route::Lsu) --e.pass;
      out->push(now, to_packet(t));
    }
    if (--e.total == 0) pending_.pop_front();
    return true;
  }

 private:
  // Book-keeping shared by both levels when a transaction leaves for the LSU on its own.
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
  struct Pending {
    uint32_t total = 0;  // transactions of the instruction still to leave
    uint32_t pass = 0;   // of which pass-through lanes
  };
  std::deque<Pending> pending_;  // accepted instructions with transactions still to leave, oldest first
  std::vector<LaneOp> gather_;   // the oldest one's pass-through lanes so far

 protected:
  ArcUnitSetup setup_;
  Stats& stats_;
};

}  // namespace arc::sim
