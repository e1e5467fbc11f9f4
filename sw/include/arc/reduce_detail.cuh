// The building blocks of arc::reduce (arc/reduce.cuh, which includes this after its Method,
// option word, lane_id and NoTrace): the atomics each lane sends (emit: scalar, vector, CAS,
// racy; clamp, skip), the warp sums (serial per group, butterfly, CUB, cooperative groups, the
// transposed scatter), the tracing calls and the three ways a call ends (per-lane atomics, a
// tree's leader, SW-T's scatter). Included by arc/reduce.cuh only (it needs what comes before
// that point there); not for direct use.
#pragma once

namespace arc {

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

// Per-lane updates into separate arrays: scalar only.
template <int NP, int kOpt, class T, std::enable_if_t<!std::is_pointer_v<T>, int> = 0>
__device__ __forceinline__ void emit(const T& t, const float (&v)[NP]) {
  static_assert(opt_vec(kOpt) == 1, "separate gradient arrays take scalar atomics");
#pragma unroll
  for (int i = 0; i < NP; ++i) {
    const float one[1] = {v[i]};
    emit<1, kOpt>(t.at(i), one);
  }
}
__device__ __forceinline__ float* word_at(float* p, int i) { return p + i; }
template <class T>
__device__ __forceinline__ float* word_at(const T& t, int i) { return t.at(i); }

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

// Every match group of `act` summed at once, a tree over each group's ranks: the lane of rank
// r (its place among grp's lanes, ascending) adds the partial sum of rank r + s at s = 1, 2, 4,
// ... while r is a multiple of 2s; rank 0 (the lowest lane, SW-S's leader) ends with the sum.
// Each lane follows a pointer to rank r + s, doubled every level (pointer jumping: one more
// shuffle per level), so all groups step together, where the serial sum takes one step per
// lane of the largest group. Levels: ceil(log2(largest group)).
template <int NP>
__device__ __forceinline__ void group_tree_sum(unsigned act, unsigned grp, float (&acc)[NP]) {
  const unsigned lane = lane_id();
  const unsigned above = lane == 31 ? 0u : grp & (~0u << (lane + 1));
  int nxt = above ? __ffs(above) - 1 : -1;  // the lane of rank r + s (s = 1 now), -1: none
  const unsigned r = __popc(grp & ((1u << lane) - 1u));
  // r a multiple of 2s, as a mask test (s is a power of two; r % (2 s) would be a division)
  for (unsigned s = 1; __any_sync(act, nxt >= 0 && (r & (2 * s - 1)) == 0); s <<= 1) {
    const bool take = nxt >= 0 && (r & (2 * s - 1)) == 0;
    const int src = nxt >= 0 ? nxt : static_cast<int>(lane);
#pragma unroll
    for (int i = 0; i < NP; ++i) {
      const float x = __shfl_sync(act, acc[i], src);
      if (take) acc[i] = __fadd_rn(acc[i], x);
    }
    const int jump = __shfl_sync(act, nxt, src);
    nxt = nxt >= 0 ? jump : -1;
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

// cg::reduce over the warp (gsplat's warpSum): shfl_xor 16, 8, 4, 2, 1; every lane ends with
// the sum.
template <int NP>
__device__ __forceinline__ void cg_sum(float (&acc)[NP]) {
  namespace cg = cooperative_groups;
  const cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
#pragma unroll
  for (int i = 0; i < NP; ++i) acc[i] = cg::reduce(warp, acc[i], cg::plus<float>());
}

// Every lane of the full warp calls; acc holds zeros on inactive lanes. Returns the warp sum of
// param SwtShape::param_of(lane) (every lane holds one; only senders' are used).
template <int NP, int kVec>
__device__ __forceinline__ float swt_scatter(const float (&acc)[NP]) {
  using S = SwtShape<NP, kVec>;
  const unsigned lane = lane_id();
  float r[S::K];
#pragma unroll
  for (int i = 0; i < S::K; ++i) r[i] = i < NP ? acc[i] : 0.0f;
#pragma unroll
  for (int s = 0; s < S::M; ++s) {
    const int off = 16 >> s;
    const bool hi = ((lane >> (4 - s)) & 1u) != 0;  // keeps the slots with param bit s set
#pragma unroll
    for (int t = 0; t < (S::K >> (s + 1)); ++t) {
      if (((2 * t) << s) >= NP) {  // both slots padding on every lane (compile time)
        r[t] = 0.0f;
        continue;
      }
      const float keep = hi ? r[2 * t + 1] : r[2 * t];
      const float send = hi ? r[2 * t] : r[2 * t + 1];
      r[t] = __fadd_rn(keep, __shfl_xor_sync(kFullMask, send, off));
    }
  }
#pragma unroll
  for (int off = 16 >> S::M; off >= 1; off >>= 1) r[0] = __fadd_rn(r[0], __shfl_xor_sync(kFullMask, r[0], off));
  return r[0];
}

// Ends a traced call on every way out of reduce_to (the tracer's end(): DevTrace).
template <class Rec, bool kOn>
struct CallEnd {
  Rec& rec;
  __device__ __forceinline__ ~CallEnd() {
    if constexpr (kOn) rec.end();
  }
};

// Reports the call (NP parameters at base, base + 1, ...) to the tracer: one record.
template <int NP, class Rec>
__device__ __forceinline__ void trace_all(Rec& rec, unsigned calling, unsigned act, bool active,
                                          uint32_t base, const float (&v)[NP], unsigned reduced,
                                          const float (&sum)[NP]) {
  rec.template call<NP>(calling, act, active, base, 1u, v, reduced, sum);
}

// The lowest active lane's primitive (p0) and whether every active lane of `mask` names it.
__device__ __forceinline__ bool uniform_prim(unsigned mask, unsigned act, bool active, int prim, int& p0) {
  p0 = __shfl_sync(mask, prim, __ffs(act) - 1);
  return __all_sync(mask, !active || prim == p0);
}

// No reduction: the call is traced as per-lane and every active lane sends its own atomics.
template <int NP, int kOpt, class Rec, class T>
__device__ __forceinline__ void per_lane(Rec& rec, unsigned mask, unsigned act, bool active, uint32_t base,
                                         const float (&v)[NP], const float (&acc)[NP], const T& p) {
  rec.template call<NP>(mask, act, active, base, 1u, v, 0u, acc);
  if (active) emit<NP, kOpt>(p, acc);
}

// After a full-warp tree (inactive lanes added zeros) lane 0 holds the sum and sends it.
// When tracing, the sum moves to the lowest active lane, which the trace names as leader.
template <int NP, int kOpt, class Rec, class T>
__device__ __forceinline__ void tree_finish(Rec& rec, unsigned act, bool active, uint32_t base,
                                            const float (&v)[NP], float (&acc)[NP], const T& p) {
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

// Method::Swt after the eligibility check: the reduce-scatter, then the senders' RED (one
// warp-level instruction of NP lanes, or of ceil(NP / vec) lanes with vector atomics). When
// tracing, the leader (lowest active lane) gathers all NP sums for the record.
template <int NP, int kOpt, class Rec, class T>
__device__ __forceinline__ void swt_finish(Rec& rec, unsigned act, bool active, uint32_t base,
                                           const float (&v)[NP], const float (&acc)[NP], const T& p) {
  constexpr int kVec = opt_vec(kOpt);
  using S = SwtShape<NP, kVec>;
  const unsigned lane = lane_id();
  const float mine = swt_scatter<NP, kVec>(acc);
  const int q = S::param_of(lane);
  if constexpr (!std::is_same_v<Rec, NoTrace>) {
    float sum[NP];
#pragma unroll
    for (int i = 0; i < NP; ++i) sum[i] = __shfl_sync(kFullMask, mine, S::lane_of(i));
    trace_all<NP>(rec, kFullMask, act, active, base, v, 1u << (__ffs(act) - 1), sum);
  }
  if constexpr (kVec == 1) {
    if (S::sender(lane) && q < NP) {
      const float one[1] = {mine};
      emit<1, kOpt>(word_at(p, q), one);
    }
  } else {
    // The lane of param kVec * c gathers the chunk (params past NP are zero padding slots).
    const int c0 = q - q % kVec;
    float chunk[kVec];
    chunk[0] = mine;
#pragma unroll
    for (int e = 1; e < kVec; ++e) chunk[e] = __shfl_sync(kFullMask, mine, S::lane_of(c0 + e < S::K ? c0 + e : 0));
    static_assert(std::is_pointer_v<T>, "vector atomics need the strided layout");
    if (S::sender(lane) && q % kVec == 0 && q < NP) emit<kVec, kOpt>(word_at(p, q), chunk);
  }
}

}  // namespace detail
}  // namespace arc
