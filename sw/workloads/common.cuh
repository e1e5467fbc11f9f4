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
#include "workload.h"

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

// Calls f(MethodC<M>{}, VecC<O>{}) for the named method, O its arc::opts option word. The
// combinations built (each one is a kernel instantiation per workload):
//   every method x {scalar, float4, CAS loop, clamp}, Block only where kBlock (the workload
//   calls reduce from every thread of the block: the barriers need them all);
//   Baseline x {no-atomics (scalar, float4), empty-warp skip}; block-cas-clamp (the shader);
//   where kNew (issues 20/23): floor (the compute floor, scalar only: it writes nothing),
//   gsplat (scalar, as gsplat sends), swt x {scalar, float4}.
// Untraced kernels take Rec = arc::UntracedRec<M> (FloorSink for the floor).
template <bool kBlock = false, bool kNew = true, class F>
void dispatch(const MethodSpec& m, F&& f) {
  using arc::AddOp;
  const AddOp add = m.add == "cas" ? AddOp::Cas : m.add == "noatomic" ? AddOp::Racy : AddOp::Atomic;
  const int want = arc::opts(m.vec, add, m.clamp, m.skip);
  bool done = false;
  auto one = [&](auto mc, auto oc) {
    if (!done && decltype(oc)::value == want) f(mc, oc), done = true;
  };
  auto common = [&](auto mc) {
    one(mc, VecC<arc::opts(1)>{});
    one(mc, VecC<arc::opts(4)>{});
    one(mc, VecC<arc::opts(1, AddOp::Cas)>{});
    one(mc, VecC<arc::opts(1, AddOp::Atomic, true)>{});
  };
  if (m.name == "baseline") {
    common(MethodC<arc::Method::Baseline>{});
    one(MethodC<arc::Method::Baseline>{}, VecC<arc::opts(1, AddOp::Racy)>{});
    one(MethodC<arc::Method::Baseline>{}, VecC<arc::opts(4, AddOp::Racy)>{});
    one(MethodC<arc::Method::Baseline>{}, VecC<arc::opts(1, AddOp::Atomic, false, true)>{});
  } else if (m.name == "sws") common(MethodC<arc::Method::SwS>{});
  else if (m.name == "swb") common(MethodC<arc::Method::SwB>{});
  else if (m.name == "cub") common(MethodC<arc::Method::Cub>{});
  else if (m.name == "adaptive") common(MethodC<arc::Method::Adaptive>{});
  else if (m.name == "block") {
    if constexpr (kBlock) {
      common(MethodC<arc::Method::Block>{});
      one(MethodC<arc::Method::Block>{}, VecC<arc::opts(1, AddOp::Cas, true)>{});
    }
  } else if (m.name == "floor" || m.name == "gsplat" || m.name == "swt") {
    if constexpr (kNew) {
      if (m.name == "floor") one(MethodC<arc::Method::Floor>{}, VecC<arc::opts(1)>{});
      if (m.name == "gsplat") one(MethodC<arc::Method::Gsplat>{}, VecC<arc::opts(1)>{});
      if (m.name == "swt") {
        one(MethodC<arc::Method::Swt>{}, VecC<arc::opts(1)>{});
        one(MethodC<arc::Method::Swt>{}, VecC<arc::opts(4)>{});
      }
    }
  } else if (m.name == "shm") {
    throw arc::Error("method shm (block privatization) is built only for pulsar and tex");
  } else if (m.name == "regroup") {
    throw arc::Error("method regroup (tex's lanes regrouped per texel row) is built only for tex");
  } else if (m.name == "tile") {
    throw arc::Error("method tile (sums over the tile list) is built only for pulsar");
  } else {
    throw arc::Error("unknown method " + m.name);
  }
  if (!done) throw arc::Error("method " + m.label() + " is not built for this workload");
}

// "shm" (arc/shm.cuh), "tile" (pulsar.cu) and "regroup" (tex.cu), issue 20, workload-level
// kernels: calls f(VecC<O>{}) for scalar or float4 atomics.
template <class F>
void dispatch_shm(const MethodSpec& m, F&& f) {
  if (m.vec == 1) f(VecC<arc::opts(1)>{});
  else if (m.vec == 4) f(VecC<arc::opts(4)>{});
  else throw arc::Error("method " + m.label() + " is not built (" + m.name + " takes -v4 only)");
}

// Plain methods, scalar atomics only (trace capture; Block is not traceable).
template <class F>
void dispatch_scalar(const std::string& name, F&& f) {
  if (name == "block") throw arc::Error("trace: the block-level method is not traceable");
  // The floor is traced (issue 17: compute gaps free of atomic traffic); it writes no gradient.
  if (name == "shm") throw arc::Error("trace: shm (block-level shared-memory privatization) is not traceable");
  if (name == "regroup") throw arc::Error("trace: regroup (tex's lanes regrouped per texel row) is not traced");
  if (name == "tile") throw arc::Error("trace: tile (block-level sums over the tile list) is not traceable");
  auto g = [&](auto mc) {
    if constexpr (decltype(mc)::value != arc::Method::Block) f(mc);
  };
  if (name == "baseline") g(MethodC<arc::Method::Baseline>{});
  else if (name == "sws") g(MethodC<arc::Method::SwS>{});
  else if (name == "swb") g(MethodC<arc::Method::SwB>{});
  else if (name == "cub") g(MethodC<arc::Method::Cub>{});
  else if (name == "adaptive") g(MethodC<arc::Method::Adaptive>{});
  else if (name == "gsplat") g(MethodC<arc::Method::Gsplat>{});
  else if (name == "swt") g(MethodC<arc::Method::Swt>{});
  else if (name == "floor") g(MethodC<arc::Method::Floor>{});
  else throw arc::Error("unknown method " + name);
}

inline unsigned div_up(unsigned a, unsigned b) { return (a + b - 1) / b; }

// One trace capture of a workload's backward kernel (arc::TraceRecorder, arc/trace_rec.cuh):
// `plain()` runs it untraced (zeroing the gradients itself), `traced(tb)` launches the traced
// kernel, `zero()` clears the gradients.
// Times the untraced kernel (second of two runs), the counting pass and the recording pass, so
// the recorder's own cost is known; the gradients returned are the recording pass's.
template <class Plain, class Traced, class Zero>
CaptureResult run_capture(size_t warps, const DevBuf<float>& grad, Plain&& plain, Traced&& traced, Zero&& zero,
                          bool values = true) {
  EventTimer t;
  plain();
  t.start();
  plain();
  const float untraced = t.stop();
  arc::TraceRecorder rec(warps);
  zero();
  t.start();
  traced(rec.counting());
  ARC_LAUNCH();
  const float count = t.stop();
  const arc::TraceBuffers tb = rec.recording(values);
  zero();
  t.start();
  traced(tb);
  ARC_LAUNCH();
  const float record = t.stop();
  arc::TraceRecorder::Result got = rec.collect();
  CaptureResult r;
  r.heads = std::move(got.heads);
  r.values = std::move(got.values);
  r.device_bytes = got.device_bytes;
  r.first = std::move(got.first);
  r.calls = std::move(got.calls);
  r.overflow = got.overflow;
  r.grads = grad.download();
  r.untraced_ms = untraced;
  r.count_ms = count;
  r.record_ms = record;
  return r;
}

}  // namespace arc::sw
