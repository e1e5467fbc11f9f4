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
//   Block     (issue 11; the 3DGS backward shader of the seeds) block-level shared-memory
//             binary tree: every thread of the block writes its values to shared memory,
//             log2(threads) rounds of `buf[t] += buf[t + stride]` with a __syncthreads()
//             after each, then thread 0 sends one atomic per parameter. Needs EVERY thread
//             of the block to call (barriers), a power-of-two block of <= kBlockMax threads,
//             and one primitive for all active lanes of the block (a tile's Gaussian); a
//             call whose active lanes name several primitives falls back to per-lane atomics
//             (block-uniform decision), a call with no active lane returns after one barrier.
//             Not traceable (the trace format is warp-level).
// kOpt: the last template argument is an option word, made by arc::opts(...): its low bits
// are the vector width (so plain 1 / 4 keep meaning scalar / float4 atomics), then
//   AddOp::Atomic  atomicAdd (default);
//   AddOp::Cas     a compare-and-swap loop on the float's bits (the shader's atomicAccumulate:
//                  zero adds skipped), for targets without float atomics; always scalar;
//   AddOp::Racy    plain load-add-store: NO ATOMICITY, the result is wrong by construction
//                  under contention. A timing bound only (the no-atomics bound);
//   kClamp         each value clamped to [-10, 10] before any reduction (the shader's clamp);
//   kSkip          the empty-warp skip (ballot + popc) for Baseline, the only method without
//                  it (every other method already returns early on an empty ballot).
// Vector width (sm_90 only): the final atomics go out as float4 (vec = 4) or float2 (vec = 2)
// vector atomicAdd; stride and the buffer must be aligned to vec floats, and NP is padded
// with zero adds up to a multiple of vec.
#pragma once
#include <cstdint>
#include <type_traits>
#include <cub/warp/warp_reduce.cuh>

namespace arc {

enum class Method : int { Baseline = 0, SwS = 1, SwB = 2, Cub = 3, Adaptive = 4, Block = 5 };

constexpr unsigned kFullMask = 0xffffffffu;
constexpr int kBlockMax = 256;  // Method::Block: largest block (shared buffer NP x kBlockMax)
constexpr float kClampAbs = 10.0f;

enum class AddOp : int { Atomic = 0, Cas = 1, Racy = 2 };
constexpr int kClamp = 1 << 8;
constexpr int kSkip = 1 << 9;
// The option word of reduce's kOpt argument.
constexpr int opts(int vec, AddOp add = AddOp::Atomic, bool clamp = false, bool skip = false) {
  return vec | (static_cast<int>(add) << 4) | (clamp ? kClamp : 0) | (skip ? kSkip : 0);
}
constexpr int opt_vec(int o) { return o & 7; }
constexpr AddOp opt_add(int o) { return static_cast<AddOp>((o >> 4) & 3); }
constexpr bool opt_clamp(int o) { return (o & kClamp) != 0; }
constexpr bool opt_skip(int o) { return (o & kSkip) != 0; }

__device__ __forceinline__ unsigned lane_id() {
  unsigned l;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(l));
  return l;
}

// The tracing hook: reduce() tells it, once per call (NP parameters = NP warp-level atomic
// instructions), which lanes were active, each lane's address of parameter 0 and its values,
// and which group leaders reduced on the GPU with what results (arc::DevTrace,
// trace_rec.cuh). NoTrace compiles to nothing.
struct NoTrace {
  NoTrace() = default;
  template <class... A>
  __device__ explicit NoTrace(const A&...) {}
  template <int NP>
  __device__ __forceinline__ void call(unsigned, unsigned, bool, uint32_t, uint32_t, const float (&)[NP], unsigned,
                                       const float (&)[NP]) {}
};

