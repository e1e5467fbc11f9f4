// CUDA helpers shared by the workloads: checked calls, an RAII device buffer, event timing,
// and the run-time -> compile-time method dispatch.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "arc/reduce.cuh"
#include "arc/trace_rec.cuh"
#include "args.h"
#include "error.h"

namespace arc::sw {

inline void cuda_check(cudaError_t e, const char* what, const char* file, int line) {
  if (e != cudaSuccess)
    throw arc::Error(std::string("CUDA error ") + cudaGetErrorString(e) + " at " + file + ":" +
                     std::to_string(line) + ": " + what);
}
#define ARC_CUDA(x) ::arc::sw::cuda_check((x), #x, __FILE__, __LINE__)
#define ARC_LAUNCH() ARC_CUDA(cudaGetLastError())

template <class T>
class DevBuf {
 public:
  DevBuf() = default;
  explicit DevBuf(size_t n) { resize(n); }
  ~DevBuf() { release(); }
  DevBuf(const DevBuf&) = delete;
  DevBuf& operator=(const DevBuf&) = delete;
  void resize(size_t n) {
    if (n <= cap_) {
      n_ = n;
      return;
    }
    release();
    ARC_CUDA(cudaMalloc(&p_, std::max<size_t>(n, 1) * sizeof(T)));
    n_ = cap_ = n;
  }
  void zero() { ARC_CUDA(cudaMemset(p_, 0, n_ * sizeof(T))); }
  void upload(const std::vector<T>& v) {
    resize(v.size());
    ARC_CUDA(cudaMemcpy(p_, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
  }
  std::vector<T> download() const { return download(n_); }
  std::vector<T> download(size_t n) const {  // the first n elements
    n = std::min(n, n_);
    std::vector<T> v(n);
    if (n) ARC_CUDA(cudaMemcpy(v.data(), p_, n * sizeof(T), cudaMemcpyDeviceToHost));
    return v;
  }
  T* get() const { return p_; }
  size_t size() const { return n_; }

 private:
  void release() {
    if (p_) cudaFree(p_);
    p_ = nullptr;
    n_ = cap_ = 0;
  }
  T* p_ = nullptr;
  size_t n_ = 0, cap_ = 0;
};

class EventTimer {
 public:
  EventTimer() {
    ARC_CUDA(cudaEventCreate(&a_));
    ARC_CUDA(cudaEventCreate(&b_));
  }
  ~EventTimer() {
    cudaEventDestroy(a_);
    cudaEventDestroy(b_);
  }
  EventTimer(const EventTimer&) = delete;
  EventTimer& operator=(const EventTimer&) = delete;
  void start() { ARC_CUDA(cudaEventRecord(a_)); }
  float stop() {
    ARC_CUDA(cudaEventRecord(b_));
    ARC_CUDA(cudaEventSynchronize(b_));
    float ms = 0;
    ARC_CUDA(cudaEventElapsedTime(&ms, a_, b_));
    return ms;
  }

 private:
  cudaEvent_t a_, b_;
};

template <arc::Method M>
using MethodC = std::integral_constant<arc::Method, M>;
template <int V>
using VecC = std::integral_constant<int, V>;

// Calls f(MethodC<M>{}, VecC<V>{}) for the named method; vector widths 1 and 4.
template <class F>
void dispatch(const MethodSpec& m, F&& f) {
  auto by_vec = [&](auto mc) {
    if (m.vec == 1) f(mc, VecC<1>{});
    else if (m.vec == 4) f(mc, VecC<4>{});
    else throw arc::Error("method " + m.label() + ": only vector widths 1 and 4 are built");
  };
  if (m.name == "baseline") by_vec(MethodC<arc::Method::Baseline>{});
  else if (m.name == "sws") by_vec(MethodC<arc::Method::SwS>{});
  else if (m.name == "swb") by_vec(MethodC<arc::Method::SwB>{});
  else if (m.name == "cub") by_vec(MethodC<arc::Method::Cub>{});
  else if (m.name == "adaptive") by_vec(MethodC<arc::Method::Adaptive>{});
  else throw arc::Error("unknown method " + m.name);
}

// Same, scalar atomics only (trace capture).
template <class F>
void dispatch_scalar(const std::string& name, F&& f) {
  dispatch(MethodSpec{name, 1}, [&](auto mc, auto) { f(mc); });
}

inline unsigned div_up(unsigned a, unsigned b) { return (a + b - 1) / b; }

}  // namespace arc::sw
