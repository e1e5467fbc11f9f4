#include "clock.h"

#include <algorithm>

#include "error.h"

namespace arc::sim {


Calendar::Calendar(sc_core::sc_module_name name) : sc_module(name), wheel_(kWheel), full_(kWheel / 64, 0) {
  if (detail::g_calendar) throw Error("internal: a second timing-model Calendar in one process");
  detail::g_calendar = this;
  detail::g_now = 0;
  SC_METHOD(fire);  // runs at time 0 too: the wakes asked for cycle 0 during elaboration
  sensitive << ev_;
}

Calendar::~Calendar() {
  if (detail::g_calendar == this) detail::g_calendar = nullptr;
}

void Calendar::add_slow(Wake* w, Cycle c) {
  const Cycle now = detail::g_now;
  if (c - now < kWheel) {
    const size_t b = static_cast<size_t>(c % kWheel);
    wheel_[b].push_back(w);
    full_[b / 64] |= uint64_t{1} << (b % 64);
  } else {
    far_[c].push_back(w);
  }
  // Inside fire() the next arm happens on the way out; outside (elaboration) arm here.
  if (!firing_ && (armed_ == kNever || armed_ < now || c < armed_)) arm(c, now);
}

void Calendar::arm(Cycle c, Cycle now) {
  armed_ = c;
  ev_.notify(cycles(c - now));
}

Cycle Calendar::next_due(Cycle now) const {
  Cycle best = far_.empty() ? kNever : far_.begin()->first;
  // The wheel's buckets hold cycles now+1 .. now+kWheel-1: scan the bitmap from now+1 on.
  for (Cycle d = 1; d < kWheel;) {
    const size_t b = static_cast<size_t>((now + d) % kWheel);
    const uint64_t bits = full_[b / 64] >> (b % 64);
    if (bits) {
      const Cycle c = now + d + static_cast<Cycle>(__builtin_ctzll(bits));
      return std::min(best, c);
    }
    d += 64 - b % 64;
  }
  return best;
}

void Calendar::fire() {
  const Cycle start = sc_core::sc_time_stamp().value() / ticks_per_cycle();  // SystemC's time stays here
  Cycle now = start;
  firing_ = true;
  for (;;) {
    run_cycle(now);
    const Cycle next = next_due(now);
    if (next < horizon_) {  // inside the current sc_start(): no round trip through the kernel
      now = next;
      continue;
    }
    firing_ = false;
    if (next == kNever) armed_ = kNever;
    else arm(next, start);  // a delay from SystemC's time
    return;
  }
}

void Calendar::run_cycle(Cycle now) {
  detail::g_now = now;
  auto due = [&](Wake* w, Cycle at) {
    if (w->pending_ == at && !w->queued_) run_now(w);  // else superseded by an earlier request
  };
  // Far entries that are due now or have come within the wheel's reach move onto it.
  while (!far_.empty() && far_.begin()->first - now < kWheel) {
    const Cycle at = far_.begin()->first;
    if (at <= now) {
      for (Wake* w : far_.begin()->second) due(w, at);
    } else {
      const size_t b = static_cast<size_t>(at % kWheel);
      auto& bucket = wheel_[b];
      bucket.insert(bucket.end(), far_.begin()->second.begin(), far_.begin()->second.end());
      full_[b / 64] |= uint64_t{1} << (b % 64);
    }
    far_.erase(far_.begin());
  }
  const size_t b = static_cast<size_t>(now % kWheel);
  if (detail::g_reverse_same_cycle) std::reverse(wheel_[b].begin(), wheel_[b].end());
  for (Wake* w : wheel_[b]) due(w, now);
  wheel_[b].clear();
  full_[b / 64] &= ~(uint64_t{1} << (b % 64));
  // Run the due modules, then whatever they wake for this same cycle, in order. A module
  // woken again after it ran runs again (as a second delta cycle would run it).
  for (size_t i = 0; i < now_.size(); ++i) {
    Wake* w = now_[i];
    w->queued_ = false;
    w->run_();
  }
  now_.clear();
}

}  // namespace arc::sim
