// Dispatch (cosim/sim/dispatch.h), a sub-core's one-instruction-per-cycle dispatch as a fluid:
// work below its rate delays nobody, work above it is pushed out by exactly what does not
// fit, it never dispatches faster than one instruction a cycle (to a bucket), past cycles are
// not reused, and an empty reservation costs nothing.
#include <gtest/gtest.h>

#include <systemc>

#include <algorithm>
#include <random>
#include <stdexcept>
#include <vector>

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
  const Cycle B = Dispatch::kBucketCycles;
  // From the middle of a bucket: only its cycles from there on (a full bucket's worth from
  // half-way ends half a bucket after the bucket).
  EXPECT_EQ(d.reserve(B / 2, B / 2, B * U), B / 2 + B);
  // A bucket left behind is emptied before its slot in the ring serves a later bucket: a full
  // bucket, then a full bucket 64 buckets on (the same slot of a 64-bucket ring).
  Dispatch e;
  EXPECT_EQ(e.reserve(0, B, B * U), B);
  EXPECT_EQ(e.reserve(64 * B, B, B * U), 65 * B);
  // Going back to an earlier bucket is a caller's bug, reported, not a wrong answer.
  EXPECT_THROW(e.reserve(0, 1, U), std::logic_error);
}

TEST(Dispatch, NothingToDispatchIsTheWindowAlone) {
  Dispatch d;
  EXPECT_EQ(d.reserve(100, 0, 0), 100u);  // a gap of 0 with no instructions: ready at once
  EXPECT_EQ(d.reserve(100, 37, 0), 137u);
  EXPECT_EQ(d.reserve(100, 0, U), 101u);  // one instruction takes a cycle
}

TEST(Dispatch, SharesSumExactlyOverLongWindows) {
  // 0.3 instructions per cycle over 320,000 cycles on an empty dispatch fits: it ends with its
  // window, not later (rounding each bucket's share down must not pile up at the end).
  Dispatch d;
  EXPECT_EQ(d.reserve(0, 320000, static_cast<uint64_t>(0.3 * 320000 * U)), 320000u);
  EXPECT_EQ(d.late_parts(), 0u);
}

TEST(Dispatch, NeverFasterThanOneInstructionACycle) {
  // Random warps' compute and SW bursts from a moving clock. For every cycle t, the
  // reservations made from t on cannot all be done before t + their instructions (one a cycle),
  // less one bucket (the fluid's resolution: dispatch.h); and each ends no earlier than its window.
  std::mt19937_64 g(17);
  for (int round = 0; round < 50; ++round) {
    Dispatch d;
    Cycle now = 0;
    struct Made {
      Cycle from;
      uint64_t parts;
      Cycle done;
    };
    std::vector<Made> made;
    for (int k = 0; k < 400; ++k) {
      now += g() % 3;
      const Cycle span = 1 + g() % 3000;
      const uint64_t parts = g() % (span * U + 1);
      const Cycle done = d.reserve(now, span, parts);
      EXPECT_GE(done, now + span);
      made.push_back({now, parts, done});
    }
    for (size_t i = 0; i < made.size(); i += 7) {
      uint64_t parts = 0;
      Cycle last = 0;
      for (size_t j = i; j < made.size(); ++j) {
        parts += made[j].parts;
        last = std::max(last, made[j].done);
      }
      EXPECT_GE(last + Dispatch::kBucketCycles, made[i].from + parts / U) << "round " << round << " from " << made[i].from;
    }
  }
}

TEST(Dispatch, NoIdleWhileWorkWaits) {
  // All at once, past what the dispatch gives: the last ends when the total is dispatched (to
  // a bucket's rounding), not later.
  std::mt19937_64 g(5);
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
