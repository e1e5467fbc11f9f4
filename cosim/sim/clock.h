// Time in the timing model: one core clock cycle is one SystemC nanosecond. Every module is
// an sc_module whose step() runs only when its Wake is due (skip-ahead: an idle unit
// schedules nothing and costs nothing), and every hand-over between modules becomes visible
// no earlier than the next cycle, so the order in which modules run inside one cycle never
// changes a result (the model is deterministic and fidelity-independent by construction).
//
// Dispatch: the model's Calendar is the one SC_METHOD that SystemC runs. SystemC advances
// time to the Calendar's next due cycle (a timed event); there the Calendar calls each due
// module's step() directly, then any module woken for that same cycle, until none is left
// (what delta cycles did when each module was an SC_METHOD of its own, without an event,
// a process switch and a kernel queue per activation).
#pragma once
#include <systemc>

#include <cstdint>
#include <functional>
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

class Calendar;
namespace detail {
inline Cycle g_now = 0;  // the cycle the Calendar is running (set on each of its activations)
inline Calendar* g_calendar = nullptr;  // the process's Calendar
// Tests only: run each cycle's due modules in the reverse of the order they asked in, to check
// that the order modules run in within a cycle never changes a result.
inline bool g_reverse_same_cycle = false;
}

// The current cycle, inside a module's step().
inline Cycle now_cycle() { return detail::g_now; }

class Calendar;

// A module's wake-up. bind() names what runs (the module's step()); at(c) asks for a run at
// absolute cycle c. A request at or after a pending future one is dropped; a module
// recomputes its next wake from its own state every time it runs, so over-asking is
// harmless. A request for the current cycle runs later in this cycle (once, however often
// asked before it runs).
class Wake {
 public:
  void bind(std::function<void()> run) { run_ = std::move(run); }
  void at(Cycle c);

 private:
  friend class Calendar;
  std::function<void()> run_;
  Cycle pending_ = 0;
  bool queued_ = false;  // in the Calendar's run list for the current cycle
};

// Calendar: the model's wake-up book and dispatcher. Holds (cycle -> wakes) and one SystemC
// timed event for its earliest cycle. Near cycles (< kWheel ahead) sit in a timing wheel, one
// bucket per cycle with a bitmap of the non-empty ones; farther ones in an ordered map until
// they come near. Cost per wake: an append to a bucket (no allocation once warm). One per
// process (one GpuModel per process); it must exist before any module asks for a wake.
class Calendar : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Calendar);
  explicit Calendar(sc_core::sc_module_name name);
  ~Calendar() override;
  static Calendar* instance() { return detail::g_calendar; }
  // The end of the sc_start() about to run (run.cpp): cycles before it are run inside one
  // activation, one after the other, without handing each back to SystemC's kernel (its
  // timed-event and process bookkeeping per cycle was ~4 % of a run). SystemC would run each
  // of them within that sc_start() anyway, in the same order; the first cycle at or past the
  // end is armed as before, so where a run stops (and what a stats sample sees) is unchanged.
  // 0 (the default, e.g. a test's own sc_start): every cycle goes through the kernel.
  void run_before(Cycle end) { horizon_ = end; }
  // The cycle of the next wake in the book (SystemC's one pending event), kNever when none:
  // between sc_start() calls nothing runs before it (run.cpp skips idle stretches whole).
  Cycle next_wake() const { return armed_; }
  // c > now. Inline, the common case: while firing, a cycle within the wheel's reach.
  void add(Wake* w, Cycle c) {
    if (firing_ && c - detail::g_now < kWheel) {
      const size_t b = static_cast<size_t>(c % kWheel);
      wheel_[b].push_back(w);
      full_[b / 64] |= uint64_t{1} << (b % 64);
    } else {
      add_slow(w, c);
    }
  }
  void run_now(Wake* w) {  // later in the current cycle
    w->queued_ = true;
    now_.push_back(w);
  }

 private:
  static constexpr Cycle kWheel = 4096;  // a power of two
  void fire();
  void run_cycle(Cycle now);
  void add_slow(Wake* w, Cycle c);  // far ahead, or outside fire() (elaboration)
  void arm(Cycle c, Cycle now);
  Cycle next_due(Cycle now) const;  // earliest cycle after `now` with a wake in the book, or kNever
  sc_core::sc_event ev_;
  std::vector<std::vector<Wake*>> wheel_;  // bucket c % kWheel: the wakes for cycle c
  std::vector<uint64_t> full_;             // bit b: bucket b is non-empty
  std::map<Cycle, std::vector<Wake*>> far_;
  std::vector<Wake*> now_;                 // to run in the current cycle, in order
  bool firing_ = false;
  Cycle armed_ = kNever;
  Cycle horizon_ = 0;  // run_before()
};

inline void Wake::at(Cycle c) {
  if (c == kNever) return;
  const Cycle now = now_cycle();
  Calendar* cal = Calendar::instance();
  if (c <= now) {
    if (!queued_) cal->run_now(this);
    return;
  }
  if (pending_ > now && pending_ <= c) return;
  pending_ = c;
  cal->add(this, c);
}

}  // namespace arc::sim
