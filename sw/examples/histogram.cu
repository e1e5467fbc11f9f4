// Capture a CUDA kernel's float atomics (lane values and warp partial sums) into an ARCsim trace:
//   ./histogram out.arctrace && arcsim verify --trace out.arctrace && arcsim sim --gpu h100 --trace out.arctrace
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "arc/reduce.cuh"     // arc::reduce (arcsim::recorder)
#include "arc/trace_rec.cuh"  // arc::DevTrace, arc::TraceRecorder
#include "trace_out.h"        // arc::sw::write_capture (arcsim::capture)

constexpr int kN = 1 << 14, kBins = 64, kThreads = 256;

// Every CUDA call is checked: a failed one would otherwise leave a trace with no calls.
static void check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return;
  std::fprintf(stderr, "histogram: %s: %s\n", what, cudaGetErrorString(e));
  std::exit(1);
}

__global__ void histogram(const float* x, float* bins, arc::TraceBuffers tb) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  arc::DevTrace rec(tb, i / 32);  // one recorder per warp, named by its global warp number
  const float v[1] = {x[i]};
  // bins[(i / 4) % kBins] += x[i]: lanes of one bin are summed in the warp (SW-S, groups of
  // >= 2 lanes), then one atomicAdd per group; rec sees every lane's address and value.
  arc::reduce<arc::Method::SwS, 1, 1>(true, (i / 4) % kBins, bins, 1, v, 2, rec);
}

int main(int argc, char** argv) {
  std::vector<float> x(kN), bins(kBins);
  for (int i = 0; i < kN; ++i) x[i] = 0.001f * static_cast<float>(i % 977) - 0.3f;
  float *dx = nullptr, *dbins = nullptr;
  check(cudaMalloc(&dx, kN * sizeof(float)), "cudaMalloc");
  check(cudaMalloc(&dbins, kBins * sizeof(float)), "cudaMalloc");
  check(cudaMemcpy(dx, x.data(), kN * sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy");
  check(cudaMemset(dbins, 0, kBins * sizeof(float)), "cudaMemset");
  arc::TraceRecorder recorder(/*warps=*/kN / 32);
  histogram<<<kN / kThreads, kThreads>>>(dx, dbins, recorder.counting());  // pass 1 counts calls
  check(cudaGetLastError(), "the counting launch");
  check(cudaMemset(dbins, 0, kBins * sizeof(float)), "cudaMemset");
  histogram<<<kN / kThreads, kThreads>>>(dx, dbins, recorder.recording());  // pass 2 records them
  check(cudaGetLastError(), "the recording launch");
  const arc::TraceRecorder::Result r = recorder.collect();  // waits for the kernel
  if (r.overflow) {  // pass 2 made more calls than pass 1 counted: the trace would miss them
    std::fprintf(stderr, "histogram: %llu calls found their warp's slot range full\n",
                 static_cast<unsigned long long>(r.overflow));
    return 1;
  }
  check(cudaMemcpy(bins.data(), dbins, kBins * sizeof(float), cudaMemcpyDeviceToHost), "cudaMemcpy");
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties");
  arc::sw::TraceInfo info;
  info.gpu_name = prop.name;
  info.sm_count = static_cast<uint32_t>(prop.multiProcessorCount);
  info.kernel_name = "histogram";
  info.method = "sws";  // what the kernel did: baseline, sws, swb, cub, adaptive
  info.threshold = 2;
  info.grid_blocks = kN / kThreads;
  info.threads_per_block = kThreads;
  const auto st =
      arc::sw::write_capture(argc > 1 ? argv[1] : "histogram.arctrace", info, {r.heads, r.values, r.first, r.calls}, bins);
  std::printf("%llu instructions, %llu lane updates\n", static_cast<unsigned long long>(st.instructions),
              static_cast<unsigned long long>(st.lanes));
  cudaFree(dx);
  cudaFree(dbins);
}
