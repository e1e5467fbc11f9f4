// What flows between the modules of the timing model.
#pragma once
#include <cstdint>
#include <vector>

#include "trace.h"

namespace arc::sim {

// One atomic add request to L2 (one lane's atomic, or one reduced group's sum).
struct Request {
  uint32_t addr = 0;   // word index into the gradient buffer
  uint32_t value = 0;  // binary32 bits
  uint32_t rop = 0;    // destination ROP unit (address hash, set by the LSU)
  uint32_t sm = 0;
  uint32_t lanes = 1;  // lane updates it carries (a reduced group's size): the end-of-run count
};

// What one issue hands the LSU in one cycle: the requests of one warp-level atomic
// instruction (baseline, ARC-SW) or one transaction of the ARC unit. Enters the LSU queue whole.
using Packet = std::vector<Request>;

// A warp-level atomic on its way from the sub-core to the ARC unit.
using InstrRef = const trace::Instr*;

}  // namespace arc::sim
