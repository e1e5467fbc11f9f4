// ARC-SW: warp-level reduction of per-primitive gradients before the atomic add
// (the ARC paper, sections 4.4 and 5.5; the call has the shape of its Figure 13).
//
//   arc::reduce<Method, NP>(active, prim, grad, stride, val, threshold [, rec, mask])
//
// Every lane of `mask` calls it (the calling set must be converged: the whole warp in
// convergent kernels, __activemask() inside divergent loops). Lane l adds val[0..NP) to
// grad[prim * stride + 0..NP) when `active`. Methods:
//   Baseline  one atomicAdd per active lane and parameter (the reference kernels' code).
//   SwS       __match_any_sync groups lanes by primitive; a group of >= threshold lanes is
//             summed serially by its lowest lane, ascending lane order, starting from the
//             lowest lane's own value, then one atomicAdd per parameter; smaller groups send
//             per-lane atomics (Figure 14/15).
//   SwB       butterfly __shfl_down_sync 16,8,4,2,1 with zeros for inactive lanes, taken only
//             when all active lanes share one primitive and >= threshold lanes are active;
//             otherwise per-lane atomics (Figure 16). Needs the full warp calling.
//   Cub       cub::WarpReduce<float>::Sum (CCCL) under the same eligibility as SwB.
//   Adaptive  no threshold: chooses per warp from the observed match pattern (see below):
//             per-lane atomics, butterfly, or serial sums of the groups worth reducing.
// kVec (sm_90 only): the final atomics go out as float4 (kVec = 4) or float2 (kVec = 2)
// vector atomicAdd; stride and the buffer must be aligned to kVec floats, and NP is padded
// with zero adds up to a multiple of kVec.
#pragma once
#include <cstdint>
#include <type_traits>
#include <cub/warp/warp_reduce.cuh>

namespace arc {

enum class Method : int { Baseline = 0, SwS = 1, SwB = 2, Cub = 3, Adaptive = 4 };

constexpr unsigned kFullMask = 0xffffffffu;

__device__ __forceinline__ unsigned lane_id() {
  unsigned l;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(l));
  return l;
}

// The tracing hook: reduce() tells it, once per parameter (= one warp-level atomic
// instruction), which lanes were active, each lane's address and value, and which group
// leaders reduced on the GPU with what result. NoTrace compiles to nothing.
struct NoTrace {
  NoTrace() = default;
  template <class... A>
  __device__ explicit NoTrace(const A&...) {}
  __device__ __forceinline__ void instr(unsigned, unsigned, uint32_t, float, unsigned, float) {}
};

