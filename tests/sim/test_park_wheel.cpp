// ParkWheel (cosim/sim/park_wheel.h), the crossbar's parked SMs, against a plain ordered
// multimap: random parks near (the wheel) and far (the heap, beyond its reach), releases at
// random later cycles, some skipping more than the wheel's span; every release must hand out
// exactly the ids due, and next() must name the earliest cycle still parked.
#include <gtest/gtest.h>

#include <systemc>

#include <algorithm>
#include <map>
#include <random>
#include <vector>

#include "park_wheel.h"

namespace arc::sim {
namespace {

TEST(ParkWheel, ReleasesWhatAnOrderedMapSaysIsDue) {
  std::mt19937_64 g(5);
  ParkWheel wheel;
  std::multimap<Cycle, uint32_t> ref;
  Cycle now = 0;
  uint64_t released = 0, far = 0;
  for (int step = 0; step < 20000; ++step) {
    // Advance: mostly by a cycle or a few, sometimes past the wheel's 1024-cycle span.
    const uint64_t r = g() % 100;
    now += r < 80 ? 1 + g() % 4 : r < 97 ? g() % 300 : 1000 + g() % 5000;
    std::vector<uint32_t> got;
    wheel.release(now, [&](uint32_t id) { got.push_back(id); });
    std::vector<uint32_t> want;
    while (!ref.empty() && ref.begin()->first <= now) {
      want.push_back(ref.begin()->second);
      ref.erase(ref.begin());
    }
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
    ASSERT_EQ(got, want) << "release at cycle " << now;
    released += got.size();
    // Park a few: near, or far beyond the wheel.
    for (uint64_t k = g() % 4; k > 0; --k) {
      const Cycle at = now + 1 + (g() % 10 == 0 ? 1024 + g() % 20000 : g() % 1023);
      const uint32_t id = static_cast<uint32_t>(g() % 132);
      far += at - now >= 1024;
      wheel.park(at, id);
      ref.emplace(at, id);
    }
    ASSERT_EQ(wheel.next(), ref.empty() ? kNever : ref.begin()->first) << "next() at cycle " << now;
  }
  EXPECT_GT(released, 10000u);
  EXPECT_GT(far, 1000u);
  std::printf("park wheel: 20000 steps, %llu ids released as the map says (%llu parked beyond the wheel)\n",
              static_cast<unsigned long long>(released), static_cast<unsigned long long>(far));
}

}  // namespace
}  // namespace arc::sim

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
