#include "icnt.h"

#include <algorithm>

#include "error.h"
#include "cache_hint.h"
#include "rop.h"

namespace arc::sim {

namespace {

// A link of `rate` byte slots per cycle whose next free slot is `slot` (slot = cycle x rate + k)
// can start a request in cycle `now` (max(slot, now x rate) < (now + 1) x rate), and has room
// again from the cycle returned (the next cycle at the earliest).
bool has_room(uint64_t slot, Cycle now, uint64_t rate) { return slot < (now + 1) * rate; }
Cycle room_from(uint64_t slot, Cycle now, uint64_t rate) { return std::max<Cycle>(now + 1, slot / rate); }

}  // namespace

Icnt::Icnt(sc_core::sc_module_name name, const IcntSetup& setup)
    : sc_module(name),
      setup_(setup),
      state_(setup.sms, kIdle),
      active_(setup.sms),
      blocked_(setup.rops),
      blocked_rops_(setup.rops),
      look_(setup.rops),
      sm_slot_(setup.sms, 0),
      eject_slot_(setup.rops, 0),
      links_of_sm_(setup.sms, {kNoLink, kNoLink}) {
  // Both levels flattened into shared_: the groups' links, then the GPCs'.
  const IcntSetup::SharedLinks* levels[2] = {&setup.group, &setup.gpc};
  for (int lv = 0; lv < 2; ++lv) {
    const IcntSetup::SharedLinks& L = *levels[lv];
    if (L.of_sm.empty()) continue;
    if (L.of_sm.size() != setup.sms)
      throw Error("internal: the crossbar's " + std::string(lv ? "GPC" : "group") + " map covers " +
                  std::to_string(L.of_sm.size()) + " of " + std::to_string(setup.sms) + " SMs");
    const size_t base = shared_.size();
    for (uint32_t b : L.bytes) {
      Shared x;
      x.rate = b;
      x.header = L.header_bytes;
      shared_.push_back(std::move(x));
    }
    for (uint32_t sm = 0; sm < setup.sms; ++sm) {
      if (L.of_sm[sm] == kNoLink) continue;  // '-' in the map: none at this level
      if (L.of_sm[sm] >= L.bytes.size())
        throw Error("internal: " + std::string(lv ? "GPC " : "group ") + std::to_string(L.of_sm[sm]) +
                    " has no link rate");
      links_of_sm_[sm][lv] = static_cast<uint32_t>(base + L.of_sm[sm]);
    }
    // The visiting order's lists: the top level's links (the GPCs' when both are on), and
    // one more for the SMs without a link there.
    turn_.assign(L.bytes.size() + 1, {});
    top_of_sm_.assign(setup.sms, static_cast<uint32_t>(L.bytes.size()));
    for (uint32_t sm = 0; sm < setup.sms; ++sm)
      if (L.of_sm[sm] != kNoLink) top_of_sm_[sm] = L.of_sm[sm];
  }
  if (turn_.size() > 64)  // turn_used_ is a 64-bit mask (a GPU has a few dozen GPCs at most)
    throw Error("internal: the crossbar's visiting order handles at most 63 shared links at the top level");
  from_sm.assign(setup.sms, Link<Request>(setup.input_depth));
  to_rop.resize(setup.rops, nullptr);
  for (uint32_t r = 0; r < setup.rops; ++r) rop_hints_.push_back({this, r});
  wake.bind([this] { step(); });
}

void Icnt::step() {
  const Cycle now = now_cycle();
  const uint64_t F = uint64_t{setup_.flits_per_cycle} * setup_.flit_bytes;
  const uint64_t E = uint64_t{setup_.eject_per_cycle} * setup_.flit_bytes;
  const uint64_t L = setup_.l2_bytes_per_cycle;
  const Cycle lat = std::max<uint32_t>(setup_.latency, 1);
  Cycle next = kNever;
  // Visit the SMs with flits in round-robin order, from SM (cycle mod SMs): the priority
  // rotates with time, not with how often this module happens to run (active_ is a set visited
  // in ascending order, so the order never depends on which LSU ran first in a cycle).
  const uint32_t rr = static_cast<uint32_t>(now % setup_.sms);
  // SMs blocked on a ROP input come back into the visiting order when that input has room
  // (a slot freed this cycle is usable only from the next one, so one look per ROP unit
  // settles it for all its waiters). Back in the order, such an SM checks its head as any
  // other: an earlier SM may take the room first. Room only shrinks while the crossbar runs,
  // and a waiter whose link is free this cycle takes at least one slot when visited (its head
  // goes to this unit), so of those only the first `room` in visiting order can get in: they
  // come back, the others stay blocked (a visit would only block them again). A waiter whose
  // link is busy this cycle comes back too (its visit parks it).
  recheck_.clear();
  blocked_rops_.for_each_in(look_, [&](size_t rop) {
    look_.erase(rop);
    Link<Request>& out = *to_rop[rop];
    if (!out.can_push(now)) {
      await_rop(static_cast<uint32_t>(rop), now);  // the ROP's pop wakes us
      return;
    }
    std::vector<uint32_t>& waiting = blocked_[rop];
    size_t room = out.free_slots(now);
    size_t keep = 0;
    for (uint32_t sm : waiting) {
      if (!has_room(sm_slot_[sm], now, F)) activate(sm);
      else waiting[keep++] = sm;
    }
    waiting.resize(keep);
    // An SM's place in this cycle's visiting order (from SM rr on), without a division.
    auto place = [&](uint32_t sm) { return sm >= rr ? sm - rr : sm + setup_.sms - rr; };
    while (room > 0 && !waiting.empty()) {
      size_t best = 0;
      uint32_t best_place = place(waiting[0]);
      for (size_t i = 1; i < waiting.size(); ++i) {
        const uint32_t p = place(waiting[i]);
        if (p < best_place) {
          best = i;
          best_place = p;
        }
      }
      activate(waiting[best]);
      waiting[best] = waiting.back();
      waiting.pop_back();
      --room;
    }
    if (waiting.empty()) blocked_rops_.erase(rop);
    else recheck_.push_back(static_cast<uint32_t>(rop));
  });
  parked_.release(now, [&](uint32_t sm) { activate(sm); });
  const bool shared = !shared_.empty();
  bool serving = false;  // visiting a shared link's waiters, oldest first (they go before the others)
  // The first of sm's shared links that stops its head this cycle (full, or, outside the
  // waiters' turn, with SMs waiting for it), or kNoLink.
  auto stopping = [&](uint32_t sm) {
    for (uint32_t l : links_of_sm_[sm]) {
      if (l == kNoLink) continue;
      const Shared& x = shared_[l];
      if (!has_room(x.slot, now, x.rate) || (!serving && !x.waiting.empty())) return l;
    }
    return kNoLink;
  };
  // One SM's turn: it sends from its head while its link (and its shared links) have room
  // this cycle and the head's ROP unit has an input entry; then it blocks, waits for a shared
  // link, parks, idles or stays in the visiting order.
  auto visit = [&](size_t smi) {
    const uint32_t sm = static_cast<uint32_t>(smi);
    Link<Request>& in = from_sm[sm];
    bool blocked = false;
    uint64_t& slot = sm_slot_[sm];
    uint32_t stop = kNoLink;  // the shared link that ended the sends (kNoLink: none did)
    while (in.ready(now) && has_room(slot, now, F) && (!shared || (stop = stopping(sm)) == kNoLink)) {
      const Request& r = in.front();
      const uint32_t rop = r.rop;
      Link<Request>& out = *to_rop[rop];
      if (!out.can_push(now)) {
        await_rop(rop, now);  // the ROP's pop wakes us
        blocked_[rop].push_back(sm);
        blocked_rops_.insert(rop);
        state_[sm] = kBlocked;
        active_.erase(sm);
        blocked = true;
        break;
      }
      const uint64_t s = std::max<uint64_t>(slot, now * F);
      slot = s + r.link_bytes;
      Cycle last = (slot - 1) / F;  // the cycle its last byte leaves the SM
      if (shared) {  // ... and its shared links
        for (uint32_t l : links_of_sm_[sm]) {
          if (l == kNoLink) continue;
          Shared& x = shared_[l];
          x.slot = std::max<uint64_t>(x.slot, now * x.rate) + shared_bytes(r, x.header);
          last = std::max<Cycle>(last, (x.slot - 1) / x.rate);
        }
      }
      // Ejection: at most eject_per_cycle flits per ROP port per cycle, in order.
      const uint64_t es = std::max<uint64_t>(eject_slot_[rop], (now + lat) * E);
      eject_slot_[rop] = es + r.bytes;
      Cycle at = std::max<Cycle>((eject_slot_[rop] - 1) / E, last + lat);
      if (L) {  // ... and the L2 side's input, chip-wide
        l2_slot_ = std::max<uint64_t>(l2_slot_, (now + lat) * L) + r.bytes;
        at = std::max<Cycle>(at, (l2_slot_ - 1) / L);
      }
      if (word_state) load_hint(word_state + r.addr());
      out.push(now, std::move(in.front_mut()), at - now);
      in.pop_moved(now);
    }
    if (blocked) return;
    // Next cycle this SM can send: its link's next free byte, or its head becoming visible.
    // Until then it waits out of the visiting order (an LSU push only appends behind the
    // head, so it cannot make that cycle earlier).
    Cycle resume = kNever;
    {
      // A shared link stopped it (its head is visible and its own link has room: the loop's
      // other conditions held when that link was found, and nothing has changed since).
      if (const uint32_t l = stop; l != kNoLink) {
        // Its own link has room, a shared one has none (or others wait for it first): it
        // joins that link's waiters, served in order as the link frees (see below).
        shared_[l].waiting.push_back(sm);
        ++waiters_;
        contended_until_ = now + kContendedSpell;
        state_[sm] = kLinkWait;
        active_.erase(sm);
        next = std::min(next, room_from(shared_[l].slot, now, shared_[l].rate));
        return;
      }
    }
    if (in.ready(now)) resume = room_from(slot, now, F);
    else if (!in.empty()) resume = in.next_ready();
    if (resume == kNever) {
      state_[sm] = kIdle;
      active_.erase(sm);
    } else if (resume > now + 1) {
      parked_.park(resume, sm);
      state_[sm] = kParked;
      active_.erase(sm);
    } else {
      next = std::min(next, resume);
      if (serving) {  // a waiter that stays in the order: the pass below looks at it again
        state_[sm] = kActive;
        active_.insert(sm);
      }
    }
  };
  // The shared links' waiters first (groups' links, then GPCs'), oldest first, while the link
  // has room this cycle; one that finds its other link full waits for that one.
  if (waiters_) {
    serving = true;
    for (Shared& x : shared_) {
      while (!x.waiting.empty() && has_room(x.slot, now, x.rate)) {
        const uint32_t sm = x.waiting.front();
        x.waiting.pop_front();
        --waiters_;
        state_[sm] = kActive;
        visit(sm);
      }
    }
    serving = false;
    for (const Shared& x : shared_)
      if (!x.waiting.empty()) next = std::min(next, room_from(x.slot, now, x.rate));
  }
  // Then every SM in the order. Without shared links, or where none has turned an SM away for
  // kContendedSpell cycles (who goes first then decides nothing about them): one order for
  // the whole chip, ascending from SM rr. Otherwise those whose head is visible: each GPC's
  // in the order of their ids rotated by one every cycle, the GPCs interleaved (the first of
  // each, then the second of each, ...). With the chip-wide order the SMs of a GPC of
  // consecutive ids would meet in the same order in all but a few cycles, and the last of
  // them would find the shared link full in most: it would get what the others leave (the
  // waiters' queue gives it only the cycle after a refusal), not its share; rotating over all
  // of a GPC's SMs would do the same to the last of those sending when they are a run of its
  // ids. Counting only SMs with a visible head keeps the order independent of when in the
  // cycle an LSU made its SM active (a head pushed this cycle shows next cycle). The others
  // (heads not yet visible) are visited after, to park.
  if (!shared || now > contended_until_) {
    active_.for_each_from(rr, visit);
  } else {
    // Only the lists that got an SM are cleared, measured and walked (turn_used_, in list
    // order: the same visits as walking every list).
    for (uint64_t u = turn_used_; u; u &= u - 1) turn_[static_cast<size_t>(__builtin_ctzll(u))].clear();
    turn_used_ = 0;
    later_.clear();
    active_.for_each_from(0, [&](size_t sm) {  // ascending ids: each list stays in id order
      if (from_sm[sm].ready(now)) {
        const uint32_t t = top_of_sm_[sm];
        turn_[t].push_back(static_cast<uint32_t>(sm));
        turn_used_ |= uint64_t{1} << t;
      } else {
        later_.push_back(static_cast<uint32_t>(sm));
      }
    });
    uint32_t widest = 0;
    for (uint64_t u = turn_used_; u; u &= u - 1)
      widest = std::max(widest, static_cast<uint32_t>(turn_[static_cast<size_t>(__builtin_ctzll(u))].size()));
    for (uint32_t k = 0; k < widest; ++k)
      for (uint64_t u = turn_used_; u; u &= u - 1) {
        const std::vector<uint32_t>& m = turn_[static_cast<size_t>(__builtin_ctzll(u))];
        if (k < m.size()) visit(m[(k + now) % m.size()]);
      }
    for (uint32_t sm : later_)
      if (active_.contains(sm)) visit(sm);
  }
  // A unit whose remaining waiters were not visited is full now: the next pop must wake us.
  for (uint32_t rop : recheck_)
    if (!blocked_[rop].empty()) await_rop(rop, now);
  next = std::min(next, parked_.next());
  wake.at(next);
}

}  // namespace arc::sim
