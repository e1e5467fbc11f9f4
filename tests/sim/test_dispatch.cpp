// Dispatch (cosim/sim/dispatch.h), a sub-core's one-instruction-per-cycle dispatch as a fluid:
// work below its rate delays nobody, work above it is pushed out by exactly what does not
// fit, it never dispatches faster than one instruction a cycle, and past cycles are not reused.
#include <gtest/gtest.h>

#include <systemc>

#include <algorithm>
#include <random>

#include "dispatch.h"

namespace arc::sim {
namespace {

constexpr uint64_t U = Dispatch::kUnit;

TEST(Dispatch, WorkBelowItsRateEndsWithItsWindow) {
  // Three warps' compute at rates 0.3, 0.3 and 0.35 over overlapping windows: 0.95 of the
  // dispatch at most, so no gap ends late (a queue of whole blocks would push the third one
  // out by the first two's 600 instructions).
  Dispatch d;
  EXPECT_EQ(d.reserve(0, 1000, 300 * U), 1000u);
  EXPECT_EQ(d.reserve(0, 1000, 300 * U), 1000u);
  EXPECT_EQ(d.reserve(128, 1000, 350 * U), 1128u);
  EXPECT_EQ(d.late_parts(), 0u);
  EXPECT_EQ(d.late_cycles(), 0u);
}

TEST(Dispatch, WorkAboveItsRateIsPushedOutByWhatDoesNotFit) {
  Dispatch d;
  EXPECT_EQ(d.reserve(0, 1024, 1024 * U), 1024u);  // the whole window
  // Another 256 instructions over the same cycles find no room: they go after it, back to back.
  EXPECT_EQ(d.reserve(0, 1024, 256 * U), 1024u + 256u);
  EXPECT_EQ(d.late_parts(), 256 * U);
  EXPECT_EQ(d.late_cycles(), 256u);
  // A burst of 10 from cycle 100 waits behind both.
  EXPECT_EQ(d.reserve(100, 10, 10 * U), 1024u + 256u + 10u);
}

TEST(Dispatch, PastCyclesAreNotReused) {
  Dispatch d;
  // From the middle of a bucket: only its cycles from there on.
  const Cycle half = Dispatch::kBucketCycles / 2;
  EXPECT_EQ(d.reserve(half, Dispatch::kBucketCycles, Dispatch::kBucketCycles * U), half + Dispatch::kBucketCycles);
  // Later, from a later bucket: the earlier buckets are gone, their room too.
  EXPECT_EQ(d.reserve(10 * Dispatch::kBucketCycles, 1, U), 10 * Dispatch::kBucketCycles + 1);
}

TEST(Dispatch, NeverFasterThanOneInstructionACycleAndNoIdleWhileWorkWaits) {
  // Random warps' compute and SW bursts from a moving clock: every reservation ends no earlier
  // than its window and than its own instructions at one a cycle; when all of them start
  // together at full demand the last one ends when the total is dispatched (to a bucket's
  // rounding), not later.
  std::mt19937_64 g(17);
  for (int round = 0; round < 50; ++round) {
    Dispatch d;
    Cycle now = 0, last = 0;
    uint64_t total = 0;
    for (int k = 0; k < 400; ++k) {
      now += g() % 3;
      const Cycle span = 1 + g() % 3000;
      const uint64_t parts = g() % (span * U + 1);
      const Cycle done = d.reserve(now, span, parts);
      EXPECT_GE(done, now + span);
      EXPECT_GE(done, now + parts / U);
      last = std::max(last, done);
      total += parts;
    }
    // All of it from cycle 0 on: at least total / U cycles of dispatch.
    EXPECT_GE(last, total / U);
  }
  Dispatch d;
  uint64_t total = 0;
  Cycle last = 0;
  for (int k = 0; k < 100; ++k) {
    const uint64_t parts = (50 + g() % 100) * U;
    last = std::max(last, d.reserve(0, 64, parts));
    total += parts;
  }
  EXPECT_GE(last, total / U);
  EXPECT_LE(last, total / U + Dispatch::kBucketCycles);
}

}  // namespace
}  // namespace arc::sim

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
