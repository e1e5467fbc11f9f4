// Trace capture for any CUDA kernel (public API; installed with ARCsim as CMake target
// arcsim::recorder; example: sw/examples/histogram.cu):
//   host    arc::TraceRecorder rec(warps);             device buffers of one capture
//           kernel<<<...>>>(..., rec.counting());      pass 1 (zero your output buffers after it)
//           kernel<<<...>>>(..., rec.recording());     pass 2, same launch
//           arc::TraceRecorder::Result r = rec.collect();
//           arc::sw::write_capture(path, info, {r.heads, r.values, r.first, r.calls}, final_buffer);  (trace_out.h)
//   device  arc::DevTrace t(buffers, global_warp);     once per warp, every lane
//           arc::reduce<Method, NP, opts>(active, prim, grad, stride, v, thr, t);  (arc/reduce.cuh)
// Only these names are the public surface; the record layout behind them may change.
//
// Device side of trace capture: the recorder arc::reduce() calls once per reduce call (one
// record for all NP parameters the call writes). A capture runs the kernel twice:
//  1. counting pass (TraceBuffers::heads == nullptr): each warp counts its calls in its own
//     DevWarpState; the host turns the counts into per-warp slot ranges (a prefix sum);
//  2. recording pass: each call goes to the next slot of its warp's range.
// No global counter: the only atomics are on the warp's own state (divergent branches of one
// warp may record concurrently), so the recorder adds no cross-warp hotspot. Calls beyond a
// warp's range (the second pass made more calls than the first) are counted in `overflow`.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "arc/trace_rec.h"

namespace arc {

struct TraceBuffers {
  DevCallHead* heads = nullptr;                 // per slot: the call's timing part (nullptr: counting pass)
  DevCallValues* values = nullptr;              // per slot: its values and sums (nullptr: a timing-only capture)
  const unsigned long long* first = nullptr;    // per warp w: its slots are [first[w], first[w+1])
  DevWarpState* warps = nullptr;
  unsigned long long* overflow = nullptr;       // calls that found their warp's range full
};

class DevTrace {
 public:
  // gwarp: this warp's global number; start: clock64() at the warp's start.
  __device__ DevTrace(const TraceBuffers& b, uint32_t gwarp) : b_(b), gwarp_(gwarp) { start_ = clock64(); }

  // The compute gap (issue 17) runs from the end of the warp's previous reduce call to the
  // start of this one: arc::reduce calls begin() on entry (every calling lane; vec = floats per
  // vector RED, 1 = scalar) and end() on every way out, after its atomics were issued and
  // this recorder's stores were made, so neither the reduction, the atomics' issue stalls nor
  // the recorder's own work count as compute. The leader of the recorded call stores the end.
  __device__ __forceinline__ void begin(int vec) {
    begin_ = clock64();
    vec_ = vec;
  }
  __device__ __forceinline__ void end() {
    extra_ = 0;
    if (!lead_) return;
    lead_ = false;
    atomicExch(&b_.warps[gwarp_].last_clock, static_cast<unsigned long long>(clock64()));
  }

