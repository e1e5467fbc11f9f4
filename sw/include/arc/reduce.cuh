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
//   Adaptive  no threshold, and the widest vector width the call site's layout allows (its kOpt:
//             float4 where the record is 16 B aligned, as gs-il, pulsar and tex are; scalar for
//             separate arrays): on the H100 every -v4 Adaptive row beats its scalar one (gs-il
//             2.159 vs 2.806 ms, pulsar 0.250 vs 0.464, tex 0.051 vs 0.161; results/h100).
//             Chooses per call from what the warp sees (calling set, active
//             lanes, one primitive or several, vector width; rule v4 below; rule v5 adds the pair
//             send of arc::reduce_pair, pair_reduce.cuh): per-lane atomics, the
//             butterfly (SwB) for uniform warps, or every group summed by the group tree; and from
//             what the call site knows: a prim passed as arc::WarpUniform{id} is one primitive
//             by construction, so no uniform check and no group path are compiled.
//   Block     (issue 11; the 3DGS backward shader of the seeds) block-level shared-memory
//             binary tree: every thread of the block writes its values to shared memory,
//             log2(threads) rounds of `buf[t] += buf[t + stride]` with a __syncthreads()
//             after each, then thread 0 sends one atomic per parameter. Needs EVERY thread
//             of the block to call (barriers), a power-of-two block of <= kBlockMax threads,
//             and one primitive for all active lanes of the block (a tile's Gaussian); a
//             call whose active lanes name several primitives falls back to per-lane atomics
//             (block-uniform decision), a call with no active lane returns after one barrier.
//             Not traceable (the trace format is warp-level).
//   Gsplat    (issue 23) gsplat's reduction as it is: on a warp with an active lane, every
//             gradient is summed over the warp with cg::reduce (shfl_xor 16,8,4,2,1, zeros
//             from inactive lanes) and lane 0 sends the NP atomics: SW-B with X = 1 (even one
//             active lane is reduced). Needs the full warp and one primitive for all active
//             lanes (gsplat's tile loop gives both); otherwise per-lane atomics. Its sums at
//             lane 0 are bit-identical to SwB's butterfly (same pairs, fadd commutes).
//   Swt       (issue 23) transposed reduce-scatter, under SwB's eligibility (full warp, one
//             primitive, >= threshold active lanes): instead of NP butterflies (5 NP
//             shuffles), lanes exchange halves of their value vector (recursive halving over
//             xor offsets 16, 8, 4, ...: K = next_pow2(NP) slots, log2(K) halving steps of
//             K/2, K/4, ... shuffles, slots that are padding on every lane skipped at compile
//             time), then plain xor steps down to offset 1, so that the lane whose lane bits
//             4, 3, ... spell param p's bits 0, 1, ... (low bits zero) holds the warp sum of
//             param p; those NP lanes send ONE warp-level RED of NP lanes (coalesced: one
//             primitive's consecutive words). NP = 9: 12 shuffles instead of 45. With
//             vec = 4 (2) the lane of param 4c gathers params 4c+1..4c+3 (3 shuffles) and
//             sends one float4 (float2) RED per chunk. The pairs summed are the butterfly's
//             (xor over bit 4 first, ..., bit 0 last), so every sum is bit-identical to
//             SwB's: traces mark it as the butterfly order (kFlagTreeSum).
//   Pair      (issue 20, arc/pair_reduce.cuh) arc::reduce_pair: a lane's two neighbouring
//             records (a bilinear row's taps). Adaptive (rule v5) sends them regrouped, both
//             records of 16 lanes per instruction; every other method makes two plain calls.
//   Floor     (issue 20) NOT a reduction method: the compute floor. Each lane adds its values
//             into a per-thread register (arc::FloorSink, the kernel's Rec) and stores that
//             register once, when the thread ends, to its last primitive's word (a plain
//             store: the gradients are WRONG by construction). What remains is the backward
//             pass with the gradients computed and kept live and no gradient write. Needs
//             Rec = arc::FloorSink (arc::UntracedRec<Method::Floor>); not traceable.
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
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cub/warp/warp_reduce.cuh>

#include "arc/adaptive_rule.h"
#include "arc/layout.cuh"
#include "arc/swt_shape.h"

