// RopHash (config key addr_hash): every kind maps into [0, units), one granule to one unit, and
// reaches every unit over a long run of lines (linear: exactly evenly).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <systemc>
#include <vector>

#include "error.h"
#include "rop_hash.h"

namespace arc::sim {
namespace {

TEST(RopHash, EveryKindInRangeDeterministicAndBalanced) {
  for (const char* kind : {"linear", "xor", "ipoly", "h100"}) {
    SCOPED_TRACE(kind);
    const RopHash h(kind, 44, 128);
    std::vector<uint32_t> count(44, 0);
    const uint32_t lines = 44 * 1000;
    for (uint32_t line = 0; line < lines; ++line) {
      const uint32_t u = h(line * 32);
      ASSERT_LT(u, 44u);
      EXPECT_EQ(u, h(line * 32 + 31)) << "one 128-byte granule, one unit";
      ++count[u];
    }
    uint32_t lo = lines, hi = 0;
    for (uint32_t c : count) lo = std::min(lo, c), hi = std::max(hi, c);
    if (std::string(kind) == "linear") {
      EXPECT_EQ(lo, hi);
    }
    EXPECT_GT(lo, 0u) << "every unit owns some of a long run of lines";
  }
}

// h100: what slices.cu measured: lines differing only in line bits 0 and 2 (address bits 7
// and 9) share a unit; any other single-bit flip of the line moves it in most cases.
TEST(RopHash, H100SharesLinesDifferingInBits0And2) {
  const RopHash h("h100", 80, 32);  // rop_slice_bytes plays no part
  uint32_t moved[14] = {};
  const uint32_t lines = 1u << 14;
  for (uint32_t line = 0; line < lines; ++line) {
    const uint32_t u = h(line * 32);
    ASSERT_EQ(u, h((line ^ 1u) * 32));
    ASSERT_EQ(u, h((line ^ 4u) * 32));
    ASSERT_EQ(u, h((line ^ 5u) * 32));
    for (uint32_t b = 0; b < 14; ++b) moved[b] += h((line ^ (1u << b)) * 32) != u;
  }
  for (uint32_t b : {1u, 3u, 4u, 8u, 13u}) EXPECT_GT(moved[b], lines * 9 / 10) << "line bit " << b;
}

TEST(RopHash, UnknownKindIsAnError) { EXPECT_THROW(RopHash("random", 44, 128), Error); }

}  // namespace
}  // namespace arc::sim

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
