// Adaptive rule v5's pair send in the timing model (issue 20; the CUDA side is
// sw/include/arc/pair_reduce.cuh). A Baseline or Floor trace marks the two plain records of a
// pair call (trace::kFlagPairCall: a warp's record 0, then its record 1, same mask and params).
// In adaptive mode the model must replay such a trace as Adaptive sends it: this source wraps
// another and hands each warp, in place of a pair call's 2 x nparams instructions, the pair
// send's: instruction r (0, 1) of param p has lane L carry record L % 2's lane 16 r + L / 2
// (address and value of param p), and marks (reduced_mask, trace::kFlagPairSum) each lane that
// takes the next lane's value: the next lane is active on the same address and is not itself
// the second of such a pair (the CUDA code's rule: a run's first lane takes the second's, a
// run's third and later lanes send their own). The sub-core sends each marked lane's sum
// (golden::group_tree_sum of the two lanes) and not the next lane. Every other instruction
// passes through unchanged; the number of instructions per warp is the same: where one half of
// the warp has no active lane, the CUDA code skips that instruction, and here its instructions
// have no active lane (the sub-core sends nothing for them and charges them nothing).
#pragma once
#include <memory>

#include "trace_source.h"

namespace arc::sim {

// The lanes of one pair instruction that take the next lane's value (the CUDA code's rule).
uint32_t pair_takers(const trace::Instr& in);

// Regroups two records' instructions (rec0[p], rec1[p] for p < nparams) into the pair send's
// 2 x nparams (r-major: out[r * nparams + p]). Throws arc::Error if the two do not form a pair.
void pair_regroup(const trace::Instr* rec0, const trace::Instr* rec1, size_t nparams, trace::Instr* out);

// `inner` must outlive the result; s: the summary the model runs on (per-warp counts).
std::unique_ptr<InstrSource> pair_regroup_source(InstrSource& inner, const TraceSummary& s);

}  // namespace arc::sim
