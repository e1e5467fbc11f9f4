// SubCore: one sub-core (processing block) of an SM issuing its warps' warp-level atomics.
//
// Each warp runs its trace in order: compute for `gap` cycles (the trace's gap; a gap counted
// in instructions is taken as one issue cycle each), then the atomic. At most
// warps_per_subcore warps are resident; a finished warp's slot goes to the next warp of the
// trace (in order of first appearance), whose first gap starts then.
//
// Warp selection: loose round-robin. The sub-core has one memory (MIO) issue port; each cycle
// in which the port is free it picks the first ready warp after the one it picked last. The
// picked warp holds the port until its atomic leaves:
//  - baseline: one packet of per-lane requests into the LSU port;
//  - sw-s / sw-b: first the reduction instructions' issue cycles (sw_cost.h), then one
//    packet: per address group of >= threshold lanes one request carrying the group's serial (sw-s) or
//    butterfly (sw-b) sum, per-lane requests for the other lanes;
//  - sw-t: a reduced call's parameters each take the port one cycle, but only the last sends:
//    one packet of the call's NP sums (coalesced per granule like any packet);
//  - arc-hw: the instruction into its ARC unit (`atomred`).
// Vector atomics (baseline, sw-s, sw-b; width from the trace's flags or RunSpec::vector): a
// call's params leave in chunks of 2 or 4, one packet per chunk whose ops are the chunk's
// params' ops (a lane's v words side by side, coalesced per granule like any packet); each
// param still takes the port one cycle and pays its own SW cost, only the chunk's last sends.
// The SW issue cycles of each mode: sw_cost.h.
// A full LSU port or a busy ARC unit holds the port: that wait is the atomic stall.
// Dispatch (issue 17, RunSpec::gap_issue_rate; off at rate 0): besides the MIO port, the
// sub-core dispatches one warp instruction per cycle (dispatch.h, a fluid). Each gap of g
// cycles reserves gap_issue_rate x g instructions spread evenly over the gap, with the SW
// sequence its warp issued before it (sw_dispatch_slots); a warp's gap ends no earlier than
// its reservation is dispatched, so it waits only where the dispatch is full. The MIO port is
// held for the SW cycles only. At rate 0 there is no dispatch (the model as before it: gaps
// are latency, SW sequences hold the MIO port).
#pragma once
#include <systemc>

#include <array>
#include <cstdint>
#include <vector>

#include "coalesce.h"
#include "dispatch.h"
#include "link.h"
#include "params.h"
#include "request.h"
#include "stats.h"
#include "sw_cost.h"
#include "workload.h"

namespace arc::sim {

struct SubCoreSetup {
  Mode mode = Mode::Baseline;
  bool zero_values = false;  // a timing-only trace: every lane's value is +0
  bool read_lanes = false;   // test only (RunSpec::read_lanes): never issue from the brief alone
  bool plant_lost_wakeup = false;  // test only (RunSpec::plant_lost_wakeup): ignores wake-ups after the run's first issue
  uint32_t sm = 0;
  uint32_t subcore = 0;  // global index, sm * subcores_per_sm + s (Stats::per_subcore)
  uint32_t warps_resident = 16;
  SwCostSetup cost;  // its mode and threshold are this sub-core's
  uint32_t threshold = 2;
  fp::FtzMode sw_ftz = fp::FtzMode::Keep;
  CoalesceSetup coalesce;  // how the LSU port's packet groups an instruction's word updates
  uint32_t vector = 0;     // RunSpec::vector: 0 = the trace's vector flags, else floats per lane update
  double gap_issue_rate = 0;  // RunSpec::gap_issue_rate: dispatch slots per gap cycle of compute
};

class SubCore : public sc_core::sc_module {
 public:
  SubCore(sc_core::sc_module_name name, const SubCoreSetup& setup, const SubCoreWork& work, InstrSource& source,
          Stats& stats);

  Link<InstrRef>* to_arc = nullptr;  // arc-hw
  Link<Packet>* to_lsu = nullptr;    // baseline, sw-s, sw-b
  Wake wake;
  bool drained() const;  // every warp admitted and finished (end-of-run check)
  void finish();         // adds this sub-core's counters to Stats (end of run)
  // Its LSU port or ARC unit took the packet or instruction it waited to push: the warp
  // holding the port issues next cycle, so the source may load its next record now
  // (Link::set_room_hint).
  static void room_hint(void* self);

