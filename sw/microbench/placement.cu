// Issue 17: where the SM sweep's knee comes from. sms_distinct / sms_coalesced (atomics.cu) lose
// 12-38% per SM between 8 and 33 SMs although no L2 unit is busy. Is a group of SMs (a TPC, a
// GPC) sharing a path to the crossbar? Here every launch has one 32-warp block on every SM (150
// KB of shared memory allows one per SM), each block reads its SM id (%smid), and only the
// blocks on a chosen set of SMs issue REDs; the others leave at once. Sets: the first n SM ids,
// every s-th id, and the SMs a launch of n blocks lands on (as the SM sweep runs).
// Writes into argv[1]:
//   where.csv      launch_blocks,block,smid: where the SM sweep's launches of n blocks run
//   placement.csv  set,param,n,pattern,ms_med,ms_min,ms_max,clock_mhz,lane_ops,lane_ops_per_clk,
//                  instr_per_clk,smids (the set, '-'-separated)
//   per_sm.csv     set,param,pattern,smid,block_ns: each active block's own run time (last launch)
//   gpc_map.csv    smid,gpc: the SMs' GPCs as thread-block clusters reveal them (the blocks of
//                  one cluster always run on one GPC; CUDA names no GPC, so a GPC here is a
//                  set of SMs linked by shared clusters over launches of cluster sizes 2-16,
//                  numbered by its lowest SM id)
// Sets from that map: "gpc" (all SMs of GPC g), "gpc0_first" (the first k SMs of GPC 0),
// "one_per_gpc" (one SM from each of k GPCs), "tpc_in_gpc" (a TPC no cluster placed, beside each
// whole GPC: where it belongs the GPC's cap holds). PLACEMENT_SETS=gpc runs only those. Sets
// "launch" and "first" with patterns distinct_aN (N = 1, 2, 4, 8, 32 active lanes, distinct lines:
// atomics.cu's sms_active_distinct) show which blocks a few-lane launch leaves behind;
// PLACEMENT_SETS=active runs only those (and the GPC map).
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench_util.cuh"

namespace {
using namespace arc_mb;

constexpr int kThreads = 1024;
constexpr int kIters = 32;

__device__ __forceinline__ unsigned sm_id() {
  unsigned r;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(r));
  return r;
}

__global__ void where_kernel(int* out) {
  if (threadIdx.x == 0) out[blockIdx.x] = static_cast<int>(sm_id());
}

int find_root(std::vector<int>& up, int x) {
  while (up[static_cast<size_t>(x)] != x) x = up[static_cast<size_t>(x)] = up[static_cast<size_t>(up[static_cast<size_t>(x)])];
  return x;
}

