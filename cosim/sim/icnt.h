// Icnt: the SM-to-L2 crossbar. A request is Request::bytes long (one flit unless coalesced).
//  - Inputs: one Link per SM (filled by that SM's LSU). Each SM's link carries
//    icnt_flits_per_cycle x flit_bytes bytes per cycle: requests leave in order, each taking
//    its bytes of that budget (a head whose ROP unit has no free input entry blocks its SM:
//    credit-based flow control), SMs served round-robin.
//  - A request arrives at its ROP unit icnt_latency cycles (at least 1) after its last flit
//    left, and each output port delivers at most icnt_eject_per_cycle flits per cycle
//    (contention at a hot L2 slice queues there, in the order the requests entered), bytes
//    again: a flit is flit_bytes.
//  - GPC level (optional): the SMs of one GPC also share that GPC's link into the crossbar,
//    gpc_bytes[g] bytes per cycle; a request takes gpc_header_bytes + 4 per value it carries
//    on it (a run of n one-lane requests: n requests), and leaves when both links have room.
//  - Credits: a ROP unit's input Link counts flits in flight to it, so the crossbar never
//    sends more than the ROP can buffer; a ROP that stops draining stalls the SMs that
//    target it, which fills their LSU queues: that is the back-pressure the ARC scheduler sees.
#pragma once
#include <systemc>

#include <algorithm>
#include <deque>
#include <functional>
#include <memory>
#include <vector>

#include "bitset.h"
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
  uint32_t input_depth = 2;  // flits buffered at each SM input
  // GPC level (empty gpc_of_sm: none): the SMs of GPC g share a link into the crossbar of
  // gpc_bytes[g] bytes per cycle; a request takes gpc_header_bytes + 4 per value on it.
  std::vector<uint32_t> gpc_of_sm;
  std::vector<uint32_t> gpc_bytes;
  uint32_t gpc_header_bytes = 0;
};

class Icnt : public sc_core::sc_module {
 public:
  Icnt(sc_core::sc_module_name name, const IcntSetup& setup);

  std::vector<Link<Request>> from_sm;  // side by side: the crossbar visits them every cycle (never resized)
  std::vector<Link<Request>*> to_rop;
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
  enum : char { kIdle, kActive, kBlocked, kParked, kGpcWait };
  std::vector<char> state_;                      // per SM
  BitSet active_;                                // SMs in the visiting order (ascending from the cycle's first)
  std::vector<std::vector<uint32_t>> blocked_;   // per ROP unit: the SMs waiting on its input
  BitSet blocked_rops_;                          // ROP units with SMs waiting on them
  std::vector<uint32_t> recheck_;                // this step: units that kept waiters back
  ParkWheel parked_;                             // SMs by the cycle they can send again
  // Byte slots (slot = cycle x bytes per cycle + k): the next free one of each SM's link and
  // of each ROP port's ejection.
  std::vector<uint64_t> sm_slot_;
  std::vector<uint64_t> eject_slot_;
  std::vector<uint64_t> gpc_slot_;  // per GPC: its link's next free byte slot (GPC level only)
  std::vector<std::deque<uint32_t>> gpc_wait_;  // per GPC: SMs whose head found its link full, oldest first
  // The bytes request r takes on its GPC's link.
  uint64_t gpc_bytes_of(const Request& r) const {
    const uint64_t h = setup_.gpc_header_bytes;
    return r.run() ? uint64_t{r.count} * (h + 4) : h + 4 * uint64_t{r.count};
  }
};

}  // namespace arc::sim
