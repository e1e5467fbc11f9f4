// Coalescing: how a warp-level atomic's word updates become requests to L2.
//  - coalesce_bytes = 0: every op is one request of one flit (one lane, or one reduced sum).
//  - coalesce_bytes = B (a power of two): the ops that fall in one B-byte granule form one
//    request. Lanes on one word are not merged (the H100 sends a warp's 32 same-address lanes
//    as 32 requests: docs/calibration.md), so the request takes `rounds` = the most ops on one
//    of its words. A round of w words on s 32-byte sectors carrying l lanes moves
//    request_header_bytes + request_word_bytes x w + request_sector_bytes x s bytes, plus
//    request_multi_lane_bytes if l > 1 (a vector lane's words are one lane). Links move
//    flit_bytes per flit. The H100's numbers (0 + 0 w + 32 s + 16 if l > 1, 32-byte flits):
//    a one-lane round (scalar or vector) is one flit, a 32-word line round 4.5 flits, an
//    8-lane round spread over a line's 4 sectors 4.5 too (docs/calibration.md).
// Request::link_bytes is what the SM's crossbar link spends on the request, Request::bytes what
// the crossbar's output port and the ROP unit's input spend (each moves flit_bytes x its flits
// per cycle). The two differ when the L2 side has its own header / sector cost
// (l2_header_bytes, l2_sector_bytes) and a cost per warp instruction (instruction_bytes, on the
// packet's first request): model knobs l2_request_*_bytes and l2_instruction_bytes.
#pragma once
#include <cassert>
#include <cstdint>
#include <vector>

#include "request.h"

namespace arc::sim {

struct CoalesceSetup {
  uint32_t granule_words = 0;  // coalesce_bytes / 4; 0 = off
  uint32_t flit_bytes = 32;
  uint32_t header_bytes = 28;  // request_header_bytes
  uint32_t word_bytes = 4;     // request_word_bytes
  uint32_t sector_bytes = 0;   // request_sector_bytes
  uint32_t multi_lane_bytes = 0;  // request_multi_lane_bytes
  static constexpr uint32_t kAsLink = 0xFFFFFFFFu;
  uint32_t l2_header_bytes = kAsLink;  // the L2 side's header / sector bytes (kAsLink: as the link's)
  uint32_t l2_sector_bytes = kAsLink;
  uint32_t instruction_bytes = 0;      // L2 side: once per warp instruction (packet)
  // A warp-uniform request (every op on one word) becomes a run (request.h) instead of an op
  // array: only where no value or per-op record is needed (timing-only trace, no commit log)
  // and only the ROP units consume the requests (not the SM-side atomic buffers).
  bool runs = false;

  uint32_t l2_header() const { return l2_header_bytes == kAsLink ? header_bytes : l2_header_bytes; }
  uint32_t l2_sector() const { return l2_sector_bytes == kAsLink ? sector_bytes : l2_sector_bytes; }
};

// Bytes of one round that updates `words` distinct words on `sectors` 32-byte sectors for
// `lanes` lanes, on the SM's link.
inline uint32_t round_bytes(uint32_t words, uint32_t sectors, uint32_t lanes, const CoalesceSetup& s) {
  return s.header_bytes + s.word_bytes * words + s.sector_bytes * sectors + (lanes > 1 ? s.multi_lane_bytes : 0);
}
// The same round at the crossbar output and the ROP input.
inline uint32_t l2_round_bytes(uint32_t words, uint32_t sectors, uint32_t lanes, const CoalesceSetup& s) {
  return s.l2_header() + s.word_bytes * words + s.l2_sector() * sectors + (lanes > 1 ? s.multi_lane_bytes : 0);
}

// Appends the requests of ops[0, n) (one warp-level atomic in commit order: per word, ascending
// lanes; n <= OpBlock::kCap = 32 lanes x 4 floats of a vector atomic) to `out`. A vector
// atomic's ops are its params' ops one param after the other: a lane's words share a round.
// `vec` = words per lane (vector atomics: 2 or 4; a round's lanes = ceil(words / vec)).
void append_requests(Packet& out, const LaneOp* ops, size_t n, uint32_t sm, const CoalesceSetup& setup,
                     uint32_t vec = 1);
// append_requests() (vec 1) of an instruction's one-lane ops given as its words in lane order
// of first appearance, counts[k] ops on words[k] (n ops in all, at least two words), where
// setup.runs holds and coalescing is on: the same requests, without the ops. False (nothing
// appended) where two of the words share a granule (then append_requests() on the ops).
bool append_word_groups(Packet& out, const uint32_t* words, const uint32_t* counts, uint32_t nw, uint32_t n,
                        uint32_t sm, const CoalesceSetup& setup);
// append_requests() (vec 1) of a warp-uniform instruction of a full trace: n one-lane ops on
// word `addr` whose values are `values` (n x 4 bytes, little-endian binary32, in lane order:
// the packed record's), without building the ops twice.
void append_uniform(Packet& out, uint32_t addr, const uint8_t* values, uint32_t n, uint32_t sm,
                    const CoalesceSetup& setup);
// A run (request.h): `count` one-word rounds on word `addr` carrying `lanes` lane updates,
// priced per round as the ops it stands for.
inline Request run_request(uint32_t addr, uint32_t count, uint32_t lanes, uint32_t sm, const CoalesceSetup& setup) {
  assert(count <= OpBlock::kCap);  // one instruction's ops (Request::count is 8-bit)
  Request r(LaneOp{addr, 0, lanes}, sm);
  r.count = static_cast<uint8_t>(count);
  r.rounds = static_cast<uint8_t>(count);
  r.bytes = count * l2_round_bytes(1, 1, 1, setup);
  r.link_bytes = count * round_bytes(1, 1, 1, setup);
  return r;
}
// The same for a warp-uniform instruction of `lanes` one-lane ops on word `addr` where
// setup.runs holds and coalescing is on: its one request, a run (request.h) when lanes > 1.
// Equal to append_requests() on those ops, without building them. Inline: the sub-core's
// issue of a warp-uniform instruction (most of a timing-only trace's) is this one request.
inline void append_run(Packet& out, uint32_t addr, uint32_t lanes, uint32_t sm, const CoalesceSetup& setup) {
  assert(setup.runs && setup.granule_words != 0 && lanes >= 1);
  out.push_back(run_request(addr, lanes, lanes, sm, setup));
  out.back().bytes += setup.instruction_bytes;  // on the L2 side, once (as append_requests)
}

}  // namespace arc::sim
