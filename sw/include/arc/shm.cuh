// Block-level shared-memory privatization ("shm", issue 20): the block accumulates its
// contributions in a shared-memory copy of the gradient words it can touch (its footprint:
// a tile's texel box, a tile's sphere list), with shared-memory float atomics, then flushes
// each footprint slot with a non-zero sum as ONE global update of NP words (float4 REDs with
// vec = 4). Global requests fall from one per contribution to one per touched slot. The
// workload maps a key to its slot (its footprint is workload knowledge, not a warp's view) and
// decides per block whether the footprint fits (block-uniform); a block whose footprint does
// not fit sends per-lane atomics (detail::emit), as Baseline. Sums are in arrival order (not
// deterministic run to run, like every atomic). Not traceable (the trace format is warp-level).
#pragma once
#include "arc/reduce.cuh"

namespace arc {

// Adds v into the NP shared words at s (one slot).
template <int NP>
__device__ __forceinline__ void shm_add(float* s, const float (&v)[NP]) {
#pragma unroll
  for (int i = 0; i < NP; ++i)
    if (v[i] != 0.0f) atomicAdd(s + i, v[i]);
}

// Zeroes n words of shared memory, block-strided (call by every thread, then __syncthreads()).
__device__ __forceinline__ void shm_zero(float* s, int n, int tid, int nthr) {
  for (int i = tid; i < n; i += nthr) s[i] = 0.0f;
}

// After a __syncthreads(): every slot [0, slots) with a non-zero word sends its NP sums to
// target(slot) (a float*, aligned to vec floats for vector atomics), block-strided.
template <int NP, int kOpt, class F>
__device__ __forceinline__ void shm_flush(const float* s, int slots, int tid, int nthr, F&& target) {
  for (int k = tid; k < slots; k += nthr) {
    float v[NP];
    bool any = false;
#pragma unroll
    for (int i = 0; i < NP; ++i) v[i] = s[k * NP + i], any = any || v[i] != 0.0f;
    if (any) detail::emit<NP, kOpt>(target(k), v);
  }
}

}  // namespace arc
