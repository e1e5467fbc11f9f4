// The interface the benchmark drives: one differentiable-rendering workload on the GPU.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "args.h"
#include "arc/trace_rec.h"

namespace arc::sw {

// One capture (two launches, see arc/trace_rec.cuh): the records of every warp, in warp order
// (warp w's calls are slots first[w] .. first[w] + calls[w] of heads and values), the gradient
// buffer after the recording pass, and what the recorder cost.
struct CaptureResult {
  std::vector<DevCallHead> heads;
  std::vector<DevCallValues> values;  // empty: a timing-only capture (capture_values = false)
  std::vector<uint64_t> first;  // per warp: its first slot (size warps + 1)
  std::vector<uint64_t> calls;  // per warp: calls recorded
  std::vector<float> grads;
  uint64_t overflow = 0;        // calls that found no slot (the passes disagreed)
  uint64_t device_bytes = 0;    // the record buffers of the recording pass on the GPU
  float untraced_ms = 0, count_ms = 0, record_ms = 0;  // the kernel without recorder, counting, recording
  uint32_t grid_blocks = 0, threads_per_block = 0, resident_warps_per_sm = 0;
};

class Workload {
 public:
  virtual ~Workload() = default;
  virtual std::string name() const = 0;
  virtual std::string kernel_name() const = 0;
  virtual std::string generator() const = 0;
  virtual uint64_t seed() const = 0;
  virtual std::vector<std::pair<std::string, std::string>> describe() const = 0;  // scene stats
  virtual bool supports(const MethodSpec& m) const = 0;  // SW-B/CUB need convergent warps
  virtual void forward() = 0;                                      // render (timed as fwd)
  virtual void backward(const MethodSpec& m, int threshold) = 0;   // zero grads + backward
  virtual std::vector<float> grads() const = 0;                    // after backward()
  virtual CaptureResult capture(const std::string& method, int threshold) = 0;
  bool capture_values = true;  // capture(): the recorder stores lane values and sums (false: timing-only)
  // Finite differences of the fixed loss on this (small) scene vs the GPU gradient of method
  // m at threshold thr; returns the relative L2 error over all checked parameters.
  virtual double fd_check(std::string& detail, const MethodSpec& m, int thr) = 0;
};

// scene: "fog" (gauss-frustum-v1, workload "gs"), "garden" / "object" (gauss-surface-v1,
// workloads "gs-garden" / "gs-object"). separate: the real codes' separate gradient arrays
// (default); false: the interleaved 12-word record, workload name + "-il". absgrad (separate
// only): gsplat's absgrad as 2 more parameters per call (11), workload name + "-abs".
// invdepth (separate only, not with absgrad): the inverse-depth gradient as a 10th value per
// call (newer 3DGS codes), workload name + "-depth".
std::unique_ptr<Workload> make_gs(int width, int height, size_t n, uint64_t seed, const std::string& scene = "fog",
                                  bool separate = true, bool absgrad = false, bool invdepth = false);
std::unique_ptr<Workload> make_pulsar(int width, int height, size_t n, uint64_t seed);
std::unique_ptr<Workload> make_tex(int width, int height, int tex_w, int tex_h, uint64_t seed);

}  // namespace arc::sw
