#include "arc_unit_fast.h"

namespace arc::sim {

ArcUnitFast::ArcUnitFast(sc_core::sc_module_name name, const ArcUnitSetup& setup, Stats& stats)
    : ArcUnit(name, setup, stats) {
  wake.bind([this] { step(); });
}

void ArcUnitFast::step() {
  const Cycle now = now_cycle();
  if (!holding_) {
    if (now < free_at_) {
      wake.at(free_at_);
      return;
    }
    if (!in.ready(now)) {
      wake.at(in.next_ready());
      return;
    }
    const bool b = busy->read(now);
    if (b) ++stats_.instrs_seen_busy;
    golden::process(warp_instr(*in.pop(now)), setup_.sched, b, txns_);  // into the unit's storage: no allocation
    golden::rtl_timing::schedule(txns_, sched_);
    accepted(txns_);
    holding_ = true;
    accepted_ = now;
    next_ = 0;
    delay_ = 0;
    if (txns_.empty()) {
      holding_ = false;
      free_at_ = now + sched_.next_accept;
      wake.at(free_at_);
      return;
    }
  }
  // Offer the next transaction at its scheduled cycle plus the back-pressure so far.
  const Cycle offer = accepted_ + sched_.emit[next_] + delay_;
  if (now < offer) {
    wake.at(offer);
    return;
  }
  if (!emit(now, txns_[next_])) {
    out->await_room(now);  // the LSU port wakes us when it frees
    return;
  }
  delay_ = now - accepted_ - sched_.emit[next_];
  // Gathered pass-through lanes that follow join the packet now: each would be offered (and
  // taken: no port, no delay) at its own cycle, with nothing visible until the lane that sends.
  while (++next_ < txns_.size() && gathers(txns_[next_])) emit(now, txns_[next_]);
  if (next_ < txns_.size()) {
    wake.at(accepted_ + sched_.emit[next_] + delay_);
    return;
  }
  holding_ = false;
  free_at_ = accepted_ + sched_.next_accept + delay_;
  wake.at(free_at_);
}

}  // namespace arc::sim
