// Time in the timing model: one core clock cycle is one SystemC nanosecond. Every module is
// an SC_METHOD that runs only when its wake event fires (skip-ahead: an idle unit schedules
// nothing and costs nothing), and every hand-over between modules becomes visible no earlier
// than the next cycle, so the order in which SystemC runs modules inside one cycle never
// changes a result (the model is deterministic and fidelity-independent by construction).
#pragma once
#include <systemc>

#include <cstdint>

namespace arc::sim {

using Cycle = uint64_t;
constexpr Cycle kNever = ~Cycle{0};

inline uint64_t ticks_per_cycle() {
  static const uint64_t per_cycle = sc_core::sc_time(1, sc_core::SC_NS).value();
  return per_cycle;
}

inline sc_core::sc_time cycles(Cycle n) { return sc_core::sc_time::from_value(n * ticks_per_cycle()); }

inline Cycle now_cycle() { return sc_core::sc_time_stamp().value() / ticks_per_cycle(); }

// A module's wake-up event. at(c) asks for a run at absolute cycle c; an earlier pending
// request wins (sc_event keeps the earliest notification) and a request at or after a pending
// future one is dropped before it reaches the SystemC kernel's timed queue. A module
// recomputes its next wake from its own state every time it runs, so over-asking is harmless.
class Wake {
 public:
  sc_core::sc_event ev;
  void at(Cycle c) {
    if (c == kNever) return;
    const Cycle now = now_cycle();
    if (c <= now) {
      pending_ = 0;  // a delta notification cancels any timed one
      ev.notify(sc_core::SC_ZERO_TIME);
      return;
    }
    if (pending_ > now && pending_ <= c) return;
    pending_ = c;
    ev.notify(cycles(c - now));
  }

 private:
  Cycle pending_ = 0;
};

}  // namespace arc::sim
