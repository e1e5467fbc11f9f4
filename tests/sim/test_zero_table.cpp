// ZeroTable (cosim/common/zero_table.h): the per-word tables of the timing model. A table starts
// zero, notes the pages handed out for writing, and the passes over it (the end-of-run checks,
// the image's hash and trip through the pipe) read only those; these tests hold each pass
// against a plain one over every element, on random sparse and dense fillings.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <systemc>
#include <utility>
#include <vector>

#include "report.h"
#include "rop.h"
#include "zero_table.h"

namespace arc::sim {
namespace {

uint64_t plain_fnv(const std::vector<uint32_t>& words) {  // FNV-1a 64 over every byte
  uint64_t h = 1469598103934665603ull;
  for (uint32_t w : words)
    for (int b = 0; b < 4; ++b) {
      h ^= (w >> (8 * b)) & 0xFF;
      h *= 1099511628211ull;
    }
  return h;
}

TEST(ZeroTable, StartsZeroAndMarksOnlyThePagesWritten) {
  ZeroTable<uint32_t> t(10000);  // 10 pages of 1024 words, the last partly used
  EXPECT_EQ(t.size(), 10000u);
  for (size_t i = 0; i < t.size(); ++i) ASSERT_EQ(std::as_const(t)[i], 0u);
  std::vector<std::pair<size_t, size_t>> runs;
  t.for_each_touched([&](size_t a, size_t b) { runs.emplace_back(a, b); });
  EXPECT_TRUE(runs.empty()) << "const reads mark nothing";
  t[5] = 7;        // page 0
  t[2048] = 9;     // page 2
  t[3071] = 1;     // page 2 again
  t[9999] = 3;     // page 9, the last (cut at the table's end)
  t.for_each_touched([&](size_t a, size_t b) { runs.emplace_back(a, b); });
  const std::vector<std::pair<size_t, size_t>> want{{0, 1024}, {2048, 3072}, {9216, 10000}};
  EXPECT_EQ(runs, want);
  EXPECT_EQ(t.get(5), 7u);
  EXPECT_EQ(t.get(1500), 0u);  // page 1: never touched, read as zero
  EXPECT_EQ(t.get(9999), 3u);
}

TEST(ZeroTable, CopiesMovesAndCompares) {
  ZeroTable<double> a(3000);
  a[1] = 1.5;
  a[2999] = -2.0;
  const ZeroTable<double> b = a;  // copies the touched pages
  EXPECT_TRUE(a == b);
  EXPECT_EQ(b[1], 1.5);
  EXPECT_EQ(b[2999], -2.0);
  EXPECT_EQ(b[1000], 0.0);
  ZeroTable<double> c = std::move(a);
  EXPECT_TRUE(c == b);
  EXPECT_TRUE(a.empty());
  c[7] = 1.0;
  EXPECT_FALSE(c == b);
  std::vector<double> v(3000, 0.0);
  v[1] = 1.5;
  v[2999] = -2.0;
  EXPECT_TRUE(b == v);
  EXPECT_EQ(ZeroTable<double>(v).to_vector(), v);
  ZeroTable<uint32_t> d(100);
  std::fill(d.begin(), d.end(), 4u);  // a mutable range marks the whole table
  size_t seen = 0;
  d.for_each_touched([&](size_t x, size_t y) { seen += y - x; });
  EXPECT_EQ(seen, 100u);
}

TEST(ZeroTable, UnionOfTablesOfDifferentElementSizes) {
  ZeroTable<WordState> w(5000);  // 256 per page
  ZeroTable<uint32_t> n(5000);   // 1024 per page
  w[300].arrived = 1;            // words 256..511
  n[4999] = 1;                   // words 4096..4999
  n[400] = 1;                    // words 0..1023, overlapping w's page
  std::vector<std::pair<size_t, size_t>> runs;
  for_each_touched_in_any([&](size_t a, size_t b) { runs.emplace_back(a, b); }, w, n);
  const std::vector<std::pair<size_t, size_t>> want{{0, 1024}, {4096, 5000}};
  EXPECT_EQ(runs, want);
}

// The image's hash reads only touched pages (a run of untouched words is one multiplication):
// it must equal FNV-1a over every byte, on random images from empty to dense.
TEST(ZeroTable, SparseImageHashEqualsThePlainOne) {
  std::mt19937_64 rng(20261128);
  for (int trial = 0; trial < 200; ++trial) {
    const size_t n = 1 + rng() % 20000;
    ZeroTable<uint32_t> t(n);
    std::vector<uint32_t> plain(n, 0);
    const size_t writes = trial % 4 == 0 ? 0 : rng() % (trial % 3 == 0 ? n : 8);
    for (size_t k = 0; k < writes; ++k) {
      const size_t i = rng() % n;
      const auto v = static_cast<uint32_t>(trial % 5 == 0 ? 0 : rng());  // a touched word may stay 0
      t[i] = v;
      plain[i] = v;
    }
    ASSERT_EQ(image_hash(t), plain_fnv(plain)) << "trial " << trial << ": " << n << " words, " << writes << " writes";
  }
}

}  // namespace
}  // namespace arc::sim

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
