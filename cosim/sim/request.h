// What flows between the modules of the timing model.
#pragma once
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "golden.h"
#include "trace.h"

namespace arc::sim {

// One word update a ROP unit performs: a lane's value, or a reduced group's sum.
struct LaneOp {
  uint32_t addr = 0;   // word index into the gradient buffer
  uint32_t value = 0;  // binary32 bits
  uint32_t lanes = 1;  // lane updates it carries (a reduced group's size): the end-of-run count
};

// The ops of one coalesced packet, shared by its requests: a block from a process-wide free
// list with a plain (single-threaded) reference count, so a coalesced packet costs no
// allocation once the model has warmed up. OpsRef is the owning handle.
struct OpBlock {
  static constexpr uint32_t kCap = 128;  // one warp instruction's ops: 32 lanes x up to 4 floats (vector atomics)
  uint32_t refs = 0;
  uint32_t size = 0;
  // A values run's (Request::values_run) values, 4 bytes a lane: a third of its ops' bytes
  // to write at issue and read at the ROP.
  uint32_t values[trace::kLanes];
  LaneOp ops[kCap];
};
static_assert(OpBlock::kCap <= 255, "Request::first and count are 8-bit");

class OpsRef {
 public:
  OpsRef() = default;
  static OpsRef make();  // an empty block, refs = 1
  OpsRef(const OpsRef& o) : b_(o.b_) {
    if (b_) ++b_->refs;
  }
  OpsRef(OpsRef&& o) noexcept : b_(std::exchange(o.b_, nullptr)) {}
  OpsRef& operator=(const OpsRef& o) {
    if (o.b_) ++o.b_->refs;  // first: self-assignment keeps the block
    if (b_) release();
    b_ = o.b_;
    return *this;
  }
  // A swap: the block this one held goes with `o` (released when `o` goes), and moving a
  // Request (the queues move every request several times) costs no temporary.
  OpsRef& operator=(OpsRef&& o) noexcept {
    std::swap(b_, o.b_);
    return *this;
  }
  ~OpsRef() {
    if (b_) release();  // most requests hold no block (one op inline, or a run)
  }
  explicit operator bool() const { return b_ != nullptr; }
  OpBlock& operator*() const { return *b_; }
  OpBlock* operator->() const { return b_; }

 private:
  explicit OpsRef(OpBlock* b) : b_(b) {}
  void release();
  OpBlock* b_ = nullptr;
};

// One request to L2: the word updates of one warp-level atomic that fall in one coalescing
// granule (GPU key coalesce_bytes; 0 = every lane its own request), in commit order (per word,
// ascending lanes). A request of one op keeps it inline; a coalesced one shares its packet's
// op array; a run (timing-only traces, CoalesceSetup::runs) is `count` ops on the one word
// `one.addr`, value 0, carrying `one.lanes` lane updates together, with no op array at all. `link_bytes` is what it costs on the SM's crossbar link, `bytes` at the crossbar
// output and the ROP unit's input (each moves flit_bytes per flit; coalesce.h).
// Small (40 bytes): every queue and link between the LSU and the ROP units holds Requests, and
// the model's speed follows how many cache lines a request touches on its way.
struct Request {
  LaneOp one;          // the op when count == 1 and !many; with `many`, its first op (addr() without the op array)
  uint32_t rop = 0;    // destination ROP unit (address hash of its first word, set by the LSU)
  OpsRef many;         // the packet's ops, [first, first + count)
  uint32_t bytes = 32;       // crossbar output and ROP input
  uint32_t link_bytes = 32;  // the SM's link to the crossbar
  uint16_t sm = 0;           // < 4096 (config check)
  uint8_t first = 0, count = 1;  // within one instruction's ops (<= OpBlock::kCap)
  bool one_word = true;  // every op on one word (the ROP then looks up one word, not count)
  // Several words, all of one lane's vector (a float2 / float4 RED: each round one lane): the ROP
  // paces it as one address (the H100's hot float4 goes at the one-word interval), not as a
  // request of several lanes on a line.
  bool vector_lane = false;
  uint8_t rounds = 1;    // rounds (a word's ops go one per round): a GPC link charges a header each
  // A values run: `count` one-lane ops on the one word one.addr (a warp-uniform instruction of
  // a full trace, append_uniform), their values in many->values (no op array: begin() and
  // end() are not for it); one.lanes = count.
  bool values_run = false;

  Request() = default;
  Request(LaneOp op, uint32_t sm_) : one(op), sm(static_cast<uint16_t>(sm_)) {}
  bool run() const { return !many && count > 1; }
  const LaneOp* begin() const { return many ? many->ops + first : &one; }  // not for a run or values run
  const LaneOp* end() const { return begin() + count; }
  // The word the hash routes on (its first op's): inline, so the LSU, the crossbar and the ROP's
  // look-ahead do not touch the shared op array (a cache miss per request on a full trace).
  uint32_t addr() const { return one.addr; }
};

// What one issue hands the LSU in one cycle: the requests of one warp-level atomic
// instruction (baseline, ARC-SW) or one transaction of the ARC unit. Enters the LSU queue whole.
using Packet = std::vector<Request>;
// Packets' storage is recycled (a process-wide free list): the LSU gives back each packet it
// has emptied and the sub-cores take their next one from there, so issuing allocates nothing.
// Inline, over one process-wide pool: the sub-core takes a packet and the LSU gives one back
// per warp instruction.
namespace detail {
struct PacketPool {
  std::vector<Packet> free;
  bool alive = true;  // false once destroyed (static teardown): a packet given back then just goes
  ~PacketPool() { alive = false; }
};
inline PacketPool g_packet_pool;
}  // namespace detail
inline Packet take_packet() {
  std::vector<Packet>& f = detail::g_packet_pool.free;
  if (f.empty()) return Packet();
  Packet p = std::move(f.back());
  f.pop_back();
  return p;
}
inline void give_back(Packet&& p) {
  p.clear();  // drops the requests' references to their op blocks
  if (!detail::g_packet_pool.alive) return;
  std::vector<Packet>& f = detail::g_packet_pool.free;
  if (f.size() < 4096) f.push_back(std::move(p));
}

// A warp-level atomic on its way from the sub-core to the ARC unit: its lanes (mask, addresses
// and values: what the unit reads), or for a warp-uniform instruction of a timing-only trace
// only its mask and word (every value +0), so that the sub-core never unpacks its lanes.
struct InstrRef {
  const golden::WarpInstr* lanes = nullptr;  // null: uniform, below
  uint32_t active_mask = 0, addr = 0;        // every active lane on word addr, value +0
};

}  // namespace arc::sim
