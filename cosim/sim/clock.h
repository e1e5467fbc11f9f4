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

inline sc_core::sc_time cycles(Cycle n) { return sc_core::sc_time(static_cast<double>(n), sc_core::SC_NS); }

inline Cycle now_cycle() {
  static const uint64_t per_cycle = sc_core::sc_time(1, sc_core::SC_NS).value();
  return sc_core::sc_time_stamp().value() / per_cycle;
}

// Wakes `ev` at absolute cycle `at` (>= now); an earlier pending wake wins (sc_event keeps the
// earliest notification), so callers may over-request.
inline void wake_at(sc_core::sc_event& ev, Cycle at) {
  const Cycle now = now_cycle();
  if (at == kNever) return;
  if (at <= now) ev.notify(sc_core::SC_ZERO_TIME);
  else ev.notify(cycles(at - now));
}

}  // namespace arc::sim
