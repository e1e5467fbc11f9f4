// Device side of trace capture: the recorder arc::reduce() calls once per warp-level atomic
// instruction. It appends a DevInstr to a preallocated device buffer; the host turns the
// buffer into a trace file (sw/host/trace_out.h). Records past `cap` are counted, not written.
#pragma once
#include <cstdint>
#include "arc/reduce.cuh"
#include "arc/trace_rec.h"

namespace arc {

struct TraceBuffers {
  DevInstr* recs = nullptr;
  unsigned long long* count = nullptr;  // records asked for (may exceed cap)
  DevWarpState* warps = nullptr;
  uint64_t cap = 0;
};

class DevTrace {
 public:
  // gwarp: this warp's global number; start: clock64() at the warp's start.
  __device__ DevTrace(const TraceBuffers& b, uint32_t gwarp) : b_(b), gwarp_(gwarp) {
    start_ = clock64();
  }

  // Called by every lane of `calling` (converged). act: lanes with an update; addr/value:
  // this lane's update; reduced: leaders whose group was summed on the GPU; sum: at those
  // leaders, the sum.
  __device__ void instr(unsigned calling, unsigned act, uint32_t addr, float value,
                        unsigned reduced, float sum) {
    const unsigned lane = lane_id();
    const int first = __ffs(act) - 1;
    unsigned long long slot = 0;
    if (static_cast<int>(lane) == first) {
      const unsigned long long now = clock64();
      DevWarpState& w = b_.warps[gwarp_];
      // Atomics: in divergent code two branches of one warp may record interleaved.
      const unsigned long long seq = atomicAdd(&w.seq, 1ull);
      const unsigned long long prev = atomicExch(&w.last_clock, now);
      const unsigned long long last = seq == 0 ? start_ : prev;
      slot = atomicAdd(b_.count, 1ull);
      if (slot < b_.cap) {
        DevInstr& r = b_.recs[slot];
        unsigned smid, wid;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
        asm volatile("mov.u32 %0, %%warpid;" : "=r"(wid));
        r.sm = smid;
        r.subcore = wid % 4;
        r.warp = gwarp_;
        r.flags = seq == 0 ? 1u : 0u;
        r.seq = seq;
        r.gap = now - last;
        r.active = act;
        r.reduced = reduced;
      }
    }
    slot = __shfl_sync(calling, slot, first);
    if (slot < b_.cap) {
      DevInstr& r = b_.recs[slot];
      if ((act >> lane) & 1u) {
        r.addr[lane] = addr;
        r.value[lane] = __float_as_uint(value);
      }
      if ((reduced >> lane) & 1u) r.psum[lane] = __float_as_uint(sum);
    }
  }

 private:
  TraceBuffers b_;
  uint32_t gwarp_;
  unsigned long long start_;
};

}  // namespace arc
