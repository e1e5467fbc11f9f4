#include "lsu.h"

#include "icnt.h"

#include "error.h"

#include <algorithm>

namespace arc::sim {

Lsu::Lsu(sc_core::sc_module_name name, const LsuSetup& setup, const RopHash& hash, Stats& stats)
    : sc_module(name), setup_(setup), hash_(hash), stats_(stats) {
  if (setup.ports > kMaxPorts) throw Error("internal: an LSU of more than 32 ports");
  ports.reserve(setup.ports);
  for (uint32_t i = 0; i < setup.ports; ++i) {
    ports.emplace_back(1);  // reserved: the links never move once wired
    ports.back().watch(&holding_, 1u << i);
    ports.back().set_consumer_asleep_flag(&asleep_);
  }
  const size_t hist = static_cast<size_t>(setup.depth) + 1;
  if (hist > kInlineHist) occ_heap_.assign(hist, 0);
  occ_hist_ = hist > kInlineHist ? occ_heap_.data() : occ_inline_.data();
  wake.bind([this] { step(); });
}

void Lsu::account(Cycle now) {
  accounted_ = true;
  const uint64_t cycles = now - occ_since_;
  occ_since_ = now;
  if (!cycles) return;
  const size_t entries = queue_.size();
  occ_sum_ += entries * cycles;
  occ_hist_[entries] += cycles;
  occ_hist_top_ = std::max(occ_hist_top_, entries + 1);
}

bool Lsu::drained() const {
  if (!queue_.empty()) return false;
  for (const auto& port : ports)
    if (!port.empty()) return false;
  return true;
}

void Lsu::finish(Cycle end) {
  if (end > occ_since_) account(end);
  if (!accounted_) return;
  SmStats& s = stats_.sm(setup_.sm);
  s.lsu_occupancy_sum += static_cast<double>(occ_sum_);
  stats_.lsu_occupancy_sum += static_cast<double>(occ_sum_);
  if (stats_.lsu_occupancy_hist.size() < occ_hist_top_) stats_.lsu_occupancy_hist.resize(occ_hist_top_);
  for (size_t e = 0; e < occ_hist_top_; ++e) stats_.lsu_occupancy_hist[e] += occ_hist_[e];
  s.lsu_occupancy_max = std::max(s.lsu_occupancy_max, occ_max_);
  stats_.lsu_occupancy_max = std::max(stats_.lsu_occupancy_max, occ_max_);
  s.lsu_full_rejects += rejects_;
  stats_.lsu_full_rejects += rejects_;
  s.requests_to_l2 += requests_;
  occ_max_ = rejects_ = requests_ = occ_sum_ = 0;
  std::fill(occ_hist_, occ_hist_ + setup_.depth + 1, 0);
  occ_hist_top_ = 0;
}

void Lsu::step() {
  const Cycle now = now_cycle();
  account(now);
  const bool paced = setup_.cycles_per_instruction != 0;
  if (asleep_) {
    // Cycles asleep_at_ + 1 .. now - 1: the queue stayed full and nothing was forwarded, so in
    // each of them every packet visible at a port (and not held back by the pacing) was refused.
    asleep_ = false;
    for (uint32_t h = holding_; h; h &= h - 1) {
      const uint32_t p = static_cast<uint32_t>(__builtin_ctz(h));
      Cycle from = std::max(asleep_at_ + 1, ports[p].next_ready());
      if (paced && taken_[p] == 0) from = std::max(from, next_admit_);
      if (now > from) rejects_ += now - from;
    }
  }
  // 1. Forward from the head, in order, while the crossbar input takes requests.
  for (uint32_t k = 0; k < setup_.issue_per_cycle && !queue_.empty() && to_icnt->can_push(now); ++k) {
    Request& r = queue_.front();
    r.rop = hash_(r.addr());
    to_icnt->push(now, std::move(r));  // straight from the queue's slot into the link's
    queue_.drop_front();               // moved from
    icnt->pushed(setup_.sm);
    ++stats_.requests_to_l2;  // the run-wide one feeds the time series: kept current
    ++requests_;
  }
  // 2. Admit at most one whole packet per port, round-robin from the port after the one
  //    served last (the start is fixed for the whole pass; rr_ moves only for the next cycle).
  //    Paced (cycles_per_instruction): a new packet starts at most once per that many cycles,
  //    SM-wide; the rest of a packet that did not fit continues regardless.
  //    Only the ports holding a packet are visited: those from the start up, then those below it
  //    (no port fills during this pass, and one it empties has been visited).
  const uint32_t n = setup_.ports;
  const uint32_t start = rr_;
  const uint32_t from_start = holding_ & (~0u << start);
  for (uint32_t h = from_start, rest = holding_ & ~from_start; h || rest; h &= h - 1) {
    if (!h) std::swap(h, rest);
    const uint32_t p = static_cast<uint32_t>(__builtin_ctz(h));
    Link<Packet>& port = ports[p];
    if (!port.ready(now)) continue;
    const bool starts = taken_[p] == 0;
    if (paced && starts && now < next_admit_) continue;
    const size_t room = setup_.depth - queue_.size();
    if (room == 0) {
      ++rejects_;
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
      ++rejects_;  // the rest waits in the port: the issuing sub-core stalls
    }
    rr_ = p + 1 == n ? 0 : p + 1;
  }
  occ_max_ = std::max<uint64_t>(occ_max_, queue_.size());
  busy.write(now, setup_.depth - queue_.size() < setup_.busy_slack);
  // 3. Next wake: next cycle while there is something to forward and room to forward it
  //    (a full crossbar input wakes us when it drains), or when a port's packet arrives.
  //    Both full: asleep until that pop (see the header).
  Cycle next = kNever;
  if (!queue_.empty()) {
    if (to_icnt->can_push(now + 1)) {
      next = now + 1;
    } else {
      to_icnt->await_room(now);  // the crossbar's pop wakes us
      if (queue_.size() == setup_.depth && !setup_.every_cycle) {
        asleep_ = true;
        asleep_at_ = now;
        return;
      }
    }
  }
  if (setup_.every_cycle && (!queue_.empty() || holding_)) next = now + 1;
  for (uint32_t h = holding_; h; h &= h - 1) {
    const Cycle r = ports[static_cast<size_t>(__builtin_ctz(h))].next_ready();
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
