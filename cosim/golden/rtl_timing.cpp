#include "rtl_timing.h"

namespace arc::golden::rtl_timing {

InstrSchedule schedule(const std::vector<Transaction>& txns) {
  InstrSchedule s;
  schedule(txns, s);
  return s;
}

void schedule(const std::vector<Transaction>& txns, InstrSchedule& s) {
  s.emit.clear();
  if (txns.empty()) {
    s.next_accept = kEmptyInstrCycles;
    return;
  }
  uint64_t last = 0;  // cycle of the previous transaction
  bool first = true;
  Route prev = Route::Lsu;
  for (const Transaction& t : txns) {
    uint64_t dispatch;
    if (t.route == Route::Reduced) {
      const uint64_t n = static_cast<uint64_t>(__builtin_popcount(t.lane_mask));
      if (first) dispatch = kMatcherLatency + kSchedLatency;
      else if (prev == Route::Reduced) dispatch = last;  // dispatched as the previous sum leaves
      else dispatch = last + kRouteSwitchBubble;
      last = dispatch + n * kReduceCyclesPerLane;
    } else {
      if (first) last = kMatcherLatency + kSchedLatency + kLsuFirstLaneLatency;
      else if (prev == Route::Lsu) last = last + 1;  // lanes (and LSU groups) stream back to back
      else last = last + kRouteSwitchBubble + kLsuFirstLaneLatency;
    }
    s.emit.push_back(last);
    prev = t.route;
    first = false;
  }
  s.next_accept = last + kInstrTurnaround;
}

}  // namespace arc::golden::rtl_timing
