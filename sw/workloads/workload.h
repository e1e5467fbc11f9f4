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

struct CaptureResult {
  std::vector<DevInstr> recs;
  std::vector<float> grads;
  uint64_t asked = 0;  // records the kernel wanted to write (> recs.size() = overflow)
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
  virtual CaptureResult capture(const std::string& method, int threshold, uint64_t cap) = 0;
  // Finite differences of the fixed loss on this (small) scene vs the GPU baseline
  // gradient; returns the relative L2 error over all checked parameters.
  virtual double fd_check(std::string& detail) = 0;
};

std::unique_ptr<Workload> make_gs(int width, int height, size_t n, uint64_t seed);
std::unique_ptr<Workload> make_pulsar(int width, int height, size_t n, uint64_t seed);
std::unique_ptr<Workload> make_tex(int width, int height, int tex_w, int tex_h, uint64_t seed);

}  // namespace arc::sw
