// Stimulus for ARC-HW checks: random warp instructions drawn to hit every address pattern
// and value class the contract cares about, plus a fixed list of directed corner cases.
// Shared by tests/rtl and any CLI check, so that every checker draws the same kinds of input.
#pragma once
#include <cstdint>
#include <random>
#include <vector>

#include "golden.h"

namespace arc::golden {

struct WarpCase {
  WarpInstr in;
  SchedConfig cfg;
  bool busy = false;
};

class WarpGen {
 public:
  explicit WarpGen(uint64_t seed) : rng_(seed) {}
  // Masks: empty, full, one lane, prefix, random density. Addresses: all same, k distinct,
  // all distinct, random from a small pool. Values: normals near one exponent (cancellation,
  // ties), subnormals, tiny normals, +-0, +-inf, NaNs (non-canonical payloads), huge values,
  // random bits. Config: all four modes, threshold 0..40, random busy; FTZ as given.
  WarpCase next(fp::FtzMode ftz);

  uint32_t random_mask();
  uint32_t random_value();

 private:
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(rng_() % n); }
  std::mt19937_64 rng_;
};

// Directed corners (fixed, deterministic): every mode and threshold boundary, one-lane groups,
// NaN payloads, inf + -inf, overflow, subnormal sums, -0, empty mask, route changes.
std::vector<WarpCase> directed_cases(fp::FtzMode ftz);

}  // namespace arc::golden
