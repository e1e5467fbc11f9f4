// The seed of a test program's random vectors (FP operands, warp instructions, stall patterns):
// fresh each run (arc::fp::fresh_seed), or ARCSIM_TEST_SEED=N to repeat a run. Drawn once per
// test program; each test prints it. A test that needs several streams adds a constant to it.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fp32_vectors.h"

inline uint64_t test_seed() {
  static const uint64_t seed = [] {
    if (const char* env = std::getenv("ARCSIM_TEST_SEED")) return static_cast<uint64_t>(std::strtoull(env, nullptr, 0));
    return arc::fp::fresh_seed();
  }();
  return seed;
}

// What a test prints beside its counts (and adds to a failure), so the run can be repeated.
inline std::string seed_note() { return "ARCSIM_TEST_SEED=" + std::to_string(test_seed()) + " repeats this run"; }

// Printed (and flushed) as a test starts, so that a run that hangs, throws or is killed by a
// time-out still shows its seed; returns the note for SCOPED_TRACE.
inline std::string announce_seed() {
  const std::string note = seed_note();
  std::printf("seed: %s\n", note.c_str());
  std::fflush(stdout);
  return note;
}
