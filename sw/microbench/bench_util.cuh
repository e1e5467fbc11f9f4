// What the H100 microbenchmarks share (atomics.cu, placement.cu): CUDA error checks, a RED
// that the compiler cannot aggregate, a clock64 spin for the SM clock under load, a median
// of event-timed launches, and CSV output.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define CK(x)                                                                              \
  do {                                                                                     \
    cudaError_t e_ = (x);                                                                  \
    if (e_ != cudaSuccess) {                                                               \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(1);                                                                        \
    }                                                                                      \
  } while (0)

namespace arc_mb {

// One float RED through inline PTX: the compiler cannot merge a uniform-address warp's lanes.
__device__ __forceinline__ void red_add(float* p, float v) {
  asm volatile("red.global.add.f32 [%0], %1;" ::"l"(p), "f"(v) : "memory");
}

__global__ void spin_kernel(long long cycles, long long* out) {
  const long long t0 = clock64();
  while (clock64() - t0 < cycles) {
  }
  if (threadIdx.x == 0 && blockIdx.x == 0) *out = clock64() - t0;
}

struct Timer {
  cudaEvent_t a, b;
  Timer() { CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b)); }
  ~Timer() { cudaEventDestroy(a); cudaEventDestroy(b); }
};

template <class F>
void time_median(F launch, int warm, int reps, double& med, double& mn, double& mx) {
  Timer t;
  for (int i = 0; i < warm; ++i) launch();
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  std::vector<double> ms;
  for (int i = 0; i < reps; ++i) {
    CK(cudaEventRecord(t.a));
    launch();
    CK(cudaEventRecord(t.b));
    CK(cudaEventSynchronize(t.b));
    CK(cudaGetLastError());
    float m = 0;
    CK(cudaEventElapsedTime(&m, t.a, t.b));
    ms.push_back(m);
  }
  std::sort(ms.begin(), ms.end());
  med = ms[ms.size() / 2];
  mn = ms.front();
  mx = ms.back();
}

inline FILE* open_csv(const std::string& dir, const char* name, const char* header) {
  FILE* f = std::fopen((dir + "/" + name).c_str(), "w");
  if (!f) { std::perror(name); std::exit(1); }
  std::fprintf(f, "%s\n", header);
  return f;
}


// The SM clock under load in MHz: a clock64 spin of 40M cycles timed with cudaEvents.
inline double clock_mhz(int nsm, long long* dcyc) {
  const long long cyc = 40'000'000;
  double med, mn, mx;
  time_median([&] { spin_kernel<<<nsm, 128>>>(cyc, dcyc); }, 2, 5, med, mn, mx);
  return cyc / (med * 1e3);
}

}  // namespace arc_mb
