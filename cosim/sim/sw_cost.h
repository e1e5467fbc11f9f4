// ARC-SW's issue cost: the cycles a warp's reduction instructions hold its sub-core's issue
// port before the atomic's requests leave (the sub-core charges them; subcore.h).
//  - sw-s: per reduce call (at param 0) sw_overhead + sws_cycles_per_key x distinct
//    addresses (match_any); per instruction sws_cycles_per_lane x the steps of its serial
//    sums: the largest reduced group's lanes - 1 (the groups' loops run side by side, one
//    SHFL per step for all of them; prims.csv: 4 groups of 8 lanes cost less than 1 of 32).
//  - sw-b: sw_overhead at param 0 (the eligibility check and the first butterfly; the value
//    calibrated on one-parameter calls), and swb_cycles_per_param (0: sw_overhead) at every
//    further parameter whose warp is reduced (its own 5-step butterfly, interleaved with the
//    others: prims.csv NP = 1/4/9).
//  - sw-s steps: param 0's at sws_cycles_per_lane, each further param's at
//    sws_cycles_per_lane_param (0: the same): a call's NP values move in one loop.
//  - sw-t (the transposed reduce-scatter): a reduced call pays its exchange steps at param 0,
//    swt_shuffles(nparams) x (sw_overhead / 5), one butterfly step's cost; one parameter is
//    the butterfly's 5 steps, so sw-t and sw-b cost the same there. A call that is not
//    reduced pays sw_overhead, as sw-b's.
//  - adaptive: the call's choice (adaptive_choice, the CUDA code's rule) priced as the method
//    it becomes: Tree as sw-b's reduced call, Groups as sw-s's match (X = 2) and then one step
//    per level of the group tree (rule v4; a level moves the call's values as a serial step
//    does: sws_cycles_per_lane, not separately measured), PerLane sw_overhead once (the
//    uniform check). A pair send's instruction (rule v5, trace::kFlagPairSum) is priced by its
//    shuffles, counted from sw/include/arc/pair_reduce.cuh (not separately measured): per
//    instruction the key's half of the xor-16 exchange, its gather and 2 shfl_up (3.5), per
//    value its half exchange and gather (1.5) and the merge's shfl_down (1); at param 0 the key's
//    3.5 and the first value's 2.5, at each further param 2.5; a shuffle at sw-t's price, a fifth of
//    sw_overhead (the butterfly's 5 steps). Its warp instructions: the same shuffles plus the 2
//    ballots, the merge's adds and selects (12 at param 0, 4 per further param).
// These cycles are the sequences' time on the sub-core's MIO (shuffle/match) port; their warp
// instructions, which share the dispatch with the workload's compute, are sw_dispatch_slots().
#pragma once
#include <array>
#include <cstdint>

#include "clock.h"
#include "params.h"
#include "trace.h"

namespace arc::sim {

struct SwCostSetup {
  Mode mode = Mode::Baseline;
  uint32_t sw_overhead = 0;
  uint32_t sws_per_key = 0;
  uint32_t sws_per_lane = 0;
  uint32_t sws_per_lane_param = 0;  // 0 = sws_per_lane
  uint32_t swb_per_param = 0;       // 0 = sw_overhead
  uint32_t threshold = 2;
  // Warp instructions (dispatch slots) of the same sequences: sw_dispatch_slots().
  uint32_t inst_overhead = 0;
  uint32_t swb_inst_per_param = 0;
  uint32_t sws_inst_per_lane = 0, sws_inst_per_lane_param = 0;
  uint32_t tree_inst_per_level = 0, tree_inst_per_level_param = 0;
};

// Shuffles (each with one add) of the transposed reduce-scatter for a call of `nparams`
// scalar parameters (1..32): the halving steps over K = next power of two of nparams slots
// (pairs that are padding on every lane skipped), then the plain xor steps down to offset 1.
// sw/include/arc/swt_shape.h holds the CUDA side's count (tests check they agree).
uint32_t swt_shuffles(uint32_t nparams);

// What ARC-SW's cost and choice read of one instruction: its active lanes grouped by word (the
// match), its place in its call. From the lanes (shape_of) or, for an instruction whose active
// lanes are all on one word, from its mask alone (uniform_shape): the sub-core prices a
// warp-uniform instruction without unpacking its lanes.
struct CallShape {
  uint32_t active_mask = 0;
  uint8_t param = 0, nparams = 1;
  uint32_t groups = 0;  // distinct words among the active lanes
  std::array<uint8_t, trace::kLanes> group_lanes{};  // active lanes per group, leaders ascending
  bool pair = false;  // a pair send's instruction (trace::kFlagPairSum): adaptive prices the pair send
  bool uniform() const { return groups == 1; }
  uint32_t lanes() const { return static_cast<uint32_t>(__builtin_popcount(active_mask)); }
};
CallShape shape_of(const trace::Instr& in);
CallShape uniform_shape(uint32_t active_mask, uint8_t param, uint8_t nparams);  // active_mask != 0

// Whether sw-b / sw-t reduce this instruction's warp: every active lane on one address, at
// least `threshold` (and 2) of them; sw-t also needs nparams <= 32 (its K slots).
bool tree_eligible(Mode mode, const CallShape& in, uint32_t threshold);
bool tree_eligible(Mode mode, const trace::Instr& in, uint32_t threshold);

// Adaptive (sw/include/arc/reduce.cuh, rule v4: rule v3's choices in arc/adaptive_rule.h, groups
// summed by the group tree and priced per tree level), per call from what the
// warp sees: n active lanes, all on one address or not, nparams, the vector width. The trace
// does not record whether a subset of the warp called: every call is taken as convergent.
enum class AdaptiveChoice : uint8_t { Tree, Groups, PerLane };
AdaptiveChoice adaptive_choice(const CallShape& in, uint32_t vec);
AdaptiveChoice adaptive_choice(const trace::Instr& in, uint32_t vec);

// The warp instructions the same SW sequence issues (dispatch slots, shared with the workload's
// compute), priced in the same shape as sw_issue_cycles: the fixed part where sw_overhead is charged,
// then per butterfly parameter, per serial step or per group-tree level (first parameter and each
// further one). Measured per call by Nsight Compute on the microbenchmark's primitives
// (scripts/gpu-microbench-count.sh): a match is one instruction whatever its keys, so per-key
// costs are MIO time only.
Cycle sw_dispatch_slots(const SwCostSetup& s, const CallShape& in, uint32_t vec = 1);

// The issue cycles charged before `in` leaves (0 for baseline and arc-hw); vec = its vector width.
Cycle sw_issue_cycles(const SwCostSetup& s, const CallShape& in, uint32_t vec = 1);
Cycle sw_issue_cycles(const SwCostSetup& s, const trace::Instr& in, uint32_t vec = 1);

}  // namespace arc::sim
