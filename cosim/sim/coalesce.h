// Coalescing: how a warp-level atomic's word updates become requests to L2.
//  - coalesce_bytes = 0: every op is one request of one flit (one lane, or one reduced sum).
//  - coalesce_bytes = B (a power of two): the ops that fall in one B-byte granule form one
//    request. Lanes on one word are not merged (the H100 sends a warp's 32 same-address lanes
//    as 32 requests: docs/calibration.md), so the request takes `rounds` = the most ops on one
//    of its words, and each round of w words moves request_header_bytes + 4 w bytes. Links
//    move flit_bytes per flit. With the H100's numbers (28 + 4 w over 32-byte flits) a
//    one-word round is one flit, as a per-lane request, and a 32-word line round 4.875 flits
//    (measured: one SM sends a 32-address line RED every 5.0 cycles).
// Request::bytes is what the SM's crossbar link, the crossbar's output port and the ROP
// unit's input each spend on the request (they move flit_bytes x their flits per cycle).
#pragma once
#include <cstdint>
#include <vector>

#include "request.h"

namespace arc::sim {

struct CoalesceSetup {
  uint32_t granule_words = 0;  // coalesce_bytes / 4; 0 = off
  uint32_t flit_bytes = 32;
  uint32_t header_bytes = 28;  // request_header_bytes
};

// Bytes of one round that updates `words` distinct words.
inline uint32_t round_bytes(uint32_t words, const CoalesceSetup& s) { return s.header_bytes + 4 * words; }

// Appends the requests of ops[0, n) (one warp-level atomic, lane order; n <= 32) to `out`.
void append_requests(Packet& out, const LaneOp* ops, size_t n, uint32_t sm, const CoalesceSetup& setup);

}  // namespace arc::sim