namespace detail {

// Per-lane atomics for NP values at p (optionally as vector atomics).
template <int NP, int kVec>
__device__ __forceinline__ void emit(float* p, const float (&v)[NP]) {
  if constexpr (kVec == 1) {
#pragma unroll
    for (int i = 0; i < NP; ++i) atomicAdd(p + i, v[i]);
  } else {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    static_assert(kVec == 2 || kVec == 4, "kVec is 1, 2 or 4");
    constexpr int kChunks = (NP + kVec - 1) / kVec;
#pragma unroll
    for (int c = 0; c < kChunks; ++c) {
      auto at = [&](int i) { return c * kVec + i < NP ? v[c * kVec + i] : 0.0f; };
      if constexpr (kVec == 4) {
        atomicAdd(reinterpret_cast<float4*>(p) + c, make_float4(at(0), at(1), at(2), at(3)));
      } else {
        atomicAdd(reinterpret_cast<float2*>(p) + c, make_float2(at(0), at(1)));
      }
    }
#else
    // Vector atomics exist only on sm_90; older targets fall back to scalar atomics.
#pragma unroll
    for (int i = 0; i < NP; ++i) atomicAdd(p + i, v[i]);
#endif
  }
}

// Serial sum of `grp` (a match group) into acc at the group's lowest lane, ascending lane
// order, starting from the lowest lane's own value: ((v_l0 + v_l1) + v_l2) + ...
template <int NP>
__device__ __forceinline__ void serial_sum(unsigned grp, float (&acc)[NP]) {
  const int leader = __ffs(grp) - 1;
  unsigned rest = grp & (grp - 1);  // all but the leader
  while (rest) {
    const int src = __ffs(rest) - 1;
    rest &= rest - 1;
#pragma unroll
    for (int i = 0; i < NP; ++i) {
      const float x = __shfl_sync(grp, acc[i], src);
      if (static_cast<int>(lane_id()) == leader) acc[i] = __fadd_rn(acc[i], x);
    }
  }
}

template <int NP>
__device__ __forceinline__ void butterfly_sum(float (&acc)[NP]) {
#pragma unroll
  for (int off = 16; off >= 1; off >>= 1) {
#pragma unroll
    for (int i = 0; i < NP; ++i) acc[i] = __fadd_rn(acc[i], __shfl_down_sync(kFullMask, acc[i], off));
  }
}

template <int NP>
__device__ __forceinline__ void cub_sum(float (&acc)[NP]) {
  using WR = cub::WarpReduce<float>;
  // The shuffle-based WarpReduce keeps no data in its storage; one slot per warp of a block
  // of up to 1024 threads.
  __shared__ typename WR::TempStorage tmp[32];
  const unsigned w = (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) / 32;
#pragma unroll
  for (int i = 0; i < NP; ++i) acc[i] = WR(tmp[w]).Sum(acc[i]);
}

// Reports one warp instruction per parameter to the tracer.
template <int NP, class Rec>
__device__ __forceinline__ void trace_all(Rec& rec, unsigned calling, unsigned act, bool active,
                                          uint32_t base, const float (&v)[NP], unsigned reduced,
                                          const float (&sum)[NP]) {
#pragma unroll
  for (int i = 0; i < NP; ++i) rec.instr(calling, act, base + i, active ? v[i] : 0.0f, reduced, sum[i]);
}

// After a full-warp tree (inactive lanes added zeros) lane 0 holds the sum and sends it.
// When tracing, the sum moves to the lowest active lane, which the trace names as leader.
template <int NP, int kVec, class Rec>
__device__ __forceinline__ void tree_finish(Rec& rec, unsigned act, bool active, uint32_t base,
                                            const float (&v)[NP], float (&acc)[NP], float* p) {
  const int first = __ffs(act) - 1;
  if constexpr (std::is_same_v<Rec, NoTrace>) {
    if (lane_id() == 0) emit<NP, kVec>(p, acc);
  } else {
#pragma unroll
    for (int i = 0; i < NP; ++i) acc[i] = __shfl_sync(kFullMask, acc[i], 0);
    trace_all<NP>(rec, kFullMask, act, active, base, v, 1u << first, acc);
    if (static_cast<int>(lane_id()) == first) emit<NP, kVec>(p, acc);
  }
}

}  // namespace detail

