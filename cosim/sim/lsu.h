// Lsu: the per-SM MIO/LSU queue between the sub-cores (or their ARC units) and the crossbar.
//  - `ports[s]`: one packet slot per sub-core. Each cycle the LSU serves the ports round-robin
//    from the one after the last served (fair: with all ports ready each gets one turn per cycle), moving as many of a packet's requests as the queue has
//    room for; a packet leaves its port (freeing the sub-core) when all its requests are in.
//  - Queue: lsu_queue_depth entries (requests). Each cycle it forwards up to
//    lsu_issue_per_cycle requests, in order, into the crossbar input of this SM (the address
//    hash picks each request's ROP unit here).
//  - Skip-ahead: when a step leaves the queue full and the crossbar input full, nothing can
//    move until the crossbar takes a request (its pop wakes the LSU). The LSU then sleeps:
//    packets arriving at the ports do not wake it, and the next step counts the cycles in
//    between for lsu_full_rejects, so that count is per port and per cycle (what an LSU
//    stepping every cycle would count), however often the LSU actually ran.
//  - `busy`: raised (visible next cycle) while fewer than lsu_busy_slack entries are free,
//    i.e. while the queue could not take a full warp of per-lane atomics: the atomic stall
//    the ARC scheduler observes (paper section 4.3).
#pragma once
#include <systemc>

#include <array>
#include <memory>
#include <vector>

#include "link.h"
#include "ring.h"
#include "request.h"
#include "rop_hash.h"
#include "stats.h"

namespace arc::sim {

class Icnt;

struct LsuSetup {
  uint32_t sm = 0;
  uint32_t ports = 4;
  uint32_t depth = 32;
  uint32_t issue_per_cycle = 1;
  uint32_t busy_slack = 32;
  uint32_t cycles_per_instruction = 0;  // min cycles between two admitted packets, SM-wide (0 = none)
  bool every_cycle = false;  // test only (RunSpec::lsu_every_cycle): step every cycle while holding anything, never sleep
};

class Lsu : public sc_core::sc_module {
 public:
  static constexpr uint32_t kMaxPorts = 32;
  Lsu(sc_core::sc_module_name name, const LsuSetup& setup, const RopHash& hash, Stats& stats);

  void finish(Cycle end);  // closes the occupancy integral at the end of the run
  bool drained() const;    // queue and ports empty (end-of-run check)
  std::vector<uint64_t> grants() const {  // whole packets admitted, per port
    return {grants_.begin(), grants_.begin() + setup_.ports};
  }

 private:
  void step();
  void account(Cycle now);

  // What every step reads, side by side (a step finds this LSU out of cache: 132 take turns).
  Ring<Request> queue_;
  uint32_t rr_ = 0;
  uint32_t holding_ = 0;  // bit p: ports[p] holds a packet (Link::watch)
  Cycle occ_since_ = 0;   // occupancy integral is closed up to here
  uint64_t occ_sum_ = 0;  // occupancy integral (entry-cycles)
  uint64_t* occ_hist_ = nullptr;
  size_t occ_hist_top_ = 0;  // 1 + the most entries held for a cycle or more (0 = none)
  uint64_t occ_max_ = 0, rejects_ = 0, requests_ = 0;
  Cycle asleep_at_ = 0;
  Cycle next_admit_ = 0;  // lsu_cycles_per_instruction: the first cycle a new packet may start
  bool asleep_ = false;   // queue and crossbar input full after the step at asleep_at_ (ports' flag)
  bool accounted_ = false;  // account() ran: finish() adds this SM's counters
  LsuSetup setup_;

 public:
  std::vector<Link<Packet>> ports;  // one per sub-core, side by side (never resized: the sub-cores hold pointers)
  Link<Request>* to_icnt = nullptr;
  Icnt* icnt = nullptr;  // told which SM input holds flits
  Registered<bool> busy{false};
  Wake wake;

 private:
  const RopHash& hash_;
  Stats& stats_;
  // Per port, in the object (a vector's storage would be one more line to miss): requests of
  // its front packet already queued.
  std::array<uint32_t, kMaxPorts> taken_{};
  // This SM's counters are kept here (the LSU runs every few cycles: no walk into the shared
  // Stats per step) and added to Stats by finish(). The integral is whole entry-cycles, so
  // summing it per SM first gives the same double as adding every step to Stats.
  // Cycles at each occupancy 0..depth: in the object up to kInlineHist entries (the usual
  // depths), in occ_heap_ beyond.
  static constexpr size_t kInlineHist = 64;
  std::array<uint64_t, kInlineHist> occ_inline_{};
  std::vector<uint64_t> occ_heap_;
  std::array<uint64_t, kMaxPorts> grants_{};
};

}  // namespace arc::sim
