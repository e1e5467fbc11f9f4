// Issue 17: which 128 B lines share an L2 slice on the H100. The timing model spreads lines
// over its ROP units by a fixed hash; the H100 serves two launches with the same line count
// but different line addresses at different rates (atomics.cu sms_active_distinct vs
// sms_active_offset: 4 KB vs 4 KB + 128 B between warps, 66 SMs, 1 lane: 23.0 vs 17.7 lane
// atomics/cycle), so where a line goes matters.
// Method: every SM runs two 32-warp blocks; each warp has one active lane, which issues
// kIters x reps REDs (red.global.add.f32) on one word; warp w takes line lines[w % n] and word
// (w / n) % 32 of it, so a set of n lines gets the whole chip's REDs spread evenly over its
// lines' words (one-lane requests: nothing coalesces). One line alone runs at what its slice
// takes; two lines in different slices should run near twice that, two in one slice near
// once. The buffer comes from cudaMalloc (2 MB pages on this GPU: a line's place in its 2 MB
// page is its physical place there; pages are numbered from the buffer's start).
// Writes into argv[1]:
//   sets.csv     set,n,stride,first,ms_med,ms_min,ms_max,clock_mhz,lane_ops,lane_ops_per_clk:
//                n lines first, first + stride, ... (line index from the buffer's start)
//   pairs.csv    phase,ref,cand,ms_med,lane_ops_per_clk: line ref with line cand
//                (phase "scan": ref = the first line of a page against the page's next lines;
//                "greedy": the partition below)
//   classes.csv  line,class,ref: a greedy partition of the first kGreedyLines lines: each line
//                not yet placed starts a class, and every later unplaced line whose pair with
//                it runs under kConflict x the single-line rate joins it (stops after
//                kGreedyMaxPairs pairs; lines never reached have class -1)
//   map.csv      line,class,tests: every line of page 0, then every line atomics.cu's
//                sms_active_distinct / sms_active_offset patterns touch on 66 SMs with up to
//                8 active lanes (warp w, lane l: line 32w + l / 33w + l; same buffer start),
//                each paired with the greedy classes' first lines in turn until one conflicts
//                (a line that conflicts with none starts a class of its own)
// The pair phases (scan, greedy, map) launch kPairBlocks blocks, one timed launch per pair
// (three where the rate is within kAmbiguous of the threshold).
// `slices DIR latency` runs only this instead:
//   latency.csv  smid,line,cycles: one warp on SM smid (one SM of each GPC of the committed
//                GPC map, results/h100/validation/full/placement/run5) runs a dependent chain of
//                kChain atom.global.add.f32 on word 0 of each line of the 66-SM 1-lane patterns
//                (32w and 33w, w < 2112): clock64 cycles per atomic, after one warm-up atomic
// `slices DIR smslice` runs the sets and the greedy pass, then only this:
//   smslice.csv  target,sms,active,...: 1-16 SMs (one 32-warp block each), 1, 8 or 32 active
//                lanes, every lane on one of 8 lines of one slice ("one_slice") or of 8 slices
//                ("eight_slices"), distinct words
// `slices DIR patterns` runs only this instead:
//   patterns.csv base_page,pattern,active,ms_med,clock_mhz,lane_ops,lane_ops_per_clk: atomics.cu's
//                66-SM rows (one 32-warp block per SM, kPatternReps x kIters REDs per lane, lanes
//                0..active-1 on lines 32w + l, "distinct", or 33w + l, "offset") with the
//                pattern starting base_page 2 MB pages into one allocation: other physical pages
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench_util.cuh"

