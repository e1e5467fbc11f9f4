// Method::Block (issue 11): the block-level shared-memory binary tree (see reduce.cuh's header
// comment). Included by arc/reduce.cuh only, after detail::emit.
#pragma once

namespace arc {
namespace detail {

// Method::Block, after the caller's values are clamped (see the header comment).
template <int NP, int kOpt, class L>
__device__ __forceinline__ void block_reduce(bool active, int prim, const L& lay, const float (&v)[NP]) {
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
    if (active) emit<NP, kOpt>(lay.target(prim), v);
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
    emit<NP, kOpt>(lay.target(bprim), sum);
  }
}

}  // namespace detail
}  // namespace arc