 private:
  struct Warp {           // a resident warp, small: the issue path reads it every time
    size_t src = 0;        // its index in the InstrSource (TraceSummary::warps)
    uint64_t left = 0;     // instructions still to issue, the current one included
    // Its next instruction, briefly: a copy of source_.brief(src), taken when that became the
    // warp's next (admission, the pop before), so the issue reads it here, beside the warp,
    // and not from the source's head slot, which is out of cache by then.
    InstrBrief brief;
  };
  struct Gather {          // sw-t / vector atomics: ops held until a call's or chunk's last param
    std::vector<LaneOp> swt;  // sw-t: the reduced call's sums so far (sent with its last param)
    std::vector<LaneOp> vec;  // vector atomics: the chunk's ops so far (sent with its last param)
  };
  void step();
  void admit_warps(Cycle now);
  bool try_issue(Cycle now);  // pushes the current warp's atomic; false when blocked
  // The sub-core's dispatch (one warp instruction per cycle), apart from its MIO port: `slots`
  // instructions back to back from `from` on, where the dispatch has room; returns the cycle
  // by which they are dispatched.
  Cycle reserve_dispatch(Cycle from, Cycle slots);
  // A warp starts `gap` cycles of compute at `from`: gap_issue_rate x gap dispatch slots plus
  // its SW sequence's `sw_slots`, spread over the gap; the gap ends no earlier than they are
  // dispatched (returned, >= from + gap).
  Cycle reserve_compute(Cycle from, Cycle gap, Cycle sw_slots = 0);
  // The resident warp the port picks at cycle `by`: the first one ready by then from rr_ on
  // (loose round-robin), or kNone.
  static constexpr size_t kNone = SIZE_MAX;
  size_t first_ready(Cycle by) const;
  void pick(size_t i, Cycle at);  // the port picks resident warp i in cycle `at`
  // Which of an instruction's address groups the SW mode reduces in the core: those of >= threshold
  // (and 2) lanes where eligible; serial (SW-S's loop) or the butterfly.
  // How a reduced group's lanes are summed: SW-S's serial loop, the butterfly (SW-B, Adaptive's
  // uniform warps) or Adaptive's group tree (rule v4).
  enum class SumOrder : uint8_t { Serial, Butterfly, GroupTree };
  struct ReduceRule {
    bool eligible;
    SumOrder order;
    uint32_t threshold;
  };
  ReduceRule reduce_rule(const CallShape& shape, uint32_t vec) const;
  // sw-s / sw-b: in's ops after the in-core reduction into ops[0..32); returns their count.
  size_t sw_ops(const trace::Instr& in, LaneOp* ops, uint64_t& groups_reduced) const;
  uint32_t vector_width(uint32_t flags) const;  // of an instruction with these flags: 1, 2 or 4
  // What the SW cost and choice read of warp src's instruction: from its brief when its active
  // lanes are all on one word, else from its lanes.
  CallShape shape(const Warp& w);
  // A warp-uniform instruction of a timing-only trace (every value +0) at vector width 1 in
  // sw-s / sw-b / sw-t / adaptive: its packet from the brief, as sw_ops() and
  // append_requests() would make it from its lanes. False where that does not apply.
  bool uniform_sw_packet(const InstrBrief& b, Packet& p);
  bool swt_collect(Gather& g, const trace::Instr& in);  // sw-t: adds in's sum; true while more params follow
  // Baseline, coalesced with runs: warp src's instruction (brief b, `lanes` active) from its
  // words and their lane counts (InstrSource::word_runs), as append_requests() would make it
  // from its lanes. False where that does not apply (then the lanes).
  bool words_packet(size_t src, const InstrBrief& b, uint32_t lanes, Packet& p);

  // What every step reads first, side by side (a step finds them out of cache: 528 sub-cores
  // take turns); the large scratch buffers last.
  int cur_ = -1;              // resident_ index holding the issue port
  size_t rr_ = 0;             // round-robin pointer into resident_
  Cycle port_free_at_ = 0;    // the issue port picks no warp before this cycle
  Cycle cur_ready_ = 0;       // when the current warp's atomic (after SW overhead) may leave
  Cycle cur_slots_ = 0;       // the current warp's SW instructions (dispatch slots)
  Cycle cur_since_ = 0;       // when the current warp's atomic was ready (gap done)
  Cycle cur_picked_ = 0;      // when the port picked it
  SubcoreStats mine_;         // this sub-core's counters, added to Stats by finish()
  std::vector<Warp> resident_;
  std::vector<Cycle> ready_at_;  // per resident warp: when its next atomic is ready to issue (scanned every step)
  InstrSource& source_;
  Stats& stats_;
  SubCoreSetup setup_;
  const SubCoreWork& work_;
  size_t next_warp_ = 0;         // next warp of work_ to make resident
  Dispatch dispatch_;            // gap_issue_rate > 0: the compute's and SW sequences' instructions
  std::vector<Gather> gather_;   // per resident warp (beside resident_)
  std::array<LaneOp, 32> ops_;  // baseline: the issuing instruction's lane ops
  golden::WarpInstr arc_buf_;  // arc-hw: the instruction in flight to the ARC unit (its link holds a pointer)
};

}  // namespace arc::sim
