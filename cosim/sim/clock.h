// Time in the timing model: one core clock cycle is one SystemC nanosecond. Every module is
// an SC_METHOD that runs only when its wake event fires (skip-ahead: an idle unit schedules
// nothing and costs nothing), and every hand-over between modules becomes visible no earlier
// than the next cycle, so the order in which SystemC runs modules inside one cycle never
// changes a result (the model is deterministic and fidelity-independent by construction).
#pragma once
#include <systemc>

#include <cstdint>
#include <map>
#include <vector>

namespace arc::sim {

using Cycle = uint64_t;
constexpr Cycle kNever = ~Cycle{0};

inline uint64_t ticks_per_cycle() {
  static const uint64_t per_cycle = sc_core::sc_time(1, sc_core::SC_NS).value();
  return per_cycle;
}

inline sc_core::sc_time cycles(Cycle n) { return sc_core::sc_time::from_value(n * ticks_per_cycle()); }

inline Cycle now_cycle() { return sc_core::sc_time_stamp().value() / ticks_per_cycle(); }

class Calendar;

// A module's wake-up event. at(c) asks for a run at absolute cycle c. A request at or after a
// pending future one is dropped; a module recomputes its next wake from its own state every
// time it runs, so over-asking is harmless. Future requests go to the model's Calendar (one
// SystemC timed event for the whole model) rather than each into the kernel's timed queue.
class Wake {
 public:
  sc_core::sc_event ev;
  void at(Cycle c);

 private:
  friend class Calendar;
  Cycle pending_ = 0;
};

// Calendar: the model's wake-up book. Holds (cycle -> modules) and one timed event for its
// earliest cycle; when that cycle comes it notifies each due module's event for the same
// cycle (a delta notification). Near cycles (< kWheel ahead) sit in a timing wheel, one
// bucket per cycle with a bitmap of the non-empty ones; farther ones in an ordered map until
// they come near. Cost per wake: an append to a bucket (no allocation once warm) instead of
// a heap operation over every module's timed event. One per process (one GpuModel per
// process).
class Calendar : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Calendar);
  explicit Calendar(sc_core::sc_module_name name);
  ~Calendar() override;
  static Calendar* instance();
  void add(Wake* w, Cycle c);

 private:
  static constexpr Cycle kWheel = 4096;  // a power of two
  void fire();
  void arm(Cycle c, Cycle now);
  Cycle next_due(Cycle now) const;  // earliest cycle after `now` with a wake in the book, or kNever
  sc_core::sc_event ev_;
  std::vector<std::vector<Wake*>> wheel_;  // bucket c % kWheel: the wakes for cycle c
  std::vector<uint64_t> full_;             // bit b: bucket b is non-empty
  std::map<Cycle, std::vector<Wake*>> far_;
  Cycle armed_ = kNever;
};

inline void Wake::at(Cycle c) {
  if (c == kNever) return;
  const Cycle now = now_cycle();
  if (c <= now) {
    ev.notify(sc_core::SC_ZERO_TIME);
    return;
  }
  if (pending_ > now && pending_ <= c) return;
  pending_ = c;
  if (Calendar* cal = Calendar::instance()) cal->add(this, c);
  else ev.notify(cycles(c - now));
}

}  // namespace arc::sim
