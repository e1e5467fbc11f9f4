// Icnt: the SM-to-L2 crossbar. A request is Request::bytes long (one flit unless coalesced).
//  - Inputs: one Link per SM (filled by that SM's LSU). Each SM's link carries
//    icnt_flits_per_cycle x flit_bytes bytes per cycle: requests leave in order, each taking
//    its bytes of that budget (a head whose ROP unit has no free input entry blocks its SM:
//    credit-based flow control), SMs served round-robin.
//  - A request arrives at its ROP unit icnt_latency cycles (at least 1) after its last flit
//    left, and each output port delivers at most icnt_eject_per_cycle flits per cycle
//    (contention at a hot L2 slice queues there, in the order the requests entered), bytes
//    again: a flit is flit_bytes. Optionally the L2 side takes at most l2_bytes_per_cycle
//    from all ports together, in the order requests left their SMs: a chip-wide ceiling that a
//    hot unit's backlog does not cut into (only that unit's own rate holds it back).
//  - Shared links (optional, two levels): the SMs of one GPC also share that GPC's link into
//    the crossbar, and inside a GPC the SMs of one group (a part of it with its own link) that
//    group's; each carries its bytes per cycle, a request taking the level's header per round
//    plus 4 per value it carries (a run of n one-lane requests: n rounds), and a request
//    leaves when its SM's link and every shared link of its SM have room. SMs that find a
//    shared link full wait for it in order; a GPC's SMs meet in an order that rotates every
//    cycle, so each gets its share.
//  - Credits: a ROP unit's input Link counts flits in flight to it, so the crossbar never
//    sends more than the ROP can buffer; a ROP that stops draining stalls the SMs that
//    target it, which fills their LSU queues: that is the back-pressure the ARC scheduler sees.
#pragma once
#include <systemc>

#include <algorithm>
#include <array>
#include <deque>
#include <functional>
#include <memory>
#include <vector>

#include "bitset.h"
#include "gpu_config.h"
#include "link.h"
#include "park_wheel.h"
#include "request.h"

namespace arc::sim {

struct WordState;

struct IcntSetup {
  uint32_t sms = 1;
  uint32_t rops = 1;
  uint32_t flits_per_cycle = 1;
  uint32_t latency = 20;
  uint32_t eject_per_cycle = 1;
  uint32_t flit_bytes = 32;
  uint32_t l2_bytes_per_cycle = 0;  // the L2 side's input, all output ports together (0 = no such limit)
  uint32_t input_depth = 2;  // flits buffered at each SM input
  // Links shared by SMs on their way into the crossbar, at two levels (each off when its map
  // is empty): the SMs of GPC g share a link of gpc.bytes[g] bytes per cycle, and inside it
  // the SMs of group k (a part of a GPC with a link of its own) one of group.bytes[k]. A
  // request takes, on each, the level's header_bytes per round plus 4 per value it carries.
  struct SharedLinks {
    std::vector<uint32_t> of_sm;  // per SM: its link
    std::vector<uint32_t> bytes;  // per link: bytes per cycle
    uint32_t header_bytes = 0;
  };
  SharedLinks gpc, group;
};

class Icnt : public sc_core::sc_module {
 public:
  Icnt(sc_core::sc_module_name name, const IcntSetup& setup);

  std::vector<Link<Request>> from_sm;  // side by side: the crossbar visits them every cycle (never resized)
  std::vector<Link<Request>*> to_rop;  // set through attach_rop()
  // ROP unit `rop`'s input link: the crossbar sends into it and hears (Link room hint) when a
  // pop frees room it waited for.
  void attach_rop(uint32_t rop, Link<Request>& in) {
    to_rop[rop] = &in;
    in.set_room_hint(&Icnt::rop_room, &rop_hints_[rop]);
  }
  // The ROP units' per-word state (indexed by word address), or null: a request's word is
  // prefetched as it enters the crossbar, so its unit finds it in cache (a hint: no effect
  // on timing or results).
  const WordState* word_state = nullptr;
  Wake wake;
  bool drained() const {
    for (const auto& in : from_sm)
      if (!in.empty()) return false;
    return true;
  }
  // The LSU of `sm` calls this after pushing into from_sm[sm]: only SMs with flits are visited.
  void pushed(uint32_t sm) {
    if (state_[sm] == kIdle) activate(sm);
  }

