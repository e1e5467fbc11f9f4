// Dispatch: one sub-core's warp-instruction dispatch (one instruction per cycle) as a fluid,
// for the compute-as-dispatch-work model (issue 17, RunSpec::gap_issue_rate).
//
// Time is cut into buckets of kBucketCycles cycles; a bucket dispatches up to kBucketCycles
// instructions, counted in parts (kUnit parts = one instruction, so a gap's compute of
// rate x gap instructions needs no rounding). A reservation spreads its parts evenly over its
// window [from, from + span): each bucket the window touches takes its share (by overlap) as
// far as the bucket has room, and what does not fit moves on to the next buckets, inside the
// window first, then after it. The first bucket offers only its cycles from `from` on (the
// cycles before are past). reserve() returns the cycle by which the reservation's last part is
// dispatched: the window's end where everything fit in it, else the cycle inside the last
// bucket it reached by which that bucket's parts (earlier reservations' first) are dispatched.
//
// So compute spread thinly over a long gap leaves room for other warps' instructions and
// delays a warp only where the dispatch is full. The fluid is exact to a bucket: within its
// first bucket a reservation may take room that others starting in that bucket took too (it
// knows a bucket's fill, not where in the bucket it lies), so reservations from some cycle t
// on never finish all their work before t + (their instructions) - kBucketCycles. (The reservation it replaces queued each
// gap's whole compute, as one block, behind everything reserved before: near a full dispatch
// that queue grew and over-charged every warp, results/h100/validation/dispatch/.)
#pragma once

#include <cstdint>
#include <vector>

#include "clock.h"

namespace arc::sim {

class Dispatch {
 public:
  static constexpr Cycle kBucketCycles = 64;
  static constexpr uint64_t kUnit = 64;  // parts per instruction

  // `parts` parts spread over [from, from + span) (span 0 counts as 1), after what earlier
  // reservations hold. Returns when the last part is dispatched (>= from + span; from + span
  // where parts is 0). `from` must not go back to a bucket before an earlier call's
  // (std::logic_error: the sub-core calls it at its own, rising, cycles).
  Cycle reserve(Cycle from, Cycle span, uint64_t parts);
  // Parts placed after their window ended, summed over reservations (what the full dispatch
  // pushed out), and the cycles warps waited for that beyond their windows.
  uint64_t late_parts() const { return late_parts_; }
  uint64_t late_cycles() const { return late_cycles_; }

 private:
  uint32_t& at(uint64_t bucket);  // grows the ring to hold `bucket`
  void retire(uint64_t bucket);   // buckets before `bucket` are past: emptied for reuse

  std::vector<uint32_t> used_;  // ring: bucket b's parts at used_[b & (size - 1)]
  uint64_t base_ = 0;           // the oldest bucket the ring holds
  uint64_t top_ = 0;            // one past the newest bucket with parts
  uint64_t late_parts_ = 0;
  uint64_t late_cycles_ = 0;
};

}  // namespace arc::sim
