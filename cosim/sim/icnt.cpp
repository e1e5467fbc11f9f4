#include "icnt.h"

#include <algorithm>

namespace arc::sim {

Icnt::Icnt(sc_core::sc_module_name name, const IcntSetup& setup)
    : sc_module(name), setup_(setup), listed_(setup.sms, 0), eject_cycle_(setup.rops, 0), eject_count_(setup.rops, 0) {
  for (uint32_t i = 0; i < setup.sms; ++i) from_sm.push_back(std::make_unique<Link<Request>>(setup.input_depth));
  to_rop.resize(setup.rops, nullptr);
  SC_METHOD(step);
  sensitive << wake.ev;
  dont_initialize();
}

void Icnt::step() {
  const Cycle now = now_cycle();
  const Cycle arrive_min = now + std::max<uint32_t>(setup_.latency, 1);
  Cycle next = kNever;
  // Visit the SMs with flits in round-robin order from rr_ (sorted, so the order never depends
  // on which LSU ran first in a cycle).
  std::sort(active_.begin(), active_.end());
  const auto first = std::lower_bound(active_.begin(), active_.end(), rr_);
  std::rotate(active_.begin(), first, active_.end());
  size_t keep = 0;
  for (size_t k = 0; k < active_.size(); ++k) {
    const uint32_t sm = active_[k];
    Link<Request>& in = *from_sm[sm];
    bool blocked = false;
    for (uint32_t f = 0; f < setup_.flits_per_cycle && in.ready(now); ++f) {
      const uint32_t rop = in.front().rop;
      Link<Request>& out = *to_rop[rop];
      if (!out.can_push(now)) {
        blocked = true;  // the ROP's pop wakes us
        break;
      }
      // Ejection: at most eject_per_cycle deliveries per ROP port per cycle, in order.
      Cycle at = std::max(arrive_min, eject_cycle_[rop]);
      if (at == eject_cycle_[rop] && eject_count_[rop] >= setup_.eject_per_cycle) ++at;
      if (at != eject_cycle_[rop]) {
        eject_cycle_[rop] = at;
        eject_count_[rop] = 0;
      }
      ++eject_count_[rop];
      out.push(now, in.pop(now), at - now);
    }
    if (in.ready(now) && !blocked) next = std::min(next, now + 1);
    else if (!in.ready(now)) next = std::min(next, in.next_ready());
    if (in.empty()) listed_[sm] = 0;
    else active_[keep++] = sm;
  }
  active_.resize(keep);
  rr_ = (rr_ + 1) % setup_.sms;
  wake.at(next);
}

}  // namespace arc::sim
