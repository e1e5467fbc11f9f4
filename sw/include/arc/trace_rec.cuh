// Device side of trace capture: the recorder arc::reduce() calls once per reduce call (one
// record for all NP parameters the call writes). A capture runs the kernel twice:
//  1. counting pass (TraceBuffers::recs == nullptr): each warp counts its calls in its own
//     DevWarpState; the host turns the counts into per-warp slot ranges (a prefix sum);
//  2. recording pass: each call goes to the next slot of its warp's range.
// No global counter: the only atomics are on the warp's own state (divergent branches of one
// warp may record concurrently), so the recorder adds no cross-warp hotspot. Calls beyond a
// warp's range (the second pass made more calls than the first) are counted in `overflow`.
#pragma once
#include <cstdint>

#include "arc/trace_rec.h"

namespace arc {

struct TraceBuffers {
  DevCall* recs = nullptr;                      // nullptr: counting pass
  const unsigned long long* first = nullptr;    // per warp w: its slots are [first[w], first[w+1])
  DevWarpState* warps = nullptr;
  unsigned long long* overflow = nullptr;       // calls that found their warp's range full
};

class DevTrace {
 public:
  // gwarp: this warp's global number; start: clock64() at the warp's start.
  __device__ DevTrace(const TraceBuffers& b, uint32_t gwarp) : b_(b), gwarp_(gwarp) { start_ = clock64(); }

  // Called by every lane of `calling` (converged). act: lanes with an update; addr: this lane's
  // word of parameter 0, parameter p at addr + p * stride; v: its NP values (read on active
  // lanes only); reduced: leaders whose group was summed on the GPU; sum: at those, the sums.
  template <int NP>
  __device__ void call(unsigned calling, unsigned act, bool active, uint32_t addr, uint32_t stride,
                       const float (&v)[NP], unsigned reduced, const float (&sum)[NP]) {
    static_assert(NP >= 1 && NP <= kMaxRecParams, "a call records 1..kMaxRecParams parameters");
    unsigned lane;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    const int first = __ffs(act) - 1;
    DevWarpState& w = b_.warps[gwarp_];
    if (b_.recs == nullptr) {
      if (static_cast<int>(lane) == first) atomicAdd(&w.calls, 1ull);
      return;
    }
    unsigned long long slot = ~0ull;
    if (static_cast<int>(lane) == first) {
      const unsigned long long now = clock64();
      const unsigned long long seq = atomicAdd(&w.calls, 1ull);
      const unsigned long long prev = atomicExch(&w.last_clock, now);
      const unsigned long long at = b_.first[gwarp_] + seq;
      if (at < b_.first[gwarp_ + 1]) {
        slot = at;
        DevCall& r = b_.recs[slot];
        unsigned smid, wid;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
        asm volatile("mov.u32 %0, %%warpid;" : "=r"(wid));
        r.sm = smid;
        r.hw_warp = wid;
        r.warp = gwarp_;
        r.flags = seq == 0 ? 1u : 0u;
        r.seq = seq;
        r.gap = now - (seq == 0 ? start_ : prev);
        r.active = act;
        r.reduced = reduced;
        r.nparams = NP;
        r.stride = stride;
      } else {
        atomicAdd(b_.overflow, 1ull);
      }
    }
    slot = __shfl_sync(calling, slot, first);
    if (slot == ~0ull) return;
    DevCall& r = b_.recs[slot];
    if ((act >> lane) & 1u) {
      r.addr[lane] = addr;
#pragma unroll
      for (int i = 0; i < NP; ++i) r.value[i][lane] = active ? __float_as_uint(v[i]) : 0u;
    }
    if ((reduced >> lane) & 1u) {
#pragma unroll
      for (int i = 0; i < NP; ++i) r.psum[i][lane] = __float_as_uint(sum[i]);
    }
  }

 private:
  TraceBuffers b_;
  uint32_t gwarp_;
  unsigned long long start_;
};

}  // namespace arc