template <Method M, int NP, int kVec = 1, class Rec = NoTrace>
__device__ __forceinline__ void reduce(bool active, int prim, float* grad, int stride,
                                       const float (&val)[NP], int threshold, Rec& rec,
                                       unsigned mask = kFullMask) {
  constexpr bool kTracing = !std::is_same_v<Rec, NoTrace>;
  float* const p = grad + static_cast<int64_t>(prim) * stride;
  if constexpr (M == Method::Baseline && !kTracing) {
    // Exactly the reference kernels' code: no warp collective at all.
    if (active) detail::emit<NP, kVec>(p, val);
    return;
  }
  const uint32_t base = static_cast<uint32_t>(prim) * static_cast<uint32_t>(stride);
  const unsigned lane = lane_id();
  const unsigned act = __ballot_sync(mask, active);
  if (act == 0) return;
  float acc[NP];
#pragma unroll
  for (int i = 0; i < NP; ++i) acc[i] = active ? val[i] : 0.0f;

  if constexpr (M == Method::Baseline) {
    detail::trace_all<NP>(rec, mask, act, active, base, val, 0u, acc);
    if (active) detail::emit<NP, kVec>(p, acc);

  } else if constexpr (M == Method::SwS) {
    if (!active) return;
    const unsigned grp = __match_any_sync(act, prim);
    const bool reduce_here = __popc(grp) >= threshold && __popc(grp) > 1;
    if (reduce_here) detail::serial_sum<NP>(grp, acc);
    const bool leader = static_cast<int>(lane) == __ffs(grp) - 1;
    const unsigned reduced = __ballot_sync(act, reduce_here && leader);
    detail::trace_all<NP>(rec, act, act, true, base, val, reduced, acc);
    if (!reduce_here || leader) detail::emit<NP, kVec>(p, acc);

  } else if constexpr (M == Method::SwB || M == Method::Cub) {
    const int first = __ffs(act) - 1;
    const int p0 = __shfl_sync(mask, prim, first);
    const bool same = __all_sync(mask, !active || prim == p0);
    if (mask == kFullMask && same && __popc(act) >= threshold && __popc(act) > 1) {
      if constexpr (M == Method::SwB) detail::butterfly_sum<NP>(acc);
      else detail::cub_sum<NP>(acc);
      detail::tree_finish<NP, kVec>(rec, act, active, base, val, acc, grad + static_cast<int64_t>(p0) * stride);
    } else {
      detail::trace_all<NP>(rec, mask, act, active, base, val, 0u, acc);
      if (active) detail::emit<NP, kVec>(p, acc);
    }

  } else {  // Adaptive
    // No threshold: each warp spends in-core work only where it removes more atomic work
    // than it adds, from its own match pattern: n active lanes in g address groups, the
    // largest of s_max lanes. Per-lane atomics cost n * ceil(NP / kVec) requests (one lane
    // request each, and same-address requests are serialized at the L2 atomic unit); a
    // reduction leaves g * ceil(NP / kVec) and adds R rounds of NP shuffle+add steps:
    //   serial sums: R = s_max - 1 (the groups' loops run side by side in one instruction
    //                stream: shfl.sync with per-group masks, so the largest group decides);
    //   butterfly:   R = 5 = log2(32), only when one group holds every active lane and the
    //                whole warp is calling (zeros from the inactive lanes).
    // Counting a lane request and a shuffle+add step as one unit each, reduce iff
    //   (n - g) * ceil(NP / kVec) > R * NP.
    // Scalar atomics: a uniform warp takes the butterfly iff n >= 7, and a uniform warp in a
    // divergent caller (serial only, R = n - 1) never reduces; float4 atomics make requests
    // 4x cheaper, e.g. 3DGS (NP = 9, 3 float4 requests) then reduces uniform warps at n >= 17.
    // Multi-group warps reduce when the groups are many and even (two pairs: saves 2, costs
    // 1), not for one pair among singletons. Groups of one always send their own atomic.
    constexpr int kReq = (NP + kVec - 1) / kVec;
    const int n = __popc(act);
    const int first = __ffs(act) - 1;
    const int p0 = __shfl_sync(mask, prim, first);
    const bool same = __all_sync(mask, !active || prim == p0);
    if (same) {
      if ((n - 1) * kReq > 5 * NP && mask == kFullMask) {
        detail::butterfly_sum<NP>(acc);
        detail::tree_finish<NP, kVec>(rec, act, active, base, val, acc, grad + static_cast<int64_t>(p0) * stride);
      } else {
        detail::trace_all<NP>(rec, mask, act, active, base, val, 0u, acc);
        if (active) detail::emit<NP, kVec>(p, acc);
      }
      return;
    }
    if (!active) return;
    const unsigned grp = __match_any_sync(act, prim);
    const bool leader = static_cast<int>(lane) == __ffs(grp) - 1;
    const int g = __popc(__ballot_sync(act, leader));
    const int s_max = static_cast<int>(__reduce_max_sync(act, static_cast<unsigned>(__popc(grp))));
    const bool reduce_here = (n - g) * kReq > (s_max - 1) * NP && __popc(grp) > 1;
    if (reduce_here) detail::serial_sum<NP>(grp, acc);
    const unsigned reduced = __ballot_sync(act, reduce_here && leader);
    detail::trace_all<NP>(rec, act, act, true, base, val, reduced, acc);
    if (!reduce_here || leader) detail::emit<NP, kVec>(p, acc);
  }
}

}  // namespace arc