namespace arc {

enum class Method : int { Baseline = 0, SwS = 1, SwB = 2, Cub = 3, Adaptive = 4, Block = 5, Gsplat = 6, Swt = 7, Floor = 8 };

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

// Layouts (Strided, Arrays<NP>) and Method::Floor's Rec (FloorSink): arc/layout.cuh.
// The Rec an untraced kernel instantiates for method M.
template <Method M>
using UntracedRec = std::conditional_t<M == Method::Floor, FloorSink, NoTrace>;

}  // namespace arc

#include "arc/reduce_detail.cuh"  // detail:: emit, sums, tracing, call endings

#include "arc/block_reduce.cuh"  // Method::Block (needs detail::emit above)

namespace arc {

// A primitive id the call site knows to be the same on every lane of the calling set by
// construction (a 3DGS tile loop: every lane reads the same s_id[j]). Only Adaptive uses the
// fact: it then skips the uniform check and compiles no group path (a convergent call is the
// butterfly or per-lane atomics, a divergent one one serial group). Every other method treats
// it as a plain id and checks as it always does (SW-B's eligibility check is part of SW-B).
struct WarpUniform {
  int id;
};

namespace detail {
template <Method M, int NP, int kOpt, bool kUniform, class Rec, class L>
__device__ __forceinline__ void reduce_impl(bool active, int prim, const L& lay, const float (&val_in)[NP],
                                            int threshold, Rec& rec, unsigned mask) {
  constexpr bool kTracing = !std::is_same_v<Rec, NoTrace> && !std::is_same_v<Rec, FloorSink>;
  static_assert(!kTracing || std::is_same_v<L, Strided>, "tracing needs the strided layout (one buffer, a stride)");
  constexpr int kVec = opt_vec(kOpt);
  // A tracer times the call (DevTrace::begin/end): from here to every way out.
  if constexpr (kTracing) rec.begin(kVec);
  const detail::CallEnd<Rec, kTracing> call_end{rec};
  float val[NP];
#pragma unroll
  for (int i = 0; i < NP; ++i)
    val[i] = opt_clamp(kOpt) ? fminf(fmaxf(val_in[i], -kClampAbs), kClampAbs) : val_in[i];
  const auto p = lay.target(prim);
  if constexpr (M == Method::Floor && kTracing) {
    // The traced floor (issue 17): Baseline's calls are recorded (lanes, addresses, values)
    // but no atomic is issued, so the trace's compute gaps carry no atomic traffic at all.
    static_assert(std::is_same_v<L, Strided>, "tracing needs the strided layout");
    const unsigned act = __ballot_sync(mask, active);
    if (act == 0) return;
    const uint32_t base = static_cast<uint32_t>(prim) * static_cast<uint32_t>(lay.stride);
    detail::trace_all<NP>(rec, mask, act, active, base, val, 0u, val);
    return;
  } else if constexpr (M == Method::Floor) {
    // The compute floor: values kept live in one register per thread, no gradient write.
    static_assert(std::is_same_v<Rec, FloorSink>, "Method::Floor needs Rec = arc::FloorSink (arc::UntracedRec)");
    if (active) {
#pragma unroll
      for (int i = 0; i < NP; ++i) rec.acc += val[i];
      rec.at = detail::word_at(p, 0);
    }
    return;
  }
  if constexpr (M == Method::Block) {
    static_assert(!kTracing, "Method::Block is not traceable (the trace format is warp-level)");
    detail::block_reduce<NP, kOpt>(active, prim, lay, val);
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
  uint32_t base = 0;  // the trace's word of param 0
  if constexpr (kTracing) base = static_cast<uint32_t>(prim) * static_cast<uint32_t>(lay.stride);
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

  } else if constexpr (M == Method::SwB || M == Method::Cub || M == Method::Gsplat || M == Method::Swt) {
    // One eligibility check for the tree methods: the full warp calls and every active lane
    // names one primitive; SwB / Cub / Swt also need >= threshold (and > 1) active lanes,
    // gsplat reduces even one lane (`if (!warp.any(valid)) continue;` returned above: act == 0).
    int p0 = 0;
    const bool same = detail::uniform_prim(mask, act, active, prim, p0);
    const int n = __popc(act);
    if (mask != kFullMask || !same || (M != Method::Gsplat && (n < threshold || n < 2))) {
      detail::per_lane<NP, kOpt>(rec, mask, act, active, base, val, acc, p);
      return;
    }
    if constexpr (M == Method::Swt) {
      detail::swt_finish<NP, kOpt>(rec, act, active, base, val, acc, lay.target(p0));
    } else {
      if constexpr (M == Method::SwB) detail::butterfly_sum<NP>(acc);
      else if constexpr (M == Method::Cub) detail::cub_sum<NP>(acc);
      else detail::cg_sum<NP>(acc);
      detail::tree_finish<NP, kOpt>(rec, act, active, base, val, acc, lay.target(p0));
    }

  } else {  // Adaptive (rule v4 = rule v3's decisions with the group tree, issue 20)
    // No threshold, no per-workload setting: per call, from what the warp sees (calling set
    // convergent = whole warp or divergent = a subset, n active lanes, uniform = one primitive,
    // vector width vec). Costs in shuffle+add steps; a lane's requests for NP values cost
    // NP c1 (scalar) or ceil(NP / vec) cV (vector), arc/adaptive_rule.h:
    //   c1 = 1/2 step, FITTED to the H100 gs SW-B sweep (best X = 12 of 1..32 on gs, gs-garden,
    //        gs-object, gs-abs, gs-depth; n >= 12 holds for c1 in (5/11, 1/2]). The microbench
    //        bounds it: where the atomics are the bottleneck a same-address lane request costs
    //        about one step (prims.csv, all SMs: reduce_baseline with all 32 lanes on one word
    //        404.2 issue cycles per warp step = 12.6 per lane, shfl_down 12.9 per step; 32
    //        distinct words 48.5 per warp step); gs hides part of it behind its compute
    //        (floor 1.73 of 2.93 ms), so it pays less.
    //   cV = 17/16 step, FITTED to the gs-il swb-v4 sweep (best X = 16 of 12, 16, 24: n >= 16
    //        holds for cV in (1, 15/14]); no vector-atomic microbench exists.
    //   kMatch = 32 steps: prims.csv match_any with 32 distinct keys 260.8 issue cycles = 20
    //        steps (one key: 13.8), plus the group loop (>= NP steps); it keeps float4 tex
    //        from matching (sws-v4 X=32, which matches and reduces nothing, 0.0760 ms vs
    //        baseline-v4 0.0710).
    //   1. convergent + uniform: the butterfly (SwB; it beat SW-T on 3DGS) iff
    //      (n - 1) lane_cost > 5 NP: gs (9..11 values, scalar) n >= 12, gs-il float4 n >= 16.
    //   2. convergent, several primitives: match iff (n - 2) lane_cost > kMatch (never on
    //      float4 tex; scalar tex n >= 19, pulsar n >= 11, pulsar float4 n >= 18), then
    //   3. (and for divergent callers, uniform or not) every group of >= 2 lanes is summed,
    //      as SW-S X=2 groups them. A group's lanes are same-address requests (about one step
    //      each at the atomic bottleneck, microbench above); summing s lanes removes (s - 1) NP
    //      words: at least a tie once the match is paid, and ties reduce. Measured best where
    //      the matches happen (pulsar sws X=2 0.477 vs X=4 0.657 ms, tex sws X=2 0.235 vs X=4
    //      0.254, pulsar sws-v4 X=1..8 within 1%).
    //      Rule v4 (issue 20): the groups are summed by the group tree (detail::group_tree_sum:
    //      all groups at once, ceil(log2(largest group)) levels of NP shuffles) instead of
    //      SW-S's serial loop (one level per lane of the largest group). pulsar's SW-S is
    //      issue-bound, not L2-bound (ncu, sws-v4 X=2: SM 76 %, L2 31 %; 296 M warp instructions
    //      against 107 M at X=32, which matches and sums nothing): on the H100 adaptive-v4 went
    //      0.390 -> 0.253 ms (197 M warp instructions), scalar 0.476 -> 0.470
    //      (results/h100/README.md, ncu/ncu-pulsar.log). Traces mark these
    //      sums kFlagGroupTreeSum (golden::group_tree_sum checks them bit for bit).
    //      v2 weighed the group loops against c1 here too and left pulsar's large groups
    //      unreduced: its calls are convergent (98 % full warps: each pixel's list is full),
    //      so it sent 2x SW-S's requests and took 0.955 ms vs 0.477 (issue 20, devrun1).
    // Groups of one always send their own atomic. Per call Adaptive issues only what SW-B
    // (popc, the uniform check) and SW-S (the match, the leaders' ballot) issue, and all three
    // outcomes share ONE emission site: v2 also took a ballot and a max over the groups and
    // had three inlined copies of the atomics, and its gs kernels spilled under the
    // launch bounds' 48 registers where SW-B's did not (ptxas -v: 12..24 bytes; gs +4..11 %
    // over SW-B at the same decisions). v3: no spills on any gs kernel, pulsar 4 bytes.
    using Rule = detail::AdaptiveRule;
    const bool conv = mask == kFullMask;
    const int n = __popc(act);
    if (kUniform && conv) {
      // The call site passed arc::WarpUniform: one primitive by construction, so rule 1 alone,
      // in SW-B's own code shape (per-lane atomics, or the butterfly and lane 0's atomics),
      // without SW-B's uniform check. (One shared emission site here made ptxas spill 48 B on
      // the gs kernels, this shape none.)
      if (!Rule::tree(n, NP, kVec)) {
        detail::per_lane<NP, kOpt>(rec, mask, act, active, base, val, acc, p);
        return;
      }
      detail::butterfly_sum<NP>(acc);
      detail::tree_finish<NP, kOpt>(rec, act, active, base, val, acc, p);
      return;
    }
    // kUniform on a divergent call: no check, and the calling set's active lanes are one group.
    int p0 = prim;
    const bool same = kUniform || detail::uniform_prim(mask, act, active, prim, p0);
    const bool tree = conv && same && Rule::tree(n, NP, kVec);                  // 1.
    const bool groups = !tree && !(conv && (same || !Rule::match(n, NP, kVec)));  // 2./3.
    // One emission site for all three outcomes (fewer live ranges: v2's three copies made the
    // gs kernels spill where SW-B's did not).
    bool send = active;
    int at = prim;
    if (tree) {
      detail::butterfly_sum<NP>(acc);
      if constexpr (kTracing) {
        detail::tree_finish<NP, kOpt>(rec, act, active, base, val, acc, lay.target(p0));
        return;
      }
      send = lane == 0;
      at = p0;
    } else if (groups) {
      if (!active) return;
      const unsigned grp = same ? act : __match_any_sync(act, prim);
      const bool reduce_here = __popc(grp) > 1;
      detail::group_tree_sum<NP>(act, grp, acc);
      const bool leader = static_cast<int>(lane) == __ffs(grp) - 1;
      const unsigned reduced = __ballot_sync(act, reduce_here && leader);
      detail::trace_all<NP>(rec, act, act, true, base, val, reduced, acc);
      send = !reduce_here || leader;
    } else {
      detail::trace_all<NP>(rec, mask, act, active, base, val, 0u, acc);
    }
    if (send) detail::emit<NP, kOpt>(lay.target(at), acc);
  }
}

}  // namespace detail

template <Method M, int NP, int kOpt = 1, class Rec = NoTrace, class L>
__device__ __forceinline__ void reduce_to(bool active, int prim, const L& lay, const float (&val)[NP], int threshold,
                                          Rec& rec, unsigned mask = kFullMask) {
  detail::reduce_impl<M, NP, kOpt, false>(active, prim, lay, val, threshold, rec, mask);
}
template <Method M, int NP, int kOpt = 1, class Rec = NoTrace, class L>
__device__ __forceinline__ void reduce_to(bool active, WarpUniform prim, const L& lay, const float (&val)[NP],
                                          int threshold, Rec& rec, unsigned mask = kFullMask) {
  detail::reduce_impl<M, NP, kOpt, true>(active, prim.id, lay, val, threshold, rec, mask);
}

// The original call: one interleaved record per primitive (Strided), any Rec.
template <Method M, int NP, int kOpt = 1, class Rec = NoTrace>
__device__ __forceinline__ void reduce(bool active, int prim, float* grad, int stride, const float (&val)[NP],
                                       int threshold, Rec& rec, unsigned mask = kFullMask) {
  reduce_to<M, NP, kOpt>(active, prim, Strided{grad, stride}, val, threshold, rec, mask);
}
// Separate gradient arrays (issue 23): scalar atomics, untraced.
template <Method M, int NP, int kOpt = 1, class Rec = NoTrace>
__device__ __forceinline__ void reduce(bool active, int prim, const Arrays<NP>& lay, const float (&val)[NP],
                                       int threshold, Rec& rec, unsigned mask = kFullMask) {
  reduce_to<M, NP, kOpt>(active, prim, lay, val, threshold, rec, mask);
}

}  // namespace arc

#include "arc/pair_reduce.cuh"  // arc::reduce_pair: two records per lane (Adaptive rule v5: the pair send)
