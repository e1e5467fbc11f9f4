#include "rop.h"

#include <algorithm>

namespace arc::sim {

std::vector<std::pair<uint32_t, uint32_t>> CommitLog::sorted() const {
  std::vector<Entry> e = entries;
  std::stable_sort(e.begin(), e.end(), [](const Entry& a, const Entry& b) {
    return a.cycle != b.cycle ? a.cycle < b.cycle : a.unit < b.unit;
  });
  std::vector<std::pair<uint32_t, uint32_t>> out;
  out.reserve(e.size());
  for (const Entry& x : e) out.emplace_back(x.addr, x.value);
  return out;
}

RopUnit::RopUnit(sc_core::sc_module_name name, uint32_t unit, const RopSetup& setup, golden::MemoryImage& image,
                 CommitLog& log, std::vector<uint32_t>& arrived, Stats& stats)
    : sc_module(name), unit_(unit), setup_(setup), image_(image), log_(log), arrived_(arrived), stats_(stats) {
  SC_METHOD(step);
  sensitive << wake.ev;
  dont_initialize();
}

void RopUnit::step() {
  const Cycle now = now_cycle();
  uint32_t started = 0;
  Cycle retry = kNever;
  // With one op per cycle, in order, and a 1-cycle interval the rule can never bite: no look-up.
  const bool serialize = setup_.same_addr_interval > 1 || setup_.ops_per_cycle > 1 || setup_.window > 1;
  while (started < setup_.ops_per_cycle && in.ready(now)) {
    size_t pick = SIZE_MAX;
    seen_.clear();
    for (size_t i = 0; i < setup_.window && in.ready_at(now, i); ++i) {
      const uint32_t addr = in.item(i).addr;
      if (!serialize) {
        pick = i;
        break;
      }
      if (std::find(seen_.begin(), seen_.end(), addr) != seen_.end()) continue;  // an older op on it waits
      seen_.push_back(addr);
      const auto it = last_start_.find(addr);
      if (it != last_start_.end() && it->second + setup_.same_addr_interval > now) {
        retry = std::min(retry, it->second + setup_.same_addr_interval);
        continue;
      }
      pick = i;
      break;
    }
    if (pick == SIZE_MAX) break;
    const Request r = in.pop_at(now, pick);
    image_.apply(r.addr, r.value);
    arrived_[r.addr] += r.lanes;
    if (log_.enabled) log_.entries.push_back({now, unit_, r.addr, r.value});
    if (serialize) last_start_[r.addr] = now;
    ++started;
  }
  if (started) {
    stats_.rop_ops += started;
    ++stats_.rop_busy_unit_cycles;
    stats_.rop(unit_).ops += started;
    ++stats_.rop(unit_).busy_cycles;
    last_done_ = now + setup_.latency;
  }
  if (started && in.ready(now)) wake.at(now + 1);
  else if (retry != kNever) wake.at(std::min(retry, in.next_ready() > now ? in.next_ready() : kNever));
  else wake.at(in.next_ready() > now ? in.next_ready() : now + 1);
}

}  // namespace arc::sim
