// A two-record reduce call (issue 20): each lane has two records for the same parameters, keys
// k0 and k1 with values a[NP] and b[NP], that the call site knows lie side by side in memory (a
// bilinear texture row: texels (x0, y) and (x0 + 1, y)).
//
//   arc::reduce_pair<Method, NP, kOpt>(active, k0, k1, grad, stride, a, b, threshold [, rec, mask])
//
// Every method but Adaptive: two plain arc::reduce calls, record 0 then record 1 (a traced
// Baseline or Floor call marks both records as one pair call, kDevPairCall, so the timing
// model can replay a floor trace as Adaptive would send it).
// Adaptive, whole warp calling (rule v5): the pair send. Lane L of instruction r (r = 0, 1) sends
// record L % 2 of lane 16 r + L / 2, so each instruction carries both records of 16 lanes side
// by side (one 32 B sector where a row's two texels share one) instead of one record of all 32
// lanes: about half the lines per warp instruction (tex on the H100: the hand-written regroup
// kernel sent 1.00 M RED requests and 3.27 M L2 sectors where Baseline-v4 sent 1.92 M and 5.07 M,
// results/h100/ncu/ncu-tex.log). Record 1 reaches the other half-warp by one xor-16 shuffle per
// value; each instruction then gathers one register per value. Where two adjacent lanes of an
// instruction name one key, the first takes the second's values (one add) and the second sends
// nothing; a run's third and later lanes send their own (exact for any run); skipped when no pair
// matches (one ballot). A divergent Adaptive call is two plain Adaptive calls.
// Traced, each instruction is one record (kDevPairSum: reduced lane l holds v[l] + v[l+1]).
#pragma once
#include "arc/trace_rec.h"  // kDevPairSum, kDevPairCall

namespace arc {

namespace detail {

template <int NP, int kOpt, class Rec>
__device__ __forceinline__ void pair_send(bool active, int k0, int k1, float* grad, int stride, const float (&a_in)[NP],
                                          const float (&b_in)[NP], Rec& rec) {
  constexpr bool kTracing = !std::is_same_v<Rec, NoTrace> && !std::is_same_v<Rec, FloorSink>;
  if constexpr (kTracing) rec.begin(opt_vec(kOpt));
  const CallEnd<Rec, kTracing> call_end{rec};
  float a[NP], b[NP];
#pragma unroll
  for (int i = 0; i < NP; ++i) {
    a[i] = opt_clamp(kOpt) ? fminf(fmaxf(a_in[i], -kClampAbs), kClampAbs) : a_in[i];
    b[i] = opt_clamp(kOpt) ? fminf(fmaxf(b_in[i], -kClampAbs), kClampAbs) : b_in[i];
  }
  const unsigned lane = lane_id();
  const unsigned on = __ballot_sync(kFullMask, active);
  if (on == 0) return;
  const unsigned j = lane >> 1;
  const bool odd = (lane & 1u) != 0, lo = lane < 16;
  // Record 1 of every lane, moved to the other half-warp.
  const int kx = __shfl_xor_sync(kFullMask, k1, 16);
  float bx[NP];
#pragma unroll
  for (int i = 0; i < NP; ++i) bx[i] = __shfl_xor_sync(kFullMask, b[i], 16);
#pragma unroll
  for (int r = 0; r < 2; ++r) {
    const unsigned pix = 16u * r + j;  // the lane whose record this lane sends
    if (!((on >> (16 * r)) & 0xffffu)) continue;  // no active lane in this half (warp-uniform)
    // Lane L gathers from lane 16 r + L/2 (record 0, even L) or from the other half's copy of
    // that lane's record 1 (odd L): lane (16 r + L/2) xor 16. A lane offers record 0 when its
    // half is instruction r's (lo == (r == 0)), else its copy of the other half's record 1.
    const bool own = (r == 0) == lo;
    const int src = static_cast<int>(odd ? (pix ^ 16u) : pix);
    const bool act = (on >> pix) & 1u;
    const int at = __shfl_sync(kFullMask, own ? k0 : kx, src);
    float v[NP];
#pragma unroll
    for (int i = 0; i < NP; ++i) v[i] = __shfl_sync(kFullMask, own ? a[i] : bx[i], src);
    float g[NP];
#pragma unroll
    for (int i = 0; i < NP; ++i) g[i] = act ? v[i] : 0.0f;
    const unsigned actm = __ballot_sync(kFullMask, act);
    const int up1 = __shfl_up_sync(kFullMask, at, 1), up2 = __shfl_up_sync(kFullMask, at, 2);
    const bool second = act && lane >= 1 && ((actm >> (lane - 1)) & 1u) && up1 == at &&
                        !(lane >= 2 && ((actm >> (lane - 2)) & 1u) && up2 == at);
    const unsigned seconds = __ballot_sync(kFullMask, second);
    if (seconds) {
      const bool absorb = lane < 31 && ((seconds >> (lane + 1)) & 1u);
#pragma unroll
      for (int i = 0; i < NP; ++i) {
        const float x = __shfl_down_sync(kFullMask, g[i], 1);
        if (absorb) g[i] = __fadd_rn(g[i], x);
      }
    }
    if constexpr (kTracing) {
      rec.flag(kDevPairSum);
      rec.template call<NP>(kFullMask, actm, act, static_cast<uint32_t>(at) * static_cast<uint32_t>(stride), 1u, v,
                            seconds >> 1, g);
      if (r == 0) rec.end();  // instruction 1 follows at once: its gap is 0
    }
    if (act && !second) emit<NP, kOpt>(grad + static_cast<int64_t>(stride) * at, g);
  }
}

}  // namespace detail

template <Method M, int NP, int kOpt = 1, class Rec = NoTrace>
__device__ __forceinline__ void reduce_pair(bool active, int k0, int k1, float* grad, int stride, const float (&a)[NP],
                                            const float (&b)[NP], int threshold, Rec& rec, unsigned mask = kFullMask) {
  if constexpr (M == Method::Adaptive) {
    if (mask == kFullMask) {
      detail::pair_send<NP, kOpt>(active, k0, k1, grad, stride, a, b, rec);
      return;
    }
  }
  constexpr bool kMark =
      (M == Method::Baseline || M == Method::Floor) && !std::is_same_v<Rec, NoTrace> && !std::is_same_v<Rec, FloorSink>;
  if constexpr (kMark) rec.flag(kDevPairCall);
  reduce<M, NP, kOpt>(active, k0, grad, stride, a, threshold, rec, mask);
  if constexpr (kMark) rec.flag(kDevPairCall);
  reduce<M, NP, kOpt>(active, k1, grad, stride, b, threshold, rec, mask);
}

}  // namespace arc
