// ARC microbenchmarks for the H100 (issue 9): float atomic throughput and latency at the L2,
// and the cost of the warp collectives and ARC-SW sequences that replace per-lane atomics.
// Writes CSV files into the folder given as argv[1] (see docs/calibration.md):
//   clock.csv       SM clock under load (a clock64 spin timed with cudaEvents)
//   throughput.csv  red/atom/atomicAdd throughput per address pattern, lane count, SM count
//   latency.csv     dependent-chain latency (one warp): L2 load, atom per lane pattern
//   prims.csv       __match_any_sync / __shfl_down_sync / arc::reduce cost, latency and
//                   throughput (issue cycles per sub-core)
// With a second argument --prims-count: only the primitives' kernels, once each, untimed, and
// their launch order in prims_count.csv, for Nsight Compute to count their warp instructions
// (scripts/gpu-microbench-count.sh). ARC_MB_OFFSET_MB=N in the environment: the pattern buffer
// starts N MB into its allocation (scripts/gpu-microbench-placements.sh).
// Atomics are issued through inline PTX (red.global.add.f32 / atom.global.add.f32) so the
// compiler cannot aggregate a uniform-address warp itself; `atomicAdd` is measured too, as
// the compiler emits it (scripts/gpu-microbench.sh records the SASS of both).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <vector>

#include "arc/reduce.cuh"
#include "bench_util.cuh"

