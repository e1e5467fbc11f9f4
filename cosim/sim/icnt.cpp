#include "icnt.h"

#include <algorithm>

namespace arc::sim {

Icnt::Icnt(sc_core::sc_module_name name, const IcntSetup& setup)
    : sc_module(name), setup_(setup), listed_(setup.sms, 0), waits_on_(setup.sms, kNone), sm_slot_(setup.sms, 0), eject_slot_(setup.rops, 0) {
  for (uint32_t i = 0; i < setup.sms; ++i) from_sm.push_back(std::make_unique<Link<Request>>(setup.input_depth));
  to_rop.resize(setup.rops, nullptr);
  SC_METHOD(step);
  sensitive << wake.ev;
  dont_initialize();
}

void Icnt::step() {
  const Cycle now = now_cycle();
  const uint64_t F = uint64_t{setup_.flits_per_cycle} * setup_.flit_bytes;
  const uint64_t E = uint64_t{setup_.eject_per_cycle} * setup_.flit_bytes;
  const Cycle lat = std::max<uint32_t>(setup_.latency, 1);
  Cycle next = kNever;
  // Visit the SMs with flits in round-robin order, from SM (cycle mod SMs): the priority
  // rotates with time, not with how often this module happens to run (active_ is kept sorted,
  // so the order never depends on which LSU ran first in a cycle).
  const uint32_t rr = static_cast<uint32_t>(now % setup_.sms);
  const size_t n = active_.size();
  const size_t start = static_cast<size_t>(std::lower_bound(active_.begin(), active_.end(), rr) - active_.begin());
  bool emptied = false;
  for (size_t j = 0; j < n; ++j) {
    const uint32_t sm = active_[(start + j) % n];
    // An SM whose head found its ROP input full stays blocked until that input has room: a
    // slot freed this cycle is usable only from the next one, so one look at that ROP's link
    // settles it without touching the SM's queue (most SMs, while the ROPs are the bottleneck).
    if (waits_on_[sm] != kNone) {
      Link<Request>& out = *to_rop[waits_on_[sm]];
      if (!out.can_push(now)) {
        out.await_room(now);
        continue;
      }
      waits_on_[sm] = kNone;
    }
    Link<Request>& in = *from_sm[sm];
    bool blocked = false;
    uint64_t& slot = sm_slot_[sm];
    while (in.ready(now) && std::max<uint64_t>(slot, now * F) < (now + 1) * F) {
      const Request& r = in.front();
      const uint32_t rop = r.rop;
      Link<Request>& out = *to_rop[rop];
      if (!out.can_push(now)) {
        out.await_room(now);  // the ROP's pop wakes us
        waits_on_[sm] = rop;
        blocked = true;
        break;
      }
      const uint64_t s = std::max<uint64_t>(slot, now * F);
      slot = s + r.bytes;
      const Cycle left = (slot - 1) / F;  // the cycle its last byte leaves the SM
      // Ejection: at most eject_per_cycle flits per ROP port per cycle, in order.
      const uint64_t es = std::max<uint64_t>(eject_slot_[rop], (now + lat) * E);
      eject_slot_[rop] = es + r.bytes;
      const Cycle at = std::max<Cycle>((eject_slot_[rop] - 1) / E, left + lat);
      out.push(now, in.pop(now), at - now);
    }
    if (in.ready(now) && !blocked) next = std::min<Cycle>(next, std::max<Cycle>(now + 1, slot / F));
    else if (!in.ready(now)) next = std::min(next, in.next_ready());
    if (in.empty()) {
      listed_[sm] = 0;
      emptied = true;
    }
  }
  if (emptied) active_.erase(std::remove_if(active_.begin(), active_.end(), [&](uint32_t sm) { return !listed_[sm]; }),
                             active_.end());
  wake.at(next);
}

}  // namespace arc::sim