// The GPC of each SM id (-1: never placed): launches of where_kernel with clusters of 2, 4, 8
// and 16 blocks (one block per SM), as many clusters as fit at once, each launch a few times;
// SMs that ever hold blocks of one cluster are joined. Also writes every cluster's SMs to
// clusters.csv (cluster_size,launch,cluster,smid).
std::vector<int> gpc_map(const std::string& dir, int nsm, int smem, int* dwhere) {
  CK(cudaFuncSetAttribute(where_kernel, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  std::vector<int> up(static_cast<size_t>(nsm));
  for (int i = 0; i < nsm; ++i) up[static_cast<size_t>(i)] = i;
  std::vector<bool> seen(static_cast<size_t>(nsm), false);
  FILE* fc = open_csv(dir, "clusters.csv", "cluster_size,launch,cluster,smid");
  for (int c : {2, 4, 8, 16}) {
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = static_cast<unsigned>(c);
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.blockDim = dim3(kThreads);
    cfg.dynamicSmemBytes = static_cast<size_t>(smem);
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    cfg.gridDim = dim3(static_cast<unsigned>(c));
    int clusters = 0;
    if (cudaOccupancyMaxActiveClusters(&clusters, where_kernel, &cfg) != cudaSuccess || clusters == 0) {
      cudaGetLastError();
      std::printf("clusters of %d: none fit\n", c);
      continue;
    }
    std::printf("clusters of %d: %d at once\n", c, clusters);
    cfg.gridDim = dim3(static_cast<unsigned>(clusters * c));
    for (int launch = 0; launch < 4; ++launch) {
      CK(cudaLaunchKernelEx(&cfg, where_kernel, dwhere));
      std::vector<int> w(static_cast<size_t>(clusters * c));
      CK(cudaMemcpy(w.data(), dwhere, sizeof(int) * w.size(), cudaMemcpyDeviceToHost));
      for (int b = 0; b < clusters * c; ++b) {
        const int sm = w[static_cast<size_t>(b)];
        std::fprintf(fc, "%d,%d,%d,%d\n", c, launch, b / c, sm);
        if (sm < 0 || sm >= nsm) continue;
        seen[static_cast<size_t>(sm)] = true;
        const int lead = w[static_cast<size_t>(b - b % c)];
        if (lead >= 0 && lead < nsm) up[static_cast<size_t>(find_root(up, sm))] = find_root(up, lead);
      }
    }
  }
  std::fclose(fc);
  std::vector<int> gpc(static_cast<size_t>(nsm), -1), label(static_cast<size_t>(nsm), -1);
  int groups = 0;
  FILE* fm = open_csv(dir, "gpc_map.csv", "smid,gpc");
  for (int sm = 0; sm < nsm; ++sm) {
    if (!seen[static_cast<size_t>(sm)]) continue;
    const int r = find_root(up, sm);
    if (label[static_cast<size_t>(r)] < 0) label[static_cast<size_t>(r)] = groups++;
    gpc[static_cast<size_t>(sm)] = label[static_cast<size_t>(r)];
    std::fprintf(fm, "%d,%d\n", sm, gpc[static_cast<size_t>(sm)]);
  }
  std::fclose(fm);
  std::printf("%d GPCs found\n", groups);
  return gpc;
}

// Warp w (global) updates region w (reg_stride floats apart); lane l its slot (l % k) x lane_stride.
// Lanes >= active only wait at the block's barriers.
struct Pattern {
  const char* name;
  int k, lane_stride, reg_stride;
  int active = 32;
};

__device__ __forceinline__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Each active block records its SM, start and end (%globaltimer, ns) in span[3 x blockIdx]:
// which SMs of a set run slower than the others.
__global__ void __launch_bounds__(kThreads) set_kernel(float* buf, Pattern pt, const unsigned char* on, int reps,
                                                       unsigned long long* span) {
  const unsigned sm = sm_id();
  if (!on[sm]) return;
  __syncthreads();
  const unsigned long long t0 = global_ns();
  const int lane = threadIdx.x & 31;
  const long gw = (static_cast<long>(blockIdx.x) * blockDim.x + threadIdx.x) >> 5;
  float* p = buf + gw * pt.reg_stride + (lane % pt.k) * pt.lane_stride;
  if (lane < pt.active)
    for (int r = 0; r < reps; ++r) {
#pragma unroll
      for (int i = 0; i < kIters; ++i) red_add(p, 1.0f);
    }
  __syncthreads();
  if (threadIdx.x == 0) {
    span[3 * blockIdx.x] = sm;
    span[3 * blockIdx.x + 1] = t0;
    span[3 * blockIdx.x + 2] = global_ns();
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : ".";
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  const int nsm = prop.multiProcessorCount;
  std::printf("device %s, %d SMs\n", prop.name, nsm);
  const int smem = 150 * 1024;  // one block per SM
  CK(cudaFuncSetAttribute(set_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  CK(cudaFuncSetAttribute(where_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
  float* buf = nullptr;
  int* dwhere = nullptr;
  unsigned char* don = nullptr;
  long long* dcyc = nullptr;
  unsigned long long* dspan = nullptr;
  CK(cudaMalloc(&dspan, sizeof(unsigned long long) * 3 * 1024));
  const size_t buf_floats = size_t(nsm) * 32 * 32 * 32 + 64;
  CK(cudaMalloc(&buf, buf_floats * sizeof(float)));
  CK(cudaMemset(buf, 0, buf_floats * sizeof(float)));
  CK(cudaMalloc(&dwhere, 4 * 1024));
  CK(cudaMalloc(&don, 1024));
  CK(cudaMalloc(&dcyc, 64));
  const double mhz = clock_mhz(nsm, dcyc);
  std::printf("clock %.1f MHz\n", mhz);

  // 1. Where the SM sweep's launches (n blocks, one per SM) run.
  FILE* fw = open_csv(dir, "where.csv", "launch_blocks,block,smid");
  std::vector<std::vector<int>> launched;
  const int sweep[] = {1, 2, 4, 8, 16, 33, 66, 99, 132};
  for (int n : sweep) {
    if (n > nsm) continue;
    where_kernel<<<n, kThreads, smem>>>(dwhere);
    CK(cudaGetLastError());
    std::vector<int> w(static_cast<size_t>(n));
    CK(cudaMemcpy(w.data(), dwhere, sizeof(int) * n, cudaMemcpyDeviceToHost));
    for (int b = 0; b < n; ++b) std::fprintf(fw, "%d,%d,%d\n", n, b, w[b]);
    launched.push_back(w);
  }
  std::fclose(fw);

  // 2. Throughput of REDs from a set of SMs, three patterns (atomics.cu's sms_* sweep).
  const Pattern pats[] = {{"distinct", 32, 32, 32 * 32}, {"coalesced", 32, 1, 32}, {"same", 1, 1, 32 * 32}};
  FILE* fp = open_csv(dir, "placement.csv",
                      "set,param,n,pattern,ms_med,ms_min,ms_max,clock_mhz,lane_ops,lane_ops_per_clk,instr_per_clk,smids");
  FILE* fs = open_csv(dir, "per_sm.csv", "set,param,pattern,smid,block_ns");
  auto run_set = [&](const char* set, int param, const std::vector<int>& sms, const Pattern& pt) {
    std::vector<unsigned char> on(1024, 0);
    for (int s : sms) on[static_cast<size_t>(s)] = 1;
    CK(cudaMemcpy(don, on.data(), on.size(), cudaMemcpyHostToDevice));
    const int n = static_cast<int>(sms.size());
    const int reps = std::max(4, 4 * 2 * nsm / n);
    double med, mn, mx;
    time_median([&] { set_kernel<<<nsm, kThreads, smem>>>(buf, pt, don, reps, dspan); }, 2, 7, med, mn, mx);
    const double instr = double(n) * 32 * kIters * reps;
    const double clk = med * 1e-3 * mhz * 1e6;
    std::string ids;
    for (int s : sms) ids += (ids.empty() ? "" : "-") + std::to_string(s);
    std::fprintf(fp, "%s,%d,%d,%s,%.5f,%.5f,%.5f,%.1f,%.0f,%.4f,%.4f,%s\n", set, param, n, pt.name, med, mn, mx, mhz,
                 instr * pt.active, instr * pt.active / clk, instr / clk, ids.c_str());
    std::vector<unsigned long long> span(3 * static_cast<size_t>(nsm));
    CK(cudaMemcpy(span.data(), dspan, sizeof(unsigned long long) * span.size(), cudaMemcpyDeviceToHost));
    for (int b = 0; b < nsm; ++b)
      if (on[span[3 * b] & 1023] && span[3 * b + 2] > span[3 * b + 1])
        std::fprintf(fs, "%s,%d,%s,%llu,%llu\n", set, param, pt.name, span[3 * b], span[3 * b + 2] - span[3 * b + 1]);
    CK(cudaMemset(dspan, 0, sizeof(unsigned long long) * span.size()));
  };
  // 3. Sets from the GPC map: a whole GPC, the first k SMs of GPC 0, one SM per GPC.
  const std::vector<int> gpc = gpc_map(dir, nsm, smem, dwhere);
  std::vector<std::vector<int>> members;
  for (int sm = 0; sm < nsm; ++sm) {
    const int g = gpc[static_cast<size_t>(sm)];
    if (g < 0) continue;
    if (static_cast<size_t>(g) >= members.size()) members.resize(static_cast<size_t>(g) + 1);
    members[static_cast<size_t>(g)].push_back(sm);
  }
  const char* only = std::getenv("PLACEMENT_SETS");
  const bool active_only = only && std::string(only) == "active";
  for (size_t p = 0; p < 2 && !active_only; ++p) {
    const Pattern& pt = pats[p];  // distinct, coalesced
    for (size_t g = 0; g < members.size(); ++g) run_set("gpc", static_cast<int>(g), members[g], pt);
    if (!members.empty())
      for (size_t k = 1; k <= members[0].size(); ++k)
        run_set("gpc0_first", static_cast<int>(k), std::vector<int>(members[0].begin(), members[0].begin() + k), pt);
    std::vector<int> spread;
    for (size_t g = 0; g < members.size(); ++g) {
      spread.push_back(members[g][0]);
      run_set("one_per_gpc", static_cast<int>(g + 1), spread, pt);
    }
    // A TPC the clusters could not place (a group of 2), added to each larger group: where it
    // belongs, the group's rate stays at that group's cap (param: group x 1000 + its first SM).
    for (size_t t = 0; t < members.size(); ++t) {
      if (members[t].size() != 2) continue;
      for (size_t g = 0; g < members.size(); ++g) {
        if (members[g].size() <= 2) continue;
        std::vector<int> both = members[g];
        both.insert(both.end(), members[t].begin(), members[t].end());
        run_set("tpc_in_gpc", static_cast<int>(g * 1000) + members[t][0], both, pt);
      }
    }
  }
  // 5. Few active lanes (atomics.cu's sms_active_distinct: distinct lines, 1..32 lanes), on the
  //    SM sweep's own launches and the first n ids: where the 66-SM launch loses throughput
  //    with 2-8 lanes, which blocks are slow (per_sm.csv). PLACEMENT_SETS=active runs only these.
  if (!only || std::string(only) == "active") {
    static const char* names[] = {"distinct_a1", "distinct_a2", "distinct_a4", "distinct_a8", "distinct_a32"};
    const int lanes[] = {1, 2, 4, 8, 32};
    for (int i = 0; i < 5; ++i) {
      const Pattern pt{names[i], 32, 32, 32 * 32, lanes[i]};
      for (size_t j = 0; j < launched.size(); ++j)
        if (launched[j].size() >= 16) run_set("launch", static_cast<int>(launched[j].size()), launched[j], pt);
      for (int n : {16, 33, 66, 99}) {
        if (n > nsm) continue;
        std::vector<int> sms;
        for (int s = 0; s < n; ++s) sms.push_back(s);
        run_set("first", n, sms, pt);
      }
    }
  }
  for (const Pattern& pt : pats) {
    if (only && (std::string(only) == "gpc" || active_only)) break;
    for (int n : {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 16, 18, 20, 24, 28, 32, 33, 36, 40, 48, 56, 64, 66, 80, 99, 132}) {
      if (n > nsm) continue;
      std::vector<int> sms;
      for (int s = 0; s < n; ++s) sms.push_back(s);
      run_set("first", n, sms, pt);
    }
    for (int stride : {2, 4, 8, 16, 33}) {
      for (int off : {0, 1}) {
        std::vector<int> sms;
        for (int s = off; s < nsm; s += stride) sms.push_back(s);
        run_set(off ? "stride_odd" : "stride", stride, sms, pt);
      }
    }
    for (size_t i = 0; i < launched.size(); ++i) run_set("launch", static_cast<int>(launched[i].size()), launched[i], pt);
    // the SM sweep's 33-block launch split into its two parts: even ids 0..48, and 124..131
    std::vector<int> evens, top8;
    for (int s = 0; s <= 48 && s < nsm; s += 2) evens.push_back(s);
    for (int s = nsm - 8; s < nsm; ++s) top8.push_back(s);
    run_set("evens", 48, evens, pt);
    run_set("top8", nsm - 8, top8, pt);
    for (int lo : {0, 16, 32, 48, 64, 80, 96, 112}) {  // 8 consecutive ids at a time
      std::vector<int> sms;
      for (int s = lo; s < lo + 8; ++s) sms.push_back(s);
      run_set("octet", lo, sms, pt);
    }
  }
  // 4. Pairs {0, j}, coalesced: which SM ids share a path with SM 0 (a shared limit shows only
  //    if it is below two SMs' rate; the first-n and stride sets show larger groups).
  if (std::getenv("PLACEMENT_PAIRS") && !active_only)
    for (int j = 1; j < nsm; ++j) run_set("pair0", j, {0, j}, pats[1]);
  std::printf("clock end %.1f MHz\n", clock_mhz(nsm, dcyc));
  std::fclose(fp);
  std::fclose(fs);
  CK(cudaFree(buf));
  std::printf("done\n");
  return 0;
}
