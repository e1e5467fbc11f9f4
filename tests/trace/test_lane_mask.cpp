// cosim/common/lane_mask.h (SSE2 on x86-64) against plain per-lane loops: random lanes drawn
// to collide often, plus directed corners (all lanes equal, none, the unsigned extremes).
#include <gtest/gtest.h>

#include <cstdio>
#include <random>

#include "lane_mask.h"

namespace {

using arc::Lanes;

uint32_t ref_equal(const Lanes& a, uint32_t v) {
  uint32_t m = 0;
  for (int l = 0; l < 32; ++l) m |= static_cast<uint32_t>(a[static_cast<size_t>(l)] == v) << l;
  return m;
}
uint32_t ref_at_least(const Lanes& a, uint32_t b) {
  uint32_t m = 0;
  for (int l = 0; l < 32; ++l) m |= static_cast<uint32_t>(a[static_cast<size_t>(l)] >= b) << l;
  return m;
}

TEST(LaneMask, EqualsPlainLoopsOnRandomAndCornerLanes) {
  std::mt19937_64 rng(0x1a4e);
  const uint32_t corners[] = {0u, 1u, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFEu, 0xFFFFFFFFu};
  uint64_t checked = 0;
  for (int it = 0; it < 100000; ++it) {
    Lanes a;
    const uint32_t pool = 1u + static_cast<uint32_t>(rng() % 8);  // few distinct values: many equal lanes
    for (auto& x : a) {
      const uint64_t r = rng();
      x = r % 4 == 0 ? corners[r / 4 % 6] : static_cast<uint32_t>(r >> 32) % pool;
    }
    const uint32_t v = it % 3 == 0 ? corners[it % 6] : a[static_cast<size_t>(it % 32)];
    ASSERT_EQ(arc::lanes_equal(a, v), ref_equal(a, v)) << "case " << it;
    ASSERT_EQ(arc::lanes_nonzero(a), ~ref_equal(a, 0)) << "case " << it;
    ASSERT_EQ(arc::lanes_at_least(a, v), ref_at_least(a, v)) << "case " << it;
    const uint32_t mask = static_cast<uint32_t>(rng());
    Lanes f;
    f.fill(0xDEADBEEFu);
    arc::fill_lanes(f, v, mask);
    for (int l = 0; l < 32; ++l) ASSERT_EQ(f[static_cast<size_t>(l)], (mask >> l & 1u) ? v : 0u) << "case " << it;
    checked += 4;
  }
  for (uint32_t mask : {0u, 1u, 0x80000000u, 0xFFFFFFFFu, 0x0F0F0F0Fu}) {
    Lanes f;
    f.fill(7);
    arc::fill_lanes(f, 0xFFFFFFFFu, mask);
    for (int l = 0; l < 32; ++l) ASSERT_EQ(f[static_cast<size_t>(l)], (mask >> l & 1u) ? 0xFFFFFFFFu : 0u);
    ++checked;
  }
  std::printf("lane_mask vs plain loops: %llu checks passed\n", static_cast<unsigned long long>(checked));
}

}  // namespace