namespace detail {

// Float add by compare-and-swap on the word's bits (the shader's atomicAccumulate).
__device__ __forceinline__ void cas_add(float* a, float v) {
  if (v == 0.0f) return;
  unsigned* const u = reinterpret_cast<unsigned*>(a);
  unsigned old = *reinterpret_cast<volatile unsigned*>(u);
  for (;;) {
    const unsigned assumed = old;
    old = atomicCAS(u, assumed, __float_as_uint(__fadd_rn(__uint_as_float(assumed), v)));
    if (old == assumed) break;
  }
}

// Per-lane updates for NP values at p: atomics (optionally vector), CAS loops, or racy adds.
template <int NP, int kOpt>
__device__ __forceinline__ void emit(float* p, const float (&v)[NP]) {
  constexpr int kVec = opt_vec(kOpt);
  constexpr AddOp kAdd = opt_add(kOpt);
  static_assert(kVec == 1 || kVec == 2 || kVec == 4, "vector width is 1, 2 or 4");
  if constexpr (kAdd == AddOp::Cas) {
#pragma unroll
    for (int i = 0; i < NP; ++i) cas_add(p + i, v[i]);
  } else if constexpr (kAdd == AddOp::Racy) {
    // The no-atomics bound: plain read-modify-write, lost updates under contention.
    if constexpr (kVec == 4) {
      constexpr int kChunks = (NP + 3) / 4;
#pragma unroll
      for (int c = 0; c < kChunks; ++c) {
        auto at = [&](int i) { return c * 4 + i < NP ? v[c * 4 + i] : 0.0f; };
        float4* q = reinterpret_cast<float4*>(p) + c;
        float4 x = *q;
        x.x += at(0), x.y += at(1), x.z += at(2), x.w += at(3);
        *q = x;
      }
    } else {
#pragma unroll
      for (int i = 0; i < NP; ++i) p[i] += v[i];
    }
  } else if constexpr (kVec == 1) {
#pragma unroll
    for (int i = 0; i < NP; ++i) atomicAdd(p + i, v[i]);
  } else {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
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

// Reports the call (NP parameters at base, base + 1, ...) to the tracer: one record.
template <int NP, class Rec>
__device__ __forceinline__ void trace_all(Rec& rec, unsigned calling, unsigned act, bool active,
                                          uint32_t base, const float (&v)[NP], unsigned reduced,
                                          const float (&sum)[NP]) {
  rec.template call<NP>(calling, act, active, base, 1u, v, reduced, sum);
}

// After a full-warp tree (inactive lanes added zeros) lane 0 holds the sum and sends it.
// When tracing, the sum moves to the lowest active lane, which the trace names as leader.
template <int NP, int kOpt, class Rec>
__device__ __forceinline__ void tree_finish(Rec& rec, unsigned act, bool active, uint32_t base,
                                            const float (&v)[NP], float (&acc)[NP], float* p) {
  const int first = __ffs(act) - 1;
  if constexpr (std::is_same_v<Rec, NoTrace>) {
    if (lane_id() == 0) emit<NP, kOpt>(p, acc);
  } else {
#pragma unroll
    for (int i = 0; i < NP; ++i) acc[i] = __shfl_sync(kFullMask, acc[i], 0);
    trace_all<NP>(rec, kFullMask, act, active, base, v, 1u << first, acc);
    if (static_cast<int>(lane_id()) == first) emit<NP, kOpt>(p, acc);
  }
}

// Method::Block, after the caller's values are clamped (see the header comment).
template <int NP, int kOpt>
__device__ __forceinline__ void block_reduce(bool active, int prim, float* grad, int stride, const float (&v)[NP]) {
  __shared__ float s_buf[NP][kBlockMax];
  __shared__ int s_wprim[kBlockMax / 32];
  __shared__ int s_wstate[kBlockMax / 32];  // 0 no active lane, 1 one primitive, 2 several
  const int tid = static_cast<int>(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z));
  const int nthr = static_cast<int>(blockDim.x * blockDim.y * blockDim.z);
  if (nthr > kBlockMax || (nthr & (nthr - 1)) != 0 || (nthr & 31) != 0) __trap();
  const unsigned act = __ballot_sync(kFullMask, active);
  const int first = act ? __ffs(act) - 1 : 0;
  const int p0 = __shfl_sync(kFullMask, prim, first);
  const bool same = __all_sync(kFullMask, !active || prim == p0);
  // The previous call's readers of the shared state are done past this barrier.
  __syncthreads();
  if (lane_id() == 0) {
    s_wprim[tid / 32] = p0;
    s_wstate[tid / 32] = act == 0 ? 0 : same ? 1 : 2;
  }
#pragma unroll
  for (int i = 0; i < NP; ++i) s_buf[i][tid] = active ? v[i] : 0.0f;
  __syncthreads();
  // Every thread reads the same words: a block-uniform decision.
  bool any = false, uniform = true;
  int bprim = 0;
  for (int w = 0; w < nthr / 32; ++w) {
    const int st = s_wstate[w];
    if (st == 0) continue;
    if (st == 2 || (any && s_wprim[w] != bprim)) uniform = false;
    if (!any) any = true, bprim = s_wprim[w];
  }
  if (!any) return;  // the empty-block skip
  if (!uniform) {
    if (active) emit<NP, kOpt>(grad + static_cast<int64_t>(prim) * stride, v);
    return;
  }
  for (int st = nthr / 2; st > 0; st >>= 1) {
    if (tid < st) {
#pragma unroll
      for (int i = 0; i < NP; ++i) s_buf[i][tid] = __fadd_rn(s_buf[i][tid], s_buf[i][tid + st]);
    }
    __syncthreads();
  }
  if (tid == 0) {
    float sum[NP];
#pragma unroll
    for (int i = 0; i < NP; ++i) sum[i] = s_buf[i][0];
    emit<NP, kOpt>(grad + static_cast<int64_t>(bprim) * stride, sum);
  }
}

}  // namespace detail

template <Method M, int NP, int kOpt = 1, class Rec = NoTrace>
__device__ __forceinline__ void reduce(bool active, int prim, float* grad, int stride,
                                       const float (&val_in)[NP], int threshold, Rec& rec,
                                       unsigned mask = kFullMask) {
  constexpr bool kTracing = !std::is_same_v<Rec, NoTrace>;
  constexpr int kVec = opt_vec(kOpt);
  float val[NP];
#pragma unroll
  for (int i = 0; i < NP; ++i)
    val[i] = opt_clamp(kOpt) ? fminf(fmaxf(val_in[i], -kClampAbs), kClampAbs) : val_in[i];
  float* const p = grad + static_cast<int64_t>(prim) * stride;
  if constexpr (M == Method::Block) {
    static_assert(!kTracing, "Method::Block is not traceable (the trace format is warp-level)");
    detail::block_reduce<NP, kOpt>(active, prim, grad, stride, val);
    return;
  }
  if constexpr (M == Method::Baseline && !kTracing) {
    // Exactly the reference kernels' code: no warp collective at all (unless kSkip asks for
    // the empty-warp skip: ballot + popc, then the same per-lane updates).
    if constexpr (opt_skip(kOpt)) {
      if (__popc(__ballot_sync(mask, active)) == 0) return;
    }
    if (active) detail::emit<NP, kOpt>(p, val);
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
    if (active) detail::emit<NP, kOpt>(p, acc);

  } else if constexpr (M == Method::SwS) {
    if (!active) return;
    const unsigned grp = __match_any_sync(act, prim);
    const bool reduce_here = __popc(grp) >= threshold && __popc(grp) > 1;
    if (reduce_here) detail::serial_sum<NP>(grp, acc);
    const bool leader = static_cast<int>(lane) == __ffs(grp) - 1;
    const unsigned reduced = __ballot_sync(act, reduce_here && leader);
    detail::trace_all<NP>(rec, act, act, true, base, val, reduced, acc);
    if (!reduce_here || leader) detail::emit<NP, kOpt>(p, acc);

  } else if constexpr (M == Method::SwB || M == Method::Cub) {
    const int first = __ffs(act) - 1;
    const int p0 = __shfl_sync(mask, prim, first);
    const bool same = __all_sync(mask, !active || prim == p0);
    if (mask == kFullMask && same && __popc(act) >= threshold && __popc(act) > 1) {
      if constexpr (M == Method::SwB) detail::butterfly_sum<NP>(acc);
      else detail::cub_sum<NP>(acc);
      detail::tree_finish<NP, kOpt>(rec, act, active, base, val, acc, grad + static_cast<int64_t>(p0) * stride);
    } else {
      detail::trace_all<NP>(rec, mask, act, active, base, val, 0u, acc);
      if (active) detail::emit<NP, kOpt>(p, acc);
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
        detail::tree_finish<NP, kOpt>(rec, act, active, base, val, acc, grad + static_cast<int64_t>(p0) * stride);
      } else {
        detail::trace_all<NP>(rec, mask, act, active, base, val, 0u, acc);
        if (active) detail::emit<NP, kOpt>(p, acc);
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
    if (!reduce_here || leader) detail::emit<NP, kOpt>(p, acc);
  }
}

}  // namespace arc