namespace {
using namespace arc_mb;

constexpr int kThreads = 1024;
constexpr int kIters = 32;
constexpr long kPageLines = (2L << 20) / 128;  // 128 B lines in a 2 MB page
constexpr int kScanLines = 4096;               // candidates per scanned page
constexpr int kGreedyLines = 1024;
constexpr long kGreedyMaxPairs = 60000;
constexpr double kConflict = 1.5;              // pair rate under 1.5 x one line's: one slice
constexpr double kAmbiguous = 0.15;            // re-time a pair within 15% of that threshold
constexpr int kPairBlocks = 66;                // 2112 one-lane warps: still past a slice's rate
constexpr long kPatternWarps = 66 * 32;        // sms_active_distinct / _offset on 66 SMs
constexpr int kPatternLanes = 8;

__global__ void __launch_bounds__(kThreads) lines_kernel(float* buf, const long* lines, int n, int reps) {
  if ((threadIdx.x & 31) != 0) return;
  const long gw = (static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  float* p = buf + lines[gw % n] * 32 + (gw / n) % 32;
  for (int r = 0; r < reps; ++r) {
#pragma unroll
    for (int i = 0; i < kIters; ++i) red_add(p, 1.0f);
  }
}

constexpr int kChain = 16;
constexpr int kPatternReps = 16;  // atomics.cu's reps at 66 blocks of one per SM
constexpr int kPatternPages = 12;

__global__ void __launch_bounds__(kThreads) pattern_kernel(float* buf, long line_stride, int active, int reps) {
  const int lane = threadIdx.x & 31;
  if (lane >= active) return;
  const long gw = (static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  float* p = buf + (gw * line_stride + lane) * 32;
  for (int r = 0; r < reps; ++r) {
#pragma unroll
    for (int i = 0; i < kIters; ++i) red_add(p, 1.0f);
  }
}

// `slices DIR smslice`: lane l of warp w on word (w + l x 7) % 32 of line lines[(w x active + l) % n]
// (a set of lines in one slice or in as many slices): how one SM's rate into one slice compares
// with its rate spread over slices, and how SMs sharing that slice add up.
__global__ void __launch_bounds__(kThreads) smslice_kernel(float* buf, const long* lines, int n, int active,
                                                          int reps) {
  const int lane = threadIdx.x & 31;
  if (lane >= active) return;
  const long gw = (static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  float* p = buf + lines[(gw * active + lane) % n] * 32 + (gw + lane * 7) % 32;
  for (int r = 0; r < reps; ++r) {
#pragma unroll
    for (int i = 0; i < kIters; ++i) red_add(p, 1.0f);
  }
}

__device__ __forceinline__ unsigned sm_id() {
  unsigned r;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
  return r;
}

__device__ __forceinline__ float atom_add(float* p, float v) {
  float old;
  asm volatile("atom.global.add.f32 %0, [%1], %2;" : "=f"(old) : "l"(p), "f"(v) : "memory");
  return old;
}

// Lane 0 of the first block that lands on SM `target` times a chain on each line; the other
// blocks leave. `zero` is 0 at run time: the next address depends on the returned value.
__global__ void latency_kernel(float* buf, const long* lines, int n, unsigned target, unsigned zero, int* claim,
                               long long* cycles) {
  if (threadIdx.x != 0 || sm_id() != target || atomicExch(claim, 1) != 0) return;
  for (int i = 0; i < n; ++i) {
    float* p = buf + lines[i] * 32;
    unsigned dep = __float_as_uint(atom_add(p, 1.0f)) & zero;
    const long long t0 = clock64();
    for (int k = 0; k < kChain; ++k) dep = __float_as_uint(atom_add(p + dep, 1.0f)) & zero;
    const long long t1 = clock64();
    cycles[i] = (t1 - t0) / kChain + dep;
  }
}

struct Rig {
  float* buf = nullptr;
  long* dlines = nullptr;
  int blocks = 0;
  double mhz = 0;
  // Lane atomics of one launch of lines_kernel (nblocks 0: `blocks`).
  long lanes(int reps, int nblocks = 0) const { return long(nblocks ? nblocks : blocks) * (kThreads / 32) * kIters * reps; }
  // Runs the set; returns lane atomics per cycle (median of 3 timed launches after 1 warm-up).
  double rate(const std::vector<long>& lines, int reps, double* ms_med = nullptr, double* ms_min = nullptr,
              double* ms_max = nullptr, int nblocks = 0, int warm = 1, int timed = 3) {
    CK(cudaMemcpy(dlines, lines.data(), lines.size() * sizeof(long), cudaMemcpyHostToDevice));
    const int n = static_cast<int>(lines.size());
    const int b = nblocks ? nblocks : blocks;
    double med, mn, mx;
    time_median([&] { lines_kernel<<<b, kThreads>>>(buf, dlines, n, reps); }, warm, timed, med, mn, mx);
    if (ms_med) *ms_med = med;
    if (ms_min) *ms_min = mn;
    if (ms_max) *ms_max = mx;
    return double(lanes(reps, b)) / (med * 1e-3 * mhz * 1e6);
  }
  // A pair's rate as the pair phases time it (kPairBlocks blocks; re-timed near the threshold).
  double pair(long a, long c, double threshold, double* ms) {
    double r = rate({a, c}, 1, ms, nullptr, nullptr, kPairBlocks, 0, 1);
    if (r > threshold * (1 - kAmbiguous) && r < threshold * (1 + kAmbiguous))
      r = rate({a, c}, 1, ms, nullptr, nullptr, kPairBlocks, 1, 3);
    return r;
  }
};

// The lines atomics.cu's 66-SM patterns touch with lanes 0..lanes-1 (32w + l and 33w + l),
// ascending, each once.
std::vector<long> pattern_lines(long lanes) {
  std::vector<long> lines;
  for (long w = 0; w < kPatternWarps; ++w)
    for (long l = 0; l < lanes; ++l) lines.push_back(32 * w + l), lines.push_back(33 * w + l);
  std::sort(lines.begin(), lines.end());
  lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
  return lines;
}

std::vector<long> run_greedy(Rig& g, const std::string& dir, FILE* fp, double thr, std::vector<int>& cls);
double run_sets(Rig& g, const std::string& dir, long pages);

// Each 66-SM pattern row of atomics.cu, started at kPatternPages different 2 MB pages.
void run_patterns(Rig& g, const std::string& dir) {
  FILE* fq = open_csv(dir, "patterns.csv", "base_page,pattern,active,ms_med,clock_mhz,lane_ops,lane_ops_per_clk");
  const int blocks = 66;
  const int smem = 150 * 1024;  // as atomics.cu: one block per SM
  CK(cudaFuncSetAttribute(pattern_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  for (long page = 0; page < kPatternPages; ++page)
    for (int active : {1, 2, 8})
      for (long stride : {32L, 33L}) {
        float* base = g.buf + page * kPageLines * 32;
        double med, mn, mx;
        time_median([&] { pattern_kernel<<<blocks, kThreads, smem>>>(base, stride, active, kPatternReps); }, 2, 5,
                    med, mn, mx);
        const double lanes = double(blocks) * (kThreads / 32) * active * kIters * kPatternReps;
        std::fprintf(fq, "%ld,%s,%d,%.5f,%.1f,%.0f,%.4f\n", page, stride == 32 ? "distinct" : "offset", active, med,
                     g.mhz, lanes, lanes / (med * 1e-3 * g.mhz * 1e6));
      }
  std::fclose(fq);
  std::printf("patterns: %d base pages\n", kPatternPages);
}

// One SM (and 2..16 SMs) into the 8 lines of one slice, against 8 lines of 8 slices: the greedy
// pass of the first kGreedyLines lines names the classes.
void run_smslice(Rig& g, const std::string& dir, FILE* fp, double thr) {
  std::vector<int> cls;
  const std::vector<long> reps = run_greedy(g, dir, fp, thr, cls);
  std::vector<long> one;  // 8 lines of the first class that has 8
  for (size_t c = 0; c < reps.size() && one.size() < 8; ++c) {
    one.clear();
    for (int l = 0; l < kGreedyLines && one.size() < 8; ++l)
      if (cls[static_cast<size_t>(l)] == static_cast<int>(c)) one.push_back(l);
  }
  std::vector<long> spread(reps.begin(), reps.begin() + 8);  // 8 lines in 8 slices
  FILE* fq = open_csv(dir, "smslice.csv", "target,sms,active,ms_med,clock_mhz,lane_ops,lane_ops_per_clk");
  const int smem = 150 * 1024;  // one block per SM
  CK(cudaFuncSetAttribute(smslice_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  for (const auto* set : {&one, &spread}) {
    CK(cudaMemcpy(g.dlines, set->data(), set->size() * sizeof(long), cudaMemcpyHostToDevice));
    for (int sms : {1, 2, 4, 8, 16})
      for (int active : {1, 8, 32}) {
        const int reps_n = 4;
        double med, mn, mx;
        time_median([&] { smslice_kernel<<<sms, kThreads, smem>>>(g.buf, g.dlines, 8, active, reps_n); }, 2, 5, med,
                    mn, mx);
        const double lanes = double(sms) * (kThreads / 32) * active * kIters * reps_n;
        std::fprintf(fq, "%s,%d,%d,%.5f,%.1f,%.0f,%.4f\n", set == &one ? "one_slice" : "eight_slices", sms, active, med,
                     g.mhz, lanes, lanes / (med * 1e-3 * g.mhz * 1e6));
      }
  }
  std::fclose(fq);
  std::printf("smslice: lines %ld..%ld in one slice\n", one.front(), one.back());
}

// Atomic latency from one SM of each GPC to each 1-lane pattern line.
void run_latency(Rig& g, const std::string& dir, int nsm) {
  const std::vector<long> lines = pattern_lines(1);
  long* dl = nullptr;
  long long* dc = nullptr;
  int* claim = nullptr;
  CK(cudaMalloc(&dl, lines.size() * sizeof(long)));
  CK(cudaMalloc(&dc, lines.size() * sizeof(long long)));
  CK(cudaMalloc(&claim, sizeof(int)));
  CK(cudaMemcpy(dl, lines.data(), lines.size() * sizeof(long), cudaMemcpyHostToDevice));
  FILE* fl = open_csv(dir, "latency.csv", "smid,line,cycles");
  std::vector<long long> cyc(lines.size());
  for (unsigned smid : {0u, 2u, 4u, 6u, 8u, 10u, 12u, 14u, 120u, 122u, 124u, 126u, 128u, 130u}) {
    if (smid >= static_cast<unsigned>(nsm)) continue;
    CK(cudaMemset(claim, 0, sizeof(int)));
    CK(cudaMemset(dc, 0xff, lines.size() * sizeof(long long)));
    latency_kernel<<<4 * nsm, 32>>>(g.buf, dl, static_cast<int>(lines.size()), smid, 0u, claim, dc);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(cyc.data(), dc, lines.size() * sizeof(long long), cudaMemcpyDeviceToHost));
    if (cyc[0] < 0) std::printf("SM %u: no block landed there\n", smid);
    for (size_t i = 0; i < lines.size(); ++i) std::fprintf(fl, "%u,%ld,%lld\n", smid, lines[i], cyc[i]);
  }
  std::fclose(fl);
  CK(cudaFree(dl));
  CK(cudaFree(dc));
  CK(cudaFree(claim));
  std::printf("latency: %zu lines\n", lines.size());
}

// 1. Sets of n lines, stride apart; returns the pair phases' conflict threshold.
double run_sets(Rig& g, const std::string& dir, long pages) {
  FILE* fs = open_csv(dir, "sets.csv", "set,n,stride,first,ms_med,ms_min,ms_max,clock_mhz,lane_ops,lane_ops_per_clk");
  auto set_row = [&](const char* name, int n, long stride, long first, int reps) {
    std::vector<long> lines;
    for (int i = 0; i < n; ++i) lines.push_back(first + i * stride);
    double med, mn, mx;
    const double r = g.rate(lines, reps, &med, &mn, &mx);
    std::fprintf(fs, "%s,%d,%ld,%ld,%.5f,%.5f,%.5f,%.1f,%ld,%.4f\n", name, n, stride, first, med, mn, mx, g.mhz,
                 g.lanes(reps), r);
    return r;
  };
  std::vector<double> s;
  for (long l = 0; l < 64; ++l) s.push_back(set_row("single", 1, 1, l, 1));
  for (long page = 1; page < pages; ++page) set_row("single", 1, 1, page * kPageLines, 1);
  for (long stride : {1L, 2L, 4L, 8L, 32L, 33L, 1024L, kPageLines})
    for (int n : {2, 4, 8, 16, 32, 64, 128})
      if ((n - 1) * stride < pages * kPageLines) set_row("strided", n, stride, 0, n >= 32 ? 4 : 2);
  std::fclose(fs);
  std::sort(s.begin(), s.end());
  std::printf("one line: %.3f lane atomics/cycle (median of 64 lines, %.3f..%.3f)\n", s[s.size() / 2], s.front(),
              s.back());
  // One line's rate as the pair phases time it (fewer blocks, one launch): their threshold.
  std::vector<double> s2;
  for (long l = 0; l < 16; ++l) s2.push_back(g.rate({l}, 1, nullptr, nullptr, nullptr, kPairBlocks, 1, 3));
  std::sort(s2.begin(), s2.end());
  const double one = s2[s2.size() / 2];
  std::printf("one line, %d blocks: %.3f; conflict under %.3f\n", kPairBlocks, one, kConflict * one);
  return kConflict * one;
}

// 2. The first line of pages 0 and 1 against the next kScanLines lines of its page.
void run_scan(Rig& g, FILE* fp, double thr) {
  int conflicts = 0;
  for (long page : {0L, 1L}) {
    const long ref = page * kPageLines;
    for (long c = ref + 1; c < ref + kScanLines; ++c) {
      double med;
      const double r = g.pair(ref, c, thr, &med);
      conflicts += r < thr;
      std::fprintf(fp, "scan,%ld,%ld,%.5f,%.4f\n", ref, c, med, r);
    }
  }
  std::printf("scan: %d of %d pairs under %.1f x one line\n", conflicts, 2 * (kScanLines - 1), kConflict);
}

// 3. Greedy partition of the first kGreedyLines lines; returns each class's first line.
std::vector<long> run_greedy(Rig& g, const std::string& dir, FILE* fp, double thr, std::vector<int>& cls) {
  cls.assign(kGreedyLines, -1);
  std::vector<long> ref_of(kGreedyLines, -1), reps;
  long pairs = 0;
  for (int i = 0; i < kGreedyLines && pairs < kGreedyMaxPairs; ++i) {
    if (cls[i] >= 0) continue;
    cls[i] = static_cast<int>(reps.size());
    ref_of[i] = i;
    for (int j = i + 1; j < kGreedyLines && pairs < kGreedyMaxPairs; ++j) {
      if (cls[j] >= 0) continue;
      double med;
      const double r = g.pair(i, j, thr, &med);
      ++pairs;
      std::fprintf(fp, "greedy,%d,%d,%.5f,%.4f\n", i, j, med, r);
      if (r < thr) {
        cls[j] = cls[i];
        ref_of[j] = i;
      }
    }
    reps.push_back(i);
  }
  FILE* fc = open_csv(dir, "classes.csv", "line,class,ref");
  for (int i = 0; i < kGreedyLines; ++i) std::fprintf(fc, "%d,%d,%ld\n", i, cls[i], ref_of[i]);
  std::fclose(fc);
  std::printf("greedy: %zu classes over %d lines, %ld pairs\n", reps.size(), kGreedyLines, pairs);
  return reps;
}

// 4. Page 0 and the pattern lines, each against the classes' first lines.
void run_map(Rig& g, const std::string& dir, double thr, const std::vector<int>& cls, std::vector<long> reps) {
  std::vector<long> todo = pattern_lines(kPatternLanes);  // then page 0's lines not among them
  for (long l = 0; l < kPageLines; ++l) todo.push_back(l);
  std::sort(todo.begin(), todo.end());
  todo.erase(std::unique(todo.begin(), todo.end()), todo.end());
  FILE* fm = open_csv(dir, "map.csv", "line,class,tests");
  const size_t first_reps = reps.size();
  long tests = 0;
  for (long x : todo) {
    int found = -1, t = 0;
    if (x < kGreedyLines && cls[static_cast<size_t>(x)] >= 0) {
      found = cls[static_cast<size_t>(x)];
    } else {
      for (size_t k = 0; k < reps.size() && found < 0; ++k) {
        double med;
        ++t;
        if (g.pair(reps[k], x, thr, &med) < thr) found = static_cast<int>(k);
      }
      if (found < 0) {
        found = static_cast<int>(reps.size());
        reps.push_back(x);
      }
    }
    tests += t;
    std::fprintf(fm, "%ld,%d,%d\n", x, found, t);
  }
  std::fclose(fm);
  std::printf("map: %zu lines, %ld pairs, %zu classes (%zu from the greedy pass)\n", todo.size(), tests, reps.size(),
              first_reps);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : ".";
  const std::string mode = argc > 2 ? argv[2] : "";
  if (!mode.empty() && mode != "latency" && mode != "patterns" && mode != "smslice") {
    std::fprintf(stderr, "slices: unknown mode '%s' (latency, patterns, smslice, or none for the slice map)\n",
                 mode.c_str());
    return 2;
  }
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  const int nsm = prop.multiProcessorCount;
  std::printf("device %s, %d SMs, L2 %d MB\n", prop.name, nsm, prop.l2CacheSize >> 20);

  Rig g;
  const long pages = mode == "patterns" ? kPatternPages + 5 : 8;  // a pattern spans 4.1-4.3 pages
  CK(cudaMalloc(&g.buf, pages * kPageLines * 128));
  CK(cudaMemset(g.buf, 0, pages * kPageLines * 128));
  CK(cudaMalloc(&g.dlines, 4096 * sizeof(long)));
  std::printf("buffer at %p (%s 2 MB aligned)\n", static_cast<void*>(g.buf),
              reinterpret_cast<uintptr_t>(g.buf) % (2u << 20) ? "not" : "");
  long long* dcyc = nullptr;
  CK(cudaMalloc(&dcyc, 64));
  g.blocks = 2 * nsm;
  g.mhz = clock_mhz(nsm, dcyc);
  std::printf("clock %.1f MHz\n", g.mhz);
  if (mode == "patterns") {
    run_patterns(g, dir);
  } else if (mode == "latency") {
    run_latency(g, dir, nsm);
  } else if (mode == "smslice") {
    const double thr = run_sets(g, dir, pages);
    FILE* fp = open_csv(dir, "pairs.csv", "phase,ref,cand,ms_med,lane_ops_per_clk");
    run_smslice(g, dir, fp, thr);
    std::fclose(fp);
  } else {
    const double thr = run_sets(g, dir, pages);
    FILE* fp = open_csv(dir, "pairs.csv", "phase,ref,cand,ms_med,lane_ops_per_clk");
    run_scan(g, fp, thr);
    std::vector<int> cls;
    const std::vector<long> reps = run_greedy(g, dir, fp, thr, cls);
    std::fclose(fp);
    run_map(g, dir, thr, cls, reps);
    std::printf("clock end %.1f MHz\n", clock_mhz(nsm, dcyc));
  }
  CK(cudaFree(g.buf));
  CK(cudaFree(g.dlines));
  CK(cudaFree(dcyc));
  std::printf("done\n");
  return 0;
}
