// arc_special_capture: capture, on a real GPU, warp reductions whose inputs and partial sums sit
// on the corners of the numeric contract (DESIGN.md): subnormal inputs, sums that land in the
// subnormal range, signed zeros, infinities, Inf - Inf, NaN inputs, overflow, ties and
// order-sensitive sums. One trace per method (SW-S: groups of 4 lanes and whole-warp serial
// sums; SW-B: whole-warp butterflies), each with values and the GPU's partial sums, so that
//   arcsim verify --trace special-sws.arctrace           passes bit for bit (FTZ=0, as captured)
//   arcsim verify --trace special-sws.arctrace --ftz 1   fails (the flushed sums differ)
// checks the RTL, the golden model and the MPFR reference against the silicon's add.f32.
//   arc_special_capture OUT_DIR    writes OUT_DIR/special-sws.arctrace and special-swb.arctrace
// Built without -ftz / --use_fast_math (sw/CMakeLists.txt): the partial sums keep subnormals.
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "arc/reduce.cuh"
#include "arc/trace_rec.cuh"
#include "trace_out.h"

namespace {

constexpr int kWarps = 64, kThreads = 256, kN = kWarps * 32, kPrimsPerWarp = 8;

// Groups of four lane values (binary32 bits), each a corner of the contract; `what` says which.
struct Quad {
  uint32_t v[4];
  const char* what;
};
const Quad kQuads[] = {
    {{0x00C00000u, 0x80800000u, 0u, 0u}, "1.5 x 2^-126 - 2^-126: a subnormal sum"},
    {{0x80C00000u, 0x00800000u, 0x80000000u, 0u}, "its negative, then -0 and +0"},
    {{0x00000001u, 0x00000002u, 0x00000003u, 0x007FFFFFu}, "subnormal inputs"},
    {{0x80000000u, 0x80000000u, 0x80000000u, 0x80000000u}, "-0 + -0: -0"},
    {{0x80000000u, 0x00000000u, 0x80000000u, 0x80000000u}, "-0 + +0: +0"},
    {{0x7F800000u, 0xFF800000u, 0x3F800000u, 0x3F800000u}, "Inf - Inf: NaN, then finite adds"},
    {{0x7FC00000u, 0x3F800000u, 0u, 0u}, "a quiet NaN input"},
    {{0x7FA00001u, 0x3F800000u, 0u, 0u}, "a signalling NaN input with a payload"},
    {{0x7F7FFFFFu, 0x7F7FFFFFu, 0xFF7FFFFFu, 0u}, "overflow to Inf, then -max"},
    {{0xFF800000u, 0xBF800000u, 0x00000001u, 0x80000000u}, "-Inf with a subnormal"},
    {{0x3F800000u, 0x33800000u, 0x33800000u, 0u}, "1 + 2^-24 + 2^-24: ties to even, order-sensitive"},
    {{0x4B800000u, 0x3F800000u, 0x3F800000u, 0xCB800000u}, "2^24 + 1 + 1 - 2^24: order-sensitive"},
    {{0x00800001u, 0x80800000u, 0u, 0u}, "the smallest subnormal as a sum"},
    {{0x3F800000u, 0xBF800000u, 0x00400000u, 0u}, "cancellation to +0, then a subnormal"},
    {{0x01000000u, 0x81000001u, 0x00FFFFFFu, 0x80800000u}, "normals near 2^-125 cancelling into the subnormals"},
    {{0x3DCCCCCDu, 0x3E4CCCCDu, 0xBE99999Au, 0x3F000000u}, "0.1 + 0.2 - 0.3 + 0.5: ordinary rounding"},
};
constexpr int kQuadCount = sizeof kQuads / sizeof kQuads[0];

// Lane l of warp w: its value bits and its address (primitive). Even warps: groups of four lanes
// on one address each (prim w*8 + l/4, quad (w*8 + l/4) % kQuadCount). Odd warps: the whole warp
// on one address (prim w*8), lane l taking value l%4 of quad (w/2) % kQuadCount, eight copies of
// one corner in a 32-lane serial sum (SW-S) or butterfly (SW-B; a finite corner stays finite, so
// a subnormal sum is not hidden under a NaN from another corner).
uint32_t value_bits(int w, int l) {
  const int q = (w % 2 == 0) ? (w * kPrimsPerWarp + l / 4) % kQuadCount : (w / 2) % kQuadCount;
  return kQuads[q].v[l % 4];
}
__host__ __device__ int prim_of(int w, int l) { return (w % 2 == 0) ? w * kPrimsPerWarp + l / 4 : w * kPrimsPerWarp; }

template <arc::Method M>
__global__ void corners(const uint32_t* bits, float* grad, arc::TraceBuffers tb) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int w = i / 32, l = i % 32;
  arc::DevTrace rec(tb, w);
  const float v[1] = {__uint_as_float(bits[i])};
  arc::reduce<M, 1, 1>(true, prim_of(w, l), grad, 1, v, 2, rec);
}