  // Extra DevCall flag bits for the next recorded call of this reduce call (a pair call's
  // kDevPairSum / kDevPairCall, arc/pair_reduce.cuh); every calling lane sets the same bits.
  __device__ __forceinline__ void flag(unsigned bits) { extra_ = bits; }

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
    if (b_.heads == nullptr) {
      if (static_cast<int>(lane) == first) atomicAdd(&w.calls, 1ull);
      return;
    }
    unsigned long long slot = ~0ull;
    if (static_cast<int>(lane) == first) {
      const unsigned long long seq = atomicAdd(&w.calls, 1ull);
      const unsigned long long prev = atomicAdd(&w.last_clock, 0ull);  // the previous call's end()
      lead_ = true;
      const unsigned long long at = b_.first[gwarp_] + seq;
      if (at < b_.first[gwarp_ + 1]) {
        slot = at;
        DevCallHead& r = b_.heads[slot];
        unsigned smid, wid;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
        asm volatile("mov.u32 %0, %%warpid;" : "=r"(wid));
        r.sm = smid;
        r.hw_warp = wid;
        r.warp = gwarp_;
        r.flags = (seq == 0 ? 1u : 0u) | (calling != 0xffffffffu ? 2u : 0u) | (vec_ == 2 ? 4u : vec_ == 4 ? 8u : 0u) | extra_;
        r.seq = seq;
        const unsigned long long from = seq == 0 || prev == 0 ? start_ : prev;
        r.gap = begin_ > from ? begin_ - from : 0;
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
    if ((act >> lane) & 1u) b_.heads[slot].addr[lane] = addr;
    if (b_.values == nullptr) return;
    DevCallValues& r = b_.values[slot];
    if ((act >> lane) & 1u) {
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
  unsigned long long begin_ = 0;  // clock64() at the current call's entry
  int vec_ = 1;
  bool lead_ = false;  // this lane recorded the current call: its end() stores the end time
  unsigned extra_ = 0;  // flag(): DevCall flag bits of the next record, cleared by end()
};

// Host side of one capture: the per-warp state, the slot ranges and the record buffer, freed on
// destruction. warps: the number of global warp numbers the kernel passes to DevTrace
// (0 .. warps-1). The kernel runs twice with the same launch: with counting(), then with
// recording(); collect() waits for the second pass. CUDA errors throw std::runtime_error.
class TraceRecorder {
 public:
  struct Result {
    std::vector<DevCallHead> heads;      // per slot: a call's timing part
    std::vector<DevCallValues> values;   // per slot: its values and sums (empty: a timing-only capture)
    std::vector<uint64_t> first, calls;  // warp w's records: slots first[w] .. first[w] + calls[w]
    uint64_t overflow = 0;               // calls of pass 2 that found their warp's range full
    uint64_t device_bytes = 0;           // the record buffers pass 2 allocated on the GPU
  };

  explicit TraceRecorder(size_t warps) : n_(warps) {
    check(cudaMalloc(&warps_, std::max<size_t>(1, warps) * sizeof(DevWarpState)), "cudaMalloc(warp state)");
    check(cudaMalloc(&first_, (warps + 1) * sizeof(unsigned long long)), "cudaMalloc(slot ranges)");
    check(cudaMalloc(&overflow_, sizeof(unsigned long long)), "cudaMalloc(overflow)");
    check(cudaMemset(warps_, 0, std::max<size_t>(1, warps) * sizeof(DevWarpState)), "cudaMemset");
    check(cudaMemset(overflow_, 0, sizeof(unsigned long long)), "cudaMemset");
  }
  ~TraceRecorder() {
    cudaFree(warps_);
    cudaFree(first_);
    cudaFree(overflow_);
    cudaFree(heads_);
    cudaFree(values_);
  }
  TraceRecorder(const TraceRecorder&) = delete;
  TraceRecorder& operator=(const TraceRecorder&) = delete;

  // Pass 1: each warp counts its calls.
  TraceBuffers counting() const {
    TraceBuffers b;
    b.warps = warps_;
    b.overflow = overflow_;
    return b;
  }
  // Pass 2 (after pass 1): per-warp slot ranges from the counts (1/8 + 8 spare slots each, in
  // case a warp's calls group differently the second time) and the record buffers. values =
  // false: lane values and sums are neither stored nor allocated (a timing-only capture: 176
  // bytes per slot instead of 3,248, and less memory traffic in the traced kernel).
  TraceBuffers recording(bool values = true) {
    check(cudaDeviceSynchronize(), "counting pass");
    std::vector<DevWarpState> st(n_);
    if (n_) check(cudaMemcpy(st.data(), warps_, n_ * sizeof(DevWarpState), cudaMemcpyDeviceToHost), "cudaMemcpy");
    first_host_.assign(n_ + 1, 0);
    for (size_t w = 0; w < n_; ++w) first_host_[w + 1] = first_host_[w] + st[w].calls + st[w].calls / 8 + 8;
    check(cudaMemcpy(first_, first_host_.data(), (n_ + 1) * sizeof(unsigned long long), cudaMemcpyHostToDevice),
          "cudaMemcpy");
    cudaFree(heads_);
    cudaFree(values_);
    heads_ = nullptr;
    values_ = nullptr;
    const size_t slots = std::max<unsigned long long>(1, first_host_.back());
    check(cudaMalloc(&heads_, slots * sizeof(DevCallHead)), "cudaMalloc(records)");
    if (values) check(cudaMalloc(&values_, slots * sizeof(DevCallValues)), "cudaMalloc(record values)");
    device_bytes_ = slots * (sizeof(DevCallHead) + (values ? sizeof(DevCallValues) : 0));
    check(cudaMemset(warps_, 0, std::max<size_t>(1, n_) * sizeof(DevWarpState)), "cudaMemset");
    TraceBuffers b = counting();
    b.heads = heads_;
    b.values = values_;
    b.first = first_;
    return b;
  }
  // After pass 2: what each warp recorded.
  Result collect() const {
    if (!heads_) throw std::runtime_error("arc::TraceRecorder: collect() before the recording pass");
    check(cudaDeviceSynchronize(), "recording pass");
    Result r;
    std::vector<DevWarpState> st(n_);
    if (n_) check(cudaMemcpy(st.data(), warps_, n_ * sizeof(DevWarpState), cudaMemcpyDeviceToHost), "cudaMemcpy");
    r.heads.resize(first_host_.back());
    if (!r.heads.empty())
      check(cudaMemcpy(r.heads.data(), heads_, r.heads.size() * sizeof(DevCallHead), cudaMemcpyDeviceToHost), "cudaMemcpy");
    if (values_) {
      r.values.resize(first_host_.back());
      if (!r.values.empty())
        check(cudaMemcpy(r.values.data(), values_, r.values.size() * sizeof(DevCallValues), cudaMemcpyDeviceToHost),
              "cudaMemcpy");
    }
    r.device_bytes = device_bytes_;
    check(cudaMemcpy(&r.overflow, overflow_, sizeof(uint64_t), cudaMemcpyDeviceToHost), "cudaMemcpy");
    r.first.assign(first_host_.begin(), first_host_.end());
    for (size_t w = 0; w < n_; ++w)
      r.calls.push_back(std::min<uint64_t>(st[w].calls, first_host_[w + 1] - first_host_[w]));
    return r;
  }

 private:
  static void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) throw std::runtime_error(std::string("arc::TraceRecorder: ") + what + ": " + cudaGetErrorString(e));
  }
  size_t n_;
  DevWarpState* warps_ = nullptr;
  unsigned long long* first_ = nullptr;
  unsigned long long* overflow_ = nullptr;
  DevCallHead* heads_ = nullptr;
  DevCallValues* values_ = nullptr;  // nullptr: a timing-only recording pass
  uint64_t device_bytes_ = 0;
  std::vector<unsigned long long> first_host_;
};

}  // namespace arc
