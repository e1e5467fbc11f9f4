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
  for (const char* kind : {"linear", "xor", "ipoly"}) {
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

TEST(RopHash, UnknownKindIsAnError) { EXPECT_THROW(RopHash("random", 44, 128), Error); }

}  // namespace
}  // namespace arc::sim

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
