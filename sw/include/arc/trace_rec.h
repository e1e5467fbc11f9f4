// The raw record one warp-level atomic instruction leaves in the capture buffer on the GPU.
// Plain data shared by the device recorder (trace_rec.cuh) and the host writer
// (sw/host/trace_out.cpp), which turns these into the project's trace format (cosim/trace).
#pragma once
#include <cstdint>

namespace arc {

struct DevInstr {
  uint32_t sm;        // %smid
  uint32_t subcore;   // %warpid % 4 (the warp's scheduler slot)
  uint32_t warp;      // global warp number (block-linear), unique for the launch
  uint32_t flags;     // bit 0: first atomic of the warp
  uint64_t seq;       // per-warp sequence number
  uint64_t gap;       // clock64() cycles since the warp's previous atomic (or its start)
  uint32_t active;    // lanes that issued an update
  uint32_t reduced;   // leaders of groups summed on the GPU
  uint32_t addr[32];  // word index into the gradient buffer
  uint32_t value[32]; // binary32 bits
  uint32_t psum[32];  // binary32 bits of a reduced group's sum, at its leader
};

// Per-warp state of the recorder, one per global warp, zeroed before the launch.
struct DevWarpState {
  unsigned long long seq;
  unsigned long long last_clock;
};

}  // namespace arc
