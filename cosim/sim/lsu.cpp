#include "lsu.h"

#include "icnt.h"

#include "error.h"

#include <algorithm>

namespace arc::sim {

Lsu::Lsu(sc_core::sc_module_name name, const LsuSetup& setup, const RopHash& hash, Stats& stats)
    : sc_module(name), setup_(setup), hash_(hash), stats_(stats) {
  if (setup.ports > 32) throw Error("internal: an LSU of more than 32 ports");
  for (uint32_t i = 0; i < setup.ports; ++i) {
    ports.push_back(std::make_unique<Link<Packet>>(1));
    ports.back()->watch(&holding_, 1u << i);
  }
  taken_.assign(setup.ports, 0);
  grants_.assign(setup.ports, 0);
  wake.bind([this] { step(); });
}

void Lsu::account(Cycle now) {
  stats_.add_lsu_occupancy(setup_.sm, queue_.size(), now - occ_since_);
  occ_since_ = now;
}

bool Lsu::drained() const {
  if (!queue_.empty()) return false;
  for (const auto& port : ports)
    if (!port->empty()) return false;
  return true;
}

void Lsu::finish(Cycle end) {
  if (end > occ_since_) account(end);
}

void Lsu::step() {
  const Cycle now = now_cycle();
  account(now);
  // 1. Forward from the head, in order, while the crossbar input takes requests.
  for (uint32_t k = 0; k < setup_.issue_per_cycle && !queue_.empty() && to_icnt->can_push(now); ++k) {
    Request r = std::move(queue_.front());
    queue_.drop_front();  // moved from
    r.rop = hash_(r.addr());
    to_icnt->push(now, std::move(r));
    icnt->pushed(setup_.sm);
    ++stats_.requests_to_l2;
    ++stats_.sm(setup_.sm).requests_to_l2;
  }
  // 2. Admit at most one whole packet per port, round-robin from the port after the one
  //    served last (the start is fixed for the whole pass; rr_ moves only for the next cycle).
  //    Paced (cycles_per_instruction): a new packet starts at most once per that many cycles,
  //    SM-wide; the rest of a packet that did not fit continues regardless.
  const bool paced = setup_.cycles_per_instruction != 0;
  const uint32_t n = setup_.ports;
  const uint32_t start = rr_;
  for (uint32_t k = 0, p = start; k < n; ++k, p = p + 1 == n ? 0 : p + 1) {
    if (!(holding_ >> p & 1)) continue;
    Link<Packet>& port = *ports[p];
    if (!port.ready(now)) continue;
    const bool starts = taken_[p] == 0;
    if (paced && starts && now < next_admit_) continue;
    const size_t room = setup_.depth - queue_.size();
    if (room == 0) {
      ++stats_.lsu_full_rejects;
      ++stats_.sm(setup_.sm).lsu_full_rejects;
      continue;
    }
    Packet& pk = port.front_mut();
    const size_t take = std::min(room, pk.size() - taken_[p]);
    for (size_t i = taken_[p]; i < taken_[p] + take; ++i) queue_.push_back(std::move(pk[i]));
    taken_[p] += take;
    if (paced && starts) next_admit_ = now + setup_.cycles_per_instruction;
    if (taken_[p] == pk.size()) {
      give_back(port.pop(now));  // its storage serves a later packet
      taken_[p] = 0;
      ++grants_[p];
    } else {
      ++stats_.lsu_full_rejects;  // the rest waits in the port: the issuing sub-core stalls
      ++stats_.sm(setup_.sm).lsu_full_rejects;
    }
    rr_ = p + 1 == n ? 0 : p + 1;
  }
  stats_.lsu_occupancy_max = std::max<uint64_t>(stats_.lsu_occupancy_max, queue_.size());
  stats_.sm(setup_.sm).lsu_occupancy_max = std::max<uint64_t>(stats_.sm(setup_.sm).lsu_occupancy_max, queue_.size());
  busy.write(now, setup_.depth - queue_.size() < setup_.busy_slack);
  // 3. Next wake: next cycle while there is something to forward and room to forward it
  //    (a full crossbar input wakes us when it drains), or when a port's packet arrives.
  Cycle next = kNever;
  if (!queue_.empty()) {
    if (to_icnt->can_push(now + 1)) next = now + 1;
    else to_icnt->await_room(now);  // the crossbar's pop wakes us
  }
  for (uint32_t h = holding_; h; h &= h - 1) {
    const Cycle r = ports[static_cast<size_t>(__builtin_ctz(h))]->next_ready();
    {
      // a waiting packet that did not fit retries when the queue drains (forwarding wakes us)
      if (r > now) next = std::min(next, r);
      else if (paced && now < next_admit_) next = std::min(next, next_admit_);
      else if (queue_.empty()) next = std::min(next, now + 1);
    }
  }
  wake.at(next);
}

}  // namespace arc::sim
