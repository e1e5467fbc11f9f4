#include "arc_unit_fast.h"

namespace arc::sim {

ArcUnitFast::ArcUnitFast(sc_core::sc_module_name name, const ArcUnitSetup& setup, Stats& stats)
    : ArcUnit(name, setup, stats) {
  wake.bind([this] { step(); });
}

Cycle ArcUnitFast::emit_offset(size_t i) const {
  if (all_lsu_) return golden::rtl_timing::lsu_stream_emit(i);
  if (reduced_alone_) return golden::rtl_timing::reduced_alone_emit(static_cast<uint64_t>(__builtin_popcount(txns_[0].lane_mask)));
  return sched_.emit[i];
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
    const InstrRef r = in.pop(now);  // into the unit's storage: no allocation
    accepted_ = now;
    next_ = 0;
    delay_ = 0;
    uniform_ = !r.lanes && uniform_pass_applies() &&
               golden::route_group({r.addr, r.active_mask}, setup_.sched, b) == golden::Route::Lsu;
    if (uniform_) {
      // Its n per-lane transactions as the path below takes them, without making them: all to
      // the LSU (the closed-form schedule), the first n - 1 gathered now, the last offered at
      // its cycle.
      count_ = static_cast<size_t>(__builtin_popcount(r.active_mask));
      uniform_addr_ = r.addr;
      accepted_uniform_pass();
      holding_ = true;
      in.set_consumer_busy(true);
      all_lsu_ = true;
      reduced_alone_ = false;
      next_ = count_ - 1;
    } else {
      if (r.lanes) golden::process(*r.lanes, setup_.sched, b, txns_);
      else golden::process_uniform_zero(r.active_mask, r.addr, setup_.sched, b, txns_);
      accepted(txns_);
      count_ = txns_.size();
      if (txns_.empty()) {
        free_at_ = now + golden::rtl_timing::kEmptyInstrCycles;
        wake.at(free_at_);
        return;
      }
      holding_ = true;
      in.set_consumer_busy(true);  // a push meanwhile need not wake us: we look at `in` when done
      // Per-lane atomics only (the scheduler reduced nothing): the schedule in closed form.
      all_lsu_ = true;
      for (const golden::Transaction& t : txns_) all_lsu_ &= t.route == golden::Route::Lsu;
      reduced_alone_ = txns_.size() == 1 && txns_[0].route == golden::Route::Reduced;
      if (!all_lsu_ && !reduced_alone_) golden::rtl_timing::schedule(txns_, sched_);
      // Lanes that gather are taken without a port and without back-pressure, so nothing outside
      // sees when: with every lane gathering but the last, they all join the packet now, and the
      // unit next runs when the last is offered.
      if (all_lsu_ && txns_.size() > 1 && gathers(txns_[0])) {
        gather_all(txns_.data(), txns_.size() - 1);
        next_ = txns_.size() - 1;
      }
    }
  }
  // Offer the next transaction at its scheduled cycle plus the back-pressure so far.
  const Cycle offer = accepted_ + emit_offset(next_) + delay_;
  if (now < offer) {
    wake.at(offer);
    return;
  }
  if (!(uniform_ ? emit_uniform_last(now, uniform_addr_, static_cast<uint32_t>(count_)) : emit(now, txns_[next_]))) {
    out->await_room(now);  // the LSU port wakes us when it frees
    return;
  }
  delay_ = now - accepted_ - emit_offset(next_);
  // Gathered pass-through lanes that follow join the packet now: each would be offered (and
  // taken: no port, no delay) at its own cycle, with nothing visible until the lane that sends.
  while (++next_ < count_ && gathers(txns_[next_])) emit(now, txns_[next_]);
  if (next_ < count_) {
    wake.at(accepted_ + emit_offset(next_) + delay_);
    return;
  }
  holding_ = false;
  in.set_consumer_busy(false);
  free_at_ = accepted_ + emit_offset(count_ - 1) + golden::rtl_timing::kInstrTurnaround + delay_;
  if (!in.empty()) wake.at(free_at_);  // else the sub-core's next push wakes us (then we wait for free_at_)
}

}  // namespace arc::sim