 private:
  void activate(uint32_t sm) {  // into the visiting order
    state_[sm] = kActive;
    active_.insert(sm);
  }
  void step();

  IcntSetup setup_;
  // Each SM with flits is in the visiting order, waiting on the one ROP unit whose full input
  // blocks its head, or parked until a known cycle (its link busy with an earlier request,
  // or its head not yet visible).
  enum : char { kIdle, kActive, kBlocked, kParked, kLinkWait };
  std::vector<char> state_;                      // per SM
  BitSet active_;                                // SMs in the visiting order (ascending from the cycle's first)
  std::vector<std::vector<uint32_t>> blocked_;   // per ROP unit: the SMs waiting on its input
  BitSet blocked_rops_;                          // ROP units with SMs waiting on them
  std::vector<uint32_t> recheck_;                // this step: units that kept waiters back
  // Units whose input may have room for their waiters: a pop freed a slot since they were
  // last found full, or their room comes next cycle (await_room woke us for it). A blocked
  // unit not in it is still full and already waits for its pop (the hint puts it back), so a
  // step looks only at these (most blocked units have no room in most cycles).
  BitSet look_;
  struct RopHint {
    Icnt* icnt;
    uint32_t rop;
  };
  std::vector<RopHint> rop_hints_;  // per ROP unit (never resized: the links hold pointers)
  static void rop_room(void* ctx) {
    const RopHint& h = *static_cast<const RopHint*>(ctx);
    h.icnt->look_.insert(h.rop);
  }
  // out.await_room() for unit rop: its pop wakes us, or, with a slot freed this cycle, the
  // next cycle does (then the unit stays in look_: no pop will tell).
  void await_rop(uint32_t rop, Cycle now) {
    Link<Request>& out = *to_rop[rop];
    out.await_room(now);
    if (out.size() < out.capacity()) look_.insert(rop);
  }
  uint64_t turn_used_ = 0;  // bit t: turn_[t] got an SM this step (turn_.size() <= 64)
  ParkWheel parked_;                             // SMs by the cycle they can send again
  // Byte slots (slot = cycle x bytes per cycle + k): the next free one of each SM's link and
  // of each ROP port's ejection.
  std::vector<uint64_t> sm_slot_;
  std::vector<uint64_t> eject_slot_;
  uint64_t l2_slot_ = 0;  // the L2 side's input (IcntSetup::l2_bytes_per_cycle), all ports together
  // The shared links of both levels (IcntSetup::SharedLinks), groups first, then GPCs.
  struct Shared {
    uint64_t slot = 0;              // its next free byte slot
    uint64_t rate = 1;              // bytes per cycle
    uint64_t header = 0;            // bytes per round
    std::deque<uint32_t> waiting;   // SMs whose head found it full (or others waiting), oldest first
  };
  static constexpr uint32_t kNoLink = config::kNoSharedLink;  // none (as '-' in a config map)
  std::vector<Shared> shared_;
  std::vector<std::array<uint32_t, 2>> links_of_sm_;  // per SM: its group's and its GPC's (kNoLink: none)
  std::vector<uint32_t> top_of_sm_;                    // per SM: its top-level link (its GPC's when both are on)
  std::vector<std::vector<uint32_t>> turn_;            // this step, per top-level link: its SMs in the order whose head is visible
  std::vector<uint32_t> later_;                        // this step: the others in the visiting order
  size_t waiters_ = 0;                                 // SMs waiting for a shared link, all links
  static constexpr Cycle kContendedSpell = 64;         // cycles the rotating order stays after a refusal
  Cycle contended_until_ = 0;                          // the last of them
  // The bytes request r takes on a shared link of `header` bytes per round.
  static uint64_t shared_bytes(const Request& r, uint64_t header) {
    return uint64_t{r.rounds} * header + 4 * uint64_t{r.count};
  }
};

}  // namespace arc::sim
