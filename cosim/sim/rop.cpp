#include "rop.h"

#include <algorithm>

namespace arc::sim {

RopUnit::RopUnit(sc_core::sc_module_name name, const RopSetup& setup, golden::MemoryImage& image, CommitLog& log,
                 Stats& stats)
    : sc_module(name), setup_(setup), image_(image), log_(log), stats_(stats) {
  SC_METHOD(step);
  sensitive << wake;
  dont_initialize();
}

void RopUnit::step() {
  const Cycle now = now_cycle();
  uint32_t started = 0;
  Cycle retry = kNever;
  // With one op per cycle and a 1-cycle interval the rule can never bite: skip the look-up.
  const bool serialize = setup_.same_addr_interval > 1 || setup_.ops_per_cycle > 1;
  while (started < setup_.ops_per_cycle && in.ready(now)) {
    const uint32_t addr = in.front().addr;
    if (serialize) {
      const auto it = last_start_.find(addr);
      if (it != last_start_.end() && it->second + setup_.same_addr_interval > now) {
        retry = it->second + setup_.same_addr_interval;
        break;
      }
    }
    const Request r = in.pop(now);
    image_.apply(r.addr, r.value);
    if (log_.enabled) log_.ops.emplace_back(r.addr, r.value);
    if (serialize) last_start_[addr] = now;
    ++started;
  }
  if (started) {
    stats_.rop_ops += started;
    ++stats_.rop_busy_unit_cycles;
    last_done_ = now + setup_.latency;
  }
  if (retry != kNever) wake_at(wake, retry);
  else if (in.ready(now)) wake_at(wake, now + 1);
  else wake_at(wake, in.next_ready());
}

}  // namespace arc::sim
