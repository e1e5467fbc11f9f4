// The cycle behaviour of the ARC-HW RTL (rtl/arc_*.sv), as numbers the SystemC timing model
// takes from here instead of guessing. tests/rtl/test_rtl_timing.cpp checks every constant and
// schedule() against the Verilated RTL, cycle for cycle. Units: sub-core clock cycles.
// "Accept" is the cycle of the instruction handshake (instr_valid_i && instr_ready_o).
#pragma once
#include <cstdint>
#include <vector>

#include "golden.h"

namespace arc::golden::rtl_timing {

// arc_addr_match: accept -> first group offered to the scheduler; then one group per cycle.
constexpr int kMatcherLatency = 1;
constexpr int kMatcherGroupsPerCycle = 1;
// arc_sched: combinational routing, no register stage.
constexpr int kSchedLatency = 0;
// arc_reduce: a group of n lanes is dispatched at cycle D (first lane loaded), one lane per
// cycle through the one arc_fp32_add (n-1 adds), sum offered at D + n. A next reduced group
// can be dispatched in the cycle the sum is accepted (no bubble).
constexpr int kReduceLanesPerCycle = 1;
constexpr int kReduceCyclesPerLane = 1;  // dispatch -> sum valid = n * this
// arc_lane_issue (LSU route): dispatch at D, per-lane atomics at D+1 .. D+n, one per cycle;
// consecutive LSU groups stream without a gap.
constexpr int kLsuFirstLaneLatency = 1;
constexpr int kLsuLanesPerCycle = 1;
// arc_sched keeps order by dispatching to one unit only while the other is idle: a group whose
// route differs from the previous group's waits this many extra cycles.
constexpr int kRouteSwitchBubble = 1;
// arc_subcore_top holds one instruction (its 32 values in the operand register) at a time: the
// next instruction is accepted kInstrTurnaround cycles after the last transaction's handshake.
constexpr int kInstrsInFlight = 1;
constexpr int kInstrTurnaround = 1;
// An instruction with an empty active mask emits nothing and frees the top after this many.
constexpr int kEmptyInstrCycles = 1;
// Operand delivery: all 32 lane values (1024 bits) arrive with the instruction, in one cycle,
// as one warp-register read of the operand collector.
constexpr int kValueBitsPerCycle = 1024;

struct InstrSchedule {
  std::vector<uint64_t> emit;  // per transaction: cycles after accept when it is offered
  uint64_t next_accept = 0;    // cycles after accept when the next instruction can be accepted
};

// Timing of one instruction's transaction stream (process()'s output), with txn_ready_i held 1.
// With back-pressure, every cycle the output waits delays everything after it by that much.
InstrSchedule schedule(const std::vector<Transaction>& txns);
void schedule(const std::vector<Transaction>& txns, InstrSchedule& out);  // the same into out (storage reused)
// The common case in closed form: when all of an instruction's transactions go to the LSU
// (per-lane atomics), schedule() offers transaction i at lsu_stream_emit(i) and accepts the
// next instruction at lsu_stream_emit(last) + kInstrTurnaround (tests/rtl/test_rtl_timing.cpp).
constexpr uint64_t lsu_stream_emit(uint64_t i) {
  return kMatcherLatency + kSchedLatency + kLsuFirstLaneLatency + i / kLsuLanesPerCycle;
}
// And an instruction of one reduced group of n lanes (a warp-uniform one the scheduler
// reduces): its sum is offered at reduced_alone_emit(n), the next accept kInstrTurnaround later.
constexpr uint64_t reduced_alone_emit(uint64_t n) { return kMatcherLatency + kSchedLatency + n * kReduceCyclesPerLane; }

}  // namespace arc::golden::rtl_timing
