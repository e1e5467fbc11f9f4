// Where reduce() writes (gradient layouts, issue 23) and the compute floor's per-thread sink
// (issue 20). Part of arc/reduce.cuh's interface.
#pragma once
#include <cstdint>

namespace arc {

// Gradient layouts (issue 23): where parameter i of primitive `prim` lives.
//   Strided   one interleaved record per primitive: grad[prim * stride + i] (the original
//             call; vector atomics and tracing need it);
//   Arrays<NP> separate arrays as the real 3DGS codes keep them (means2D, conic, opacity,
//             colours, ...): param i at ptr[i] + prim * width[i] (ptr[i] points at the param's
//             word inside its array's record). Scalar atomics only; not traceable (the trace
//             format names one buffer and a stride).
struct Strided {
  float* grad;
  int stride;
  __device__ __forceinline__ float* target(int prim) const { return grad + static_cast<int64_t>(prim) * stride; }
};
template <int NP>
struct Arrays {
  float* ptr[NP];
  int width[NP];
  // One primitive's words: a copy of the table (no pointer to a kernel parameter, which would
  // put it in local memory); at(i) with a run-time i selects by an unrolled compare chain.
  struct Target {
    float* ptr[NP];
    int width[NP];
    int prim;
    __device__ __forceinline__ float* at(int i) const {
      float* r = ptr[0] + static_cast<int64_t>(prim) * width[0];
#pragma unroll
      for (int k = 1; k < NP; ++k)
        if (i == k) r = ptr[k] + static_cast<int64_t>(prim) * width[k];
      return r;
    }
  };
  __device__ __forceinline__ Target target(int prim) const {
    Target t;
#pragma unroll
    for (int k = 0; k < NP; ++k) t.ptr[k] = ptr[k], t.width[k] = width[k];
    t.prim = prim;
    return t;
  }
};

// Method::Floor's Rec: one float per thread that every call adds its values to, stored once
// when the thread's object ends (the kernel's end) to the last primitive's parameter-0 word.
// Constructed like arc::DevTrace (the kernels build `Rec rec(tb, warp)`).
struct FloorSink {
  float acc = 0.0f;
  float* at = nullptr;
  template <class... A>
  __device__ explicit FloorSink(const A&...) {}
  FloorSink(const FloorSink&) = delete;
  FloorSink& operator=(const FloorSink&) = delete;
  __device__ ~FloorSink() {
    if (at) *at = acc;  // plain store, once per thread
  }
  template <int NP>
  __device__ __forceinline__ void call(unsigned, unsigned, bool, uint32_t, uint32_t, const float (&)[NP], unsigned,
                                       const float (&)[NP]) {}
};
}  // namespace arc