namespace {
using namespace arc_mb;  // bench_util.cuh

constexpr int kThreads = 1024;  // one block = 32 warps
constexpr int kIters = 32;      // atomics per thread per launch (unrolled)

// kRedV2 / kRedV4: one vector RED per lane (atomicAdd on float2 / float4, sm_90) of 2 / 4
// consecutive floats at the lane's slot (the slot must be 8 / 16 B aligned: lane_stride and
// reg_stride multiples of the width); lane_ops counts lane updates, words = lane_ops x width.
enum Op : int { kRed = 0, kAtom = 1, kAtomicAdd = 2, kRedV2 = 3, kRedV4 = 4 };
const char* op_name(int op) {
  return op == kRed ? "red" : op == kAtom ? "atom" : op == kAtomicAdd ? "atomicAdd" : op == kRedV2 ? "red.v2" : "red.v4";
}
int op_width(int op) { return op == kRedV2 ? 2 : op == kRedV4 ? 4 : 1; }

// Vector atomics as the workloads' -v2/-v4 methods issue them (arc/reduce.cuh's emit):
// atomicAdd on float2 / float4 with the result unused (REDG.E.ADD.F32x2/x4 in the SASS).
__device__ __forceinline__ void red_add_v2(float* p, float v) { atomicAdd(reinterpret_cast<float2*>(p), make_float2(v, v)); }
__device__ __forceinline__ void red_add_v4(float* p, float v) {
  atomicAdd(reinterpret_cast<float4*>(p), make_float4(v, v, v, v));
}
__device__ __forceinline__ float atom_add(float* p, float v) {
  float old;
  asm volatile("atom.global.add.f32 %0, [%1], %2;" : "=f"(old) : "l"(p), "f"(v) : "memory");
  return old;
}

// Address of a thread: warp w uses region (w % regions) of reg_stride floats; inside it lane l
// uses slot (l % k) spaced lane_stride floats apart (1 = one 128 B line for k <= 32, 32 = one
// line per slot). Lanes >= active are idle.
struct Pattern {
  int k, lane_stride, regions, reg_stride, active;
  int reps = 4;   // outer repetitions of the kIters unrolled atomics
  int share = 1;  // consecutive warps on one region: warp w uses region (w / share) % regions
};

template <int OP>
__global__ void __launch_bounds__(kThreads) tp_kernel(float* buf, Pattern pt, float* sink) {
  const int lane = threadIdx.x & 31;
  const long gw = (static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  if (lane >= pt.active) return;
  float* p = buf + (gw / pt.share % pt.regions) * pt.reg_stride + (lane % pt.k) * pt.lane_stride;
  const float v = 1.0f + lane * 0.0f;
  float acc = 0.0f;
  for (int r = 0; r < pt.reps; ++r) {
#pragma unroll
    for (int i = 0; i < kIters; ++i) {
      if constexpr (OP == kRed) red_add(p, v);
      else if constexpr (OP == kAtom) acc += atom_add(p, v);
      else if constexpr (OP == kRedV2) red_add_v2(p, v);
      else if constexpr (OP == kRedV4) red_add_v4(p, v);
      else atomicAdd(p, v);
    }
  }
  if (OP == kAtom && acc == -1.0f) sink[0] = acc;  // keeps the results live
}


// ---- latency: one warp, a dependent chain of n operations --------------------------------
// mode 0: ld.global.cg chain (L2 hit); mode 1: atom chain, lanes [0,active) at
// base + (lane % k) * lane_stride. The next address depends on the returned value via `zero`.
__global__ void lat_kernel(float* buf, int mode, int n, int k, int lane_stride, int active, unsigned zero,
                           long long* cycles, float* sink) {
  const int lane = threadIdx.x & 31;
  if (lane >= active) return;
  float* p = buf + (lane % k) * lane_stride;
  float acc = 0.0f;
  unsigned dep = 0;
  // warm: bring the lines into L2
  if (mode == 0) {
    float x;
    asm volatile("ld.global.cg.f32 %0, [%1];" : "=f"(x) : "l"(p));
    acc += x;
  } else {
    acc += atom_add(p, 1.0f);
  }
  __syncwarp(__activemask());
  const long long t0 = clock64();
  for (int i = 0; i < n; ++i) {
    float x;
    if (mode == 0) asm volatile("ld.global.cg.f32 %0, [%1];" : "=f"(x) : "l"(p + dep));
    else x = atom_add(p + dep, 1.0f);
    dep = __float_as_uint(x) & zero;
    acc += x;
  }
  const long long t1 = clock64();
  if (lane == 0) *cycles = t1 - t0;
  if (acc == -1.0f) sink[0] = acc;
}

// ---- warp primitives and ARC-SW sequences -------------------------------------------------
// kind 0: __match_any_sync chain; 1: __shfl_down_sync chain; 2..6: arc::reduce<M, NP> per call
// (2 Baseline, 3 SwS, 4 SwB, 5 Adaptive, 6 Cub); 7 / 8: the sums alone, no match and no atomic:
// Adaptive's group tree (detail::group_tree_sum) / SW-S's serial loop (detail::serial_sum) over
// groups of `groups` consecutive lanes, NP values, each step's result fed to the next
// (issue 17: their cost per tree level and per serial step, for the model's Adaptive)
// (warp-private addresses; `groups` lanes-per-primitive pattern). Each warp runs n steps and
// its lane 0 adds its clock64 cycles to out[0] (cycles) and its count to out[1].
template <int KIND, int NP = 1>
__global__ void prim_kernel(float* grad, int n, int groups, int threshold, unsigned zero,
                            unsigned long long* out, float* sink) {
  const int lane = threadIdx.x & 31;
  const long gw = (static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  unsigned x = lane;
  float f = 1.0f + lane;
  arc::NoTrace rec;
  __syncwarp();
  const long long t0 = clock64();
  for (int i = 0; i < n; ++i) {
    if constexpr (KIND == 0) {
      x = __match_any_sync(0xffffffffu, (x & zero) + lane / groups);
    } else if constexpr (KIND == 1) {
      f = __shfl_down_sync(0xffffffffu, f, 1) + 1.0f;
    } else if constexpr (KIND == 7 || KIND == 8) {
      const unsigned grp = groups >= 32 ? 0xffffffffu : ((1u << groups) - 1u) << (lane / groups * groups);
      float acc[NP];
#pragma unroll
      for (int q = 0; q < NP; ++q) acc[q] = f + q;
      if constexpr (KIND == 7) arc::detail::group_tree_sum<NP>(0xffffffffu, grp, acc);
      else if (__popc(grp) > 1) arc::detail::serial_sum<NP>(grp, acc);
      float t = 0.0f;
#pragma unroll
      for (int q = 0; q < NP; ++q) t += acc[q];
      f = t * 1e-3f + 1.0f;
    } else {
      constexpr arc::Method M = KIND == 2 ? arc::Method::Baseline
                                : KIND == 3 ? arc::Method::SwS
                                : KIND == 4 ? arc::Method::SwB
                                : KIND == 6 ? arc::Method::Cub
                                            : arc::Method::Adaptive;
      // primitive of this lane: one of 32/groups per warp, rotating over 4 line-sized slots
      const int prim = static_cast<int>(gw * 128 + (i & 3) * 32 + lane / groups);
      float val[NP];
#pragma unroll
      for (int q = 0; q < NP; ++q) val[q] = f + q;
      arc::reduce<M, NP>(true, prim, grad, NP, val, threshold, rec);
      f += 1.0f;
    }
  }
  const long long t1 = clock64();
  if (lane == 0) {
    atomicAdd(&out[0], static_cast<unsigned long long>(t1 - t0));
    atomicAdd(&out[1], 1ull);
  }
  if (x == 0xdeadbeefu || f == -1.0f) sink[0] = f + x;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : ".";
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  const int nsm = prop.multiProcessorCount;
  std::printf("device %s, %d SMs, L2 %d MB, cc %d.%d\n", prop.name, nsm, prop.l2CacheSize >> 20, prop.major,
              prop.minor);

  float* buf = nullptr;
  float* sink = nullptr;
  long long* dcyc = nullptr;
  unsigned long long* dacc = nullptr;
  const size_t buf_floats = size_t(64) << 20;  // 256 MB
  // ARC_MB_OFFSET_MB=N: the patterns start N MB into a larger allocation, so a rerun lands
  // on other physical pages (the L2 slice of a line depends on physical address bits: issue 17
  // measures how much a pattern's rate moves with its placement).
  const char* off_env = std::getenv("ARC_MB_OFFSET_MB");
  const size_t offset_floats = (off_env ? std::strtoull(off_env, nullptr, 10) : 0) << 18;  // MB -> floats
  float* alloc = nullptr;
  CK(cudaMalloc(&alloc, (buf_floats + offset_floats) * sizeof(float)));
  buf = alloc + offset_floats;
  std::printf("pattern buffer at offset %zu MB\n", offset_floats >> 18);
  CK(cudaMalloc(&sink, 64));
  CK(cudaMalloc(&dcyc, 64));
  CK(cudaMalloc(&dacc, 64));
  CK(cudaMemset(buf, 0, buf_floats * sizeof(float)));

  // ---- clock under load ----
  FILE* fc = open_csv(dir, "clock.csv", "when,spin_cycles,ms,mhz");
  auto measure_clock = [&](const char* when) {
    const long long cyc = 40'000'000;
    double med, mn, mx;
    time_median([&] { spin_kernel<<<nsm, 128>>>(cyc, dcyc); }, 2, 5, med, mn, mx);
    const double mhz = cyc / (med * 1e3);
    std::fprintf(fc, "%s,%lld,%.5f,%.1f\n", when, cyc, med, mhz);
    std::printf("clock %s: %.1f MHz\n", when, mhz);
    return mhz;
  };
  const double mhz0 = measure_clock("start");

  // --prims-count (argv[2]): only the primitives' kernels, each row once at full chip and not
  // timed, with their order in prims_count.csv: Nsight Compute counts each launch's warp
  // instructions (scripts/gpu-microbench-count.sh), the SW sequences' issue slots per call.
  const bool count_only = argc > 2 && std::string(argv[2]) == "--prims-count";
  FILE* ft = nullptr;
  FILE* fl = nullptr;
  if (!count_only) {
  // ---- throughput ----
  // Dynamic shared memory only pins blocks per SM: 150 KB -> 1 block/SM, 80 KB -> 2 blocks/SM.
  {
    const int smem_max = 150 * 1024;
    CK(cudaFuncSetAttribute(tp_kernel<kRed>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_max));
    CK(cudaFuncSetAttribute(tp_kernel<kAtom>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_max));
    CK(cudaFuncSetAttribute(tp_kernel<kAtomicAdd>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_max));
    CK(cudaFuncSetAttribute(tp_kernel<kRedV2>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_max));
    CK(cudaFuncSetAttribute(tp_kernel<kRedV4>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem_max));
  }
  ft = open_csv(dir, "throughput.csv",
                      "sweep,op,k,lane_stride,regions,reg_stride,active,reps,sms,blocks_per_sm,warps,ms_med,ms_min,"
                      "ms_max,clock_mhz,warp_instr,lane_ops,warp_instr_per_clk,lane_ops_per_clk");
  auto tp = [&](const char* sweep, int op, Pattern pt, int sms, int bps, int scale = 1) {
    const int blocks = sms * bps;
    pt.reps = scale * std::max(4, 4 * 2 * nsm / blocks);  // about the same work at every SM count
    const int smem = bps == 1 ? 150 * 1024 : 80 * 1024;
    const long warps = long(blocks) * (kThreads / 32);
    if (pt.regions <= 0 || pt.regions > warps) pt.regions = static_cast<int>(warps);
    const long need = long(pt.regions) * pt.reg_stride + 32L * pt.lane_stride + op_width(op);
    if (need > long(buf_floats)) { std::fprintf(stderr, "pattern too large\n"); std::exit(1); }
    double med, mn, mx;
    time_median(
        [&] {
          if (op == kRed) tp_kernel<kRed><<<blocks, kThreads, smem>>>(buf, pt, sink);
          else if (op == kAtom) tp_kernel<kAtom><<<blocks, kThreads, smem>>>(buf, pt, sink);
          else if (op == kRedV2) tp_kernel<kRedV2><<<blocks, kThreads, smem>>>(buf, pt, sink);
          else if (op == kRedV4) tp_kernel<kRedV4><<<blocks, kThreads, smem>>>(buf, pt, sink);
          else tp_kernel<kAtomicAdd><<<blocks, kThreads, smem>>>(buf, pt, sink);
        },
        2, 7, med, mn, mx);
    const double instr = double(warps) * kIters * pt.reps;
    const double lanes = instr * pt.active;
    const double clk = med * 1e-3 * mhz0 * 1e6;
    std::fprintf(ft, "%s,%s,%d,%d,%d,%d,%d,%d,%d,%d,%ld,%.5f,%.5f,%.5f,%.1f,%.0f,%.0f,%.4f,%.4f\n", sweep, op_name(op),
                 pt.k, pt.lane_stride, pt.regions, pt.reg_stride, pt.active, pt.reps, sms, bps, warps, med, mn, mx, mhz0,
                 instr, lanes, instr / clk, lanes / clk);
  };
  // 1. k distinct addresses per warp (warps disjoint), lanes in one line or one line each.
  for (int op : {kRed, kAtom, kAtomicAdd})
    for (int ls : {1, 32})
      for (int k : {1, 2, 4, 8, 16, 32}) tp("k_per_warp", op, {k, ls, 0, 32 * 32, 32}, nsm, 2);
  // 2. global hotspot: every warp of the chip on the same k addresses.
  for (int op : {kRed, kAtom})
    for (int k : {1, 32}) tp("hotspot", op, {k, 1, 1, 0, 32}, nsm, 2);
  // 3. active lanes, warp-uniform address and fully distinct lines.
  for (int op : {kRed, kAtom})
    for (int a : {1, 2, 4, 8, 16, 24, 32}) {
      tp("active_same", op, {1, 1, 0, 32 * 32, a}, nsm, 2);
      tp("active_distinct", op, {32, 32, 0, 32 * 32, a}, nsm, 2);
    }
  // 4. SMs in use (one block of 32 warps per SM).
  for (int op : {kRed, kAtom})
    for (int s : {1, 2, 4, 8, 16, 33, 66, 99, 132}) {
      if (s > nsm) continue;
      tp("sms_distinct", op, {32, 32, 0, 32 * 32, 32}, s, 1);
      tp("sms_same", op, {1, 1, 0, 32 * 32, 32}, s, 1);
      tp("sms_coalesced", op, {32, 1, 0, 32, 32}, s, 1);
    }
  // 5. address spread: all warps share R regions (128 B apart); the hash spreads them over slices.
  for (int op : {kRed})
    for (int r : {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 4096}) {
      tp("spread_same", op, {1, 1, r, 32, 32}, nsm, 2);
      tp("spread_coalesced", op, {32, 1, r, 32, 32}, nsm, 2);
    }

  // 6. vector REDs (issue 17): the same patterns with 2 / 4 floats per lane. Slots 16 B apart
  //    (k = 8: one 128 B line per warp for v4; k = 32: four lines), one line each, one slot per
  //    warp, the chip on one slot, one SM.
  for (int op : {kRedV2, kRedV4}) {
    const int w = op_width(op);
    for (int k : {1, 8, 32}) tp("vec_k_per_warp", op, {k, 4, 0, 32 * 32, 32}, nsm, 2);
    tp("vec_k_per_warp", op, {32, 32, 0, 32 * 32, 32}, nsm, 2);
    tp("vec_hotspot", op, {1, w, 1, 0, 32}, nsm, 2);
    tp("vec_sms_distinct", op, {32, 32, 0, 32 * 32, 32}, 1, 1);
    tp("vec_sms_coalesced", op, {32, 4, 0, 32 * 4, 32}, 1, 1);
  }
  for (int k : {1, 8, 32}) tp("vec_k_per_warp", kRed, {k, 4, 0, 32 * 32, 32}, nsm, 2);  // scalar at 16 B spacing
  // 7. active lanes on fewer SMs (issue 17): is the 1-lane rate (~0.2 warp REDs per cycle per SM
  //    with every SM busy) a limit of each SM or of the shared L2 side? Distinct lines, one block
  //    (32 warps) per SM: the 150 KB of shared memory of a 1-block launch keeps it at one.
  for (int sm : {2, 16, 66})
    for (int a : {1, 2, 4, 8, 32}) tp("sms_active_distinct", kRed, {32, 32, 0, 32 * 32, a}, sm, 1);
  // 8. the same with each warp's region 4 KB + 128 B apart instead of 4 KB: with few active
  //    lanes every warp's lane 0 sits on a 4 KB-aligned line above; does that alignment (slice
  //    hash aliasing) or the instruction count set the 1-lane rate?
  for (int a : {1, 2, 4, 8, 32}) tp("active_offset", kRed, {32, 32, 0, 32 * 33, a}, nsm, 2);
  for (int sm : {2, 16, 66})
    for (int a : {1, 32}) tp("sms_active_offset", kRed, {32, 32, 0, 32 * 33, a}, sm, 1);
  // 9. lane-major: lane l of warp w on line l * warps + w (a warp's lanes ~1 MB apart) instead of
  //    a warp's 32 lines side by side (active_distinct): same lines touched, same count per
  //    instruction. Does a warp's run of adjacent lines cost less at L2 than scattered lines?
  {
    const int warps = nsm * 2 * (kThreads / 32);
    for (int a : {1, 2, 4, 8, 32}) tp("lane_major", kRed, {32, 32 * warps, 0, 32, a}, nsm, 2);
  }

  // 10. The fixed cost of a launch (issue 17): the same kernel with no active lane at each launch
  //     shape the sweeps use (blocks x 1024 threads, 1 or 2 blocks per SM). The few-lane rows
  //     above run 20-50 us, so a fixed cost of a few us is a sizeable part of their time.
  tp("launch_empty", kRed, {32, 32, 0, 32 * 32, 0}, nsm, 2);
  for (int sm : {2, 16, 66, nsm}) tp("launch_empty", kRed, {32, 32, 0, 32 * 32, 0}, sm, 1);
  // 11. The few-lane rows again with 8x the work per warp: their sustained rate, the launch's
  //     fixed cost spread over 8x the time.
  for (int a : {1, 2, 4, 8}) {
    tp("long_active_distinct", kRed, {32, 32, 0, 32 * 32, a}, nsm, 2, 8);
    tp("long_sms_active_distinct", kRed, {32, 32, 0, 32 * 32, a}, 66, 1, 8);
    tp("long_active_offset", kRed, {32, 32, 0, 32 * 33, a}, nsm, 2, 8);
  }
  tp("long_sms_active_offset", kRed, {32, 32, 0, 32 * 33, 1}, 66, 1, 8);

  // 12. Warps sharing a word (issue 17): every warp's 32 lanes on one word, as k_per_warp k=1
  //     (own word per warp, words 4 KB apart: 39.1 lane atomics/cycle) and spread_same R=4096
  //     (two warps per word, adjacent lines: 32.0). Which of the two differences sets the rate:
  //     words shared by several warps, or the words' spacing (adjacent lines vs 4 KB)? Each
  //     sharing count (1, 2, 4 warps per word) at both spacings, the sharers far apart on the
  //     chip (warp w and w + warps / n: other SMs) or side by side (share: n consecutive warps
  //     of one block, so one SM); the regions count is the chip's warps / n.
  {
    const int warps = nsm * 2 * (kThreads / 32);
    for (int stride : {32, 32 * 32})
      for (int n : {1, 2, 4}) {
        tp("word_sharing", kRed, {1, 1, warps / n, stride, 32}, nsm, 2);
        if (n > 1) {
          Pattern side{1, 1, warps / n, stride, 32};
          side.share = n;
          tp("word_sharing_side", kRed, side, nsm, 2);
        }
      }
  }

  // ---- latency ----
  fl = open_csv(dir, "latency.csv", "test,k,lane_stride,active,n,cycles,cycles_per_op");
  auto lat = [&](const char* test, int mode, int k, int ls, int active) {
    const int n = 2000;
    long long cyc[2];
    for (int r = 0; r < 2; ++r) {  // second run is the one kept (first warms code and TLB)
      lat_kernel<<<1, 32>>>(buf + (size_t(1) << 20), mode, n, k, ls, active, 0u, dcyc, sink);
      CK(cudaGetLastError());
      CK(cudaMemcpy(&cyc[r], dcyc, 8, cudaMemcpyDeviceToHost));
    }
    std::fprintf(fl, "%s,%d,%d,%d,%d,%lld,%.2f\n", test, k, ls, active, n, cyc[1], double(cyc[1]) / n);
  };
  lat("ld_cg_l2", 0, 1, 1, 1);
  for (int a : {1, 2, 4, 8, 16, 32}) lat("atom_same", 1, 1, 1, a);
  for (int a : {2, 4, 8, 16, 32}) lat("atom_line", 1, 32, 1, a);
  for (int a : {2, 4, 8, 16, 32}) lat("atom_lines", 1, 32, 32, a);

  }  // !count_only
  // ---- primitives and ARC-SW sequences ----
  FILE* fp = count_only ? open_csv(dir, "prims_count.csv", "launch,kind,groups,threshold,mode,warps,n,np")
                        : open_csv(dir, "prims.csv", "kind,groups,threshold,mode,warps,n,cycles_per_step_per_warp,"
                                   "ms_med,clock_mhz,issue_cycles_per_step_per_subcore,np");
  int counted = 0;  // --prims-count: launches so far
  // np: parameters per reduce call (issue 17: the SW cost of a call that writes NP values).
  auto prim = [&](const char* kind_name, int kind, int groups, int thr, int np = 1) {
    for (int mode = count_only ? 1 : 0; mode < 2; ++mode) {  // 0: one warp (latency); 1: 64 warps on every SM
      const int blocks = mode == 0 ? 1 : nsm * 2;
      const int threads = mode == 0 ? 32 : kThreads;
      const int n = 256;
      auto launch = [&] {
        if (np == 4 || np == 9) {
          auto go = [&](auto k, auto p) {
            prim_kernel<decltype(k)::value, decltype(p)::value><<<blocks, threads>>>(buf, n, groups, thr, 0u, dacc, sink);
          };
          using I4 = std::integral_constant<int, 4>;
          using I9 = std::integral_constant<int, 9>;
          if (kind == 2) np == 4 ? go(std::integral_constant<int, 2>{}, I4{}) : go(std::integral_constant<int, 2>{}, I9{});
          else if (kind == 3) np == 4 ? go(std::integral_constant<int, 3>{}, I4{}) : go(std::integral_constant<int, 3>{}, I9{});
          else if (kind == 6) np == 4 ? go(std::integral_constant<int, 6>{}, I4{}) : go(std::integral_constant<int, 6>{}, I9{});
          else if (kind == 5) np == 4 ? go(std::integral_constant<int, 5>{}, I4{}) : go(std::integral_constant<int, 5>{}, I9{});
          else if (kind == 7) np == 4 ? go(std::integral_constant<int, 7>{}, I4{}) : go(std::integral_constant<int, 7>{}, I9{});
          else if (kind == 8) np == 4 ? go(std::integral_constant<int, 8>{}, I4{}) : go(std::integral_constant<int, 8>{}, I9{});
          else np == 4 ? go(std::integral_constant<int, 4>{}, I4{}) : go(std::integral_constant<int, 4>{}, I9{});
          return;
        }
        switch (kind) {
          case 0: prim_kernel<0><<<blocks, threads>>>(buf, n, groups, thr, 0u, dacc, sink); break;
          case 1: prim_kernel<1><<<blocks, threads>>>(buf, n, groups, thr, 0u, dacc, sink); break;
          case 2: prim_kernel<2><<<blocks, threads>>>(buf, n, groups, thr, 0u, dacc, sink); break;
          case 3: prim_kernel<3><<<blocks, threads>>>(buf, n, groups, thr, 0u, dacc, sink); break;
          case 4: prim_kernel<4><<<blocks, threads>>>(buf, n, groups, thr, 0u, dacc, sink); break;
          case 6: prim_kernel<6><<<blocks, threads>>>(buf, n, groups, thr, 0u, dacc, sink); break;
          case 7: prim_kernel<7><<<blocks, threads>>>(buf, n, groups, thr, 0u, dacc, sink); break;
          case 8: prim_kernel<8><<<blocks, threads>>>(buf, n, groups, thr, 0u, dacc, sink); break;
          default: prim_kernel<5><<<blocks, threads>>>(buf, n, groups, thr, 0u, dacc, sink); break;
        }
      };
      if (count_only) {
        launch();
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        std::fprintf(fp, "%d,%s,%d,%d,full_chip,%.0f,%d,%d\n", counted++, kind_name, groups, thr,
                     double(blocks) * threads / 32, n, np);
        continue;
      }
      double med, mn, mx;
      time_median(launch, 2, 7, med, mn, mx);
      CK(cudaMemset(dacc, 0, 16));
      launch();
      CK(cudaGetLastError());
      unsigned long long h[2];
      CK(cudaMemcpy(h, dacc, 16, cudaMemcpyDeviceToHost));
      const double warps = double(blocks) * threads / 32;
      const double per_warp = double(h[0]) / double(h[1]) / n;
      // issue cycles per step per sub-core: wall cycles x sub-cores / steps per SM
      const double wall = med * 1e-3 * mhz0 * 1e6;
      const double steps_per_sm = warps * n / (mode == 0 ? 1 : nsm);
      const double issue = wall * (mode == 0 ? 1 : 4) / steps_per_sm;
      std::fprintf(fp, "%s,%d,%d,%s,%.0f,%d,%.2f,%.5f,%.1f,%.3f,%d\n", kind_name, groups, thr,
                   mode == 0 ? "one_warp" : "full_chip", warps, n, per_warp, med, mhz0, issue, np);
    }
  };
  prim("match_any", 0, 1, 0);
  prim("match_any", 0, 32, 0);
  prim("shfl_down", 1, 1, 0);
  for (int g : {1, 2, 8, 32}) {
    prim("reduce_baseline", 2, g, 1);
    prim("reduce_sws", 3, g, 1);
    prim("reduce_adaptive", 5, g, 1);
  }
  prim("reduce_swb", 4, 32, 1);
  prim("reduce_swb", 4, 1, 1);   // not uniform: eligibility check, then per-lane atomics
  // Issue 17: cub::WarpReduce under SW-B's eligibility (arc_bench runs it at threshold 0: n >= 2).
  prim("reduce_cub", 6, 32, 1);
  prim("reduce_cub", 6, 1, 1);
  prim("reduce_sws", 3, 32, 33); // threshold above the warp: match + ballot, no sum
  // Calls of NP = 4 and 9 values (tex, 3DGS): the cost per step of a serial sum and of a
  // butterfly when NP independent values move together.
  for (int np : {4, 9}) {
    for (int g : {2, 8, 32}) {
      prim("reduce_baseline", 2, g, 1, np);
      prim("reduce_sws", 3, g, 1, np);
    }
    // Adaptive rule v4 (2026-11-27): the same match as SW-S, then its group tree (16 groups of
    // 2: one level; 4 groups of 8: three) where SW-S runs 1 and 7 serial steps.
    for (int g : {2, 8}) prim("reduce_adaptive", 5, g, 1, np);
    prim("reduce_swb", 4, 32, 1, np);
    prim("reduce_cub", 6, 32, 1, np);
  }
  // The sums alone (kinds 7, 8): groups of 1..32 lanes (0..5 tree levels, 0..31 serial steps).
  for (int np : {1, 4, 9})
    for (int g : {1, 2, 4, 8, 16, 32}) {
      prim("group_tree_sum", 7, g, 0, np);
      prim("serial_sum", 8, g, 0, np);
    }

  measure_clock("end");
  std::fclose(fc);
  if (ft) std::fclose(ft);
  if (fl) std::fclose(fl);
  std::fclose(fp);
  CK(cudaFree(alloc));
  std::printf("done\n");
  return 0;
}