bool check(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return true;
  std::fprintf(stderr, "arc_special_capture: %s: %s\n", what, cudaGetErrorString(e));
  return false;
}

template <arc::Method M>
bool capture(const std::string& path, const char* method, const uint32_t* dbits, float* dgrad) {
  const size_t words = size_t{kWarps} * kPrimsPerWarp;
  std::vector<float> grad(words);
  arc::TraceRecorder recorder(kWarps);
  if (!check(cudaMemset(dgrad, 0, words * sizeof(float)), "cudaMemset")) return false;
  corners<M><<<kN / kThreads, kThreads>>>(dbits, dgrad, recorder.counting());
  if (!check(cudaGetLastError(), "the counting launch")) return false;
  if (!check(cudaMemset(dgrad, 0, words * sizeof(float)), "cudaMemset")) return false;
  corners<M><<<kN / kThreads, kThreads>>>(dbits, dgrad, recorder.recording());
  if (!check(cudaGetLastError(), "the recording launch")) return false;
  const arc::TraceRecorder::Result r = recorder.collect();
  if (r.overflow) {
    std::fprintf(stderr, "arc_special_capture: %llu calls found their warp's slot range full\n",
                 static_cast<unsigned long long>(r.overflow));
    return false;
  }
  if (!check(cudaMemcpy(grad.data(), dgrad, words * sizeof(float), cudaMemcpyDeviceToHost), "cudaMemcpy")) return false;
  cudaDeviceProp prop{};
  if (!check(cudaGetDeviceProperties(&prop, 0), "cudaGetDeviceProperties")) return false;
  arc::sw::TraceInfo info;
  info.gpu_name = prop.name;
  info.sm_count = static_cast<uint32_t>(prop.multiProcessorCount);
  info.kernel_name = "corners";
  info.method = method;
  info.threshold = 2;
  info.generator = "arc_special_capture (sw/bench/special_capture.cu: fixed corner-value table)";
  info.reduce_ftz = 0;  // built without -ftz: add.f32 keeps subnormals
  info.grid_blocks = kN / kThreads;
  info.threads_per_block = kThreads;
  info.meta.emplace_back("corner_cases", std::to_string(kQuadCount));
  info.meta.emplace_back("cuda_arch", "sm_" + std::to_string(prop.major) + std::to_string(prop.minor));
  const auto st = arc::sw::write_capture(path, info, {r.heads, r.values, r.first, r.calls}, grad);
  std::printf("%s: %s, %llu instructions, %llu lane updates\n", path.c_str(), method,
              static_cast<unsigned long long>(st.instructions), static_cast<unsigned long long>(st.lanes));
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: arc_special_capture OUT_DIR  (writes special-sws.arctrace, special-swb.arctrace)\n");
    return 2;
  }
  const std::string dir = argv[1];
  std::vector<uint32_t> bits(kN);
  for (int i = 0; i < kN; ++i) bits[static_cast<size_t>(i)] = value_bits(i / 32, i % 32);
  uint32_t* dbits = nullptr;
  float* dgrad = nullptr;
  if (!check(cudaMalloc(&dbits, kN * sizeof(uint32_t)), "cudaMalloc") ||
      !check(cudaMalloc(&dgrad, size_t{kWarps} * kPrimsPerWarp * sizeof(float)), "cudaMalloc") ||
      !check(cudaMemcpy(dbits, bits.data(), kN * sizeof(uint32_t), cudaMemcpyHostToDevice), "cudaMemcpy"))
    return 1;
  try {
    const bool ok = capture<arc::Method::SwS>(dir + "/special-sws.arctrace", "sws", dbits, dgrad) &&
                    capture<arc::Method::SwB>(dir + "/special-swb.arctrace", "swb", dbits, dgrad);
    cudaFree(dbits);
    cudaFree(dgrad);
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "arc_special_capture: %s\n", e.what());
    return 1;
  }
}
