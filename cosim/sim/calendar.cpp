#include "clock.h"

namespace arc::sim {

namespace {
Calendar* g_calendar = nullptr;
}

Calendar::Calendar(sc_core::sc_module_name name) : sc_module(name) {
  g_calendar = this;
  SC_METHOD(fire);
  sensitive << ev_;
  dont_initialize();
}

Calendar::~Calendar() {
  if (g_calendar == this) g_calendar = nullptr;
}

Calendar* Calendar::instance() { return g_calendar; }

void Calendar::add(Wake* w, Cycle c) {
  due_[c].push_back(w);
  const Cycle now = now_cycle();
  if (armed_ == kNever || armed_ < now || c < armed_) {
    armed_ = c;
    ev_.notify(cycles(c - now));
  }
}

void Calendar::fire() {
  const Cycle now = now_cycle();
  while (!due_.empty() && due_.begin()->first <= now) {
    const Cycle at = due_.begin()->first;
    for (Wake* w : due_.begin()->second)
      if (w->pending_ == at) w->ev.notify(sc_core::SC_ZERO_TIME);  // else superseded by an earlier request
    due_.erase(due_.begin());
  }
  if (due_.empty()) {
    armed_ = kNever;
  } else {
    armed_ = due_.begin()->first;
    ev_.notify(cycles(armed_ - now));
  }
}

}  // namespace arc::sim
