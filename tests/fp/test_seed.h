// The seed of the random FP vectors in these tests: fresh each run (arc::fp::fresh_seed), or
// ARCSIM_TEST_SEED=N to repeat a run. Drawn once per test program; the tests print it.
#pragma once
#include <cstdint>
#include <cstdlib>

#include "fp32_vectors.h"

inline uint64_t test_seed() {
  static const uint64_t seed = [] {
    if (const char* env = std::getenv("ARCSIM_TEST_SEED")) return static_cast<uint64_t>(std::strtoull(env, nullptr, 0));
    return arc::fp::fresh_seed();
  }();
  return seed;
}
