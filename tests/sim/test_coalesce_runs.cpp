// Coalescing with runs (timing-only traces, coalesce.h) must price and route every request as
// the op-array form does: random instructions of 1..32 lanes over a few words, a few granules
// or many, with and without H100-style sector / multi-lane costs; per request, in order, the
// routing word, rounds, lanes carried and bytes on both sides must be equal.
#include <gtest/gtest.h>

#include <systemc>

#include <random>
#include <vector>

#include "coalesce.h"

namespace arc::sim {
namespace {

struct Seen {
  uint32_t addr, count, lanes, bytes, link_bytes, sm;
  bool operator==(const Seen& o) const {
    return addr == o.addr && count == o.count && lanes == o.lanes && bytes == o.bytes && link_bytes == o.link_bytes &&
           sm == o.sm;
  }
};

std::vector<Seen> seen(const Packet& p) {
  std::vector<Seen> v;
  for (const Request& r : p) {
    uint32_t lanes = 0;
    if (r.run()) lanes = r.one.lanes;
    else
      for (const LaneOp& op : r) lanes += op.lanes;
    v.push_back({r.addr(), r.count, lanes, r.bytes, r.link_bytes, r.sm});
  }
  return v;
}

TEST(SimCoalesce, RunsPriceAndRouteAsOpArrays) {
  std::mt19937 g(3);
  CoalesceSetup plain{32, 32, 28};                 // 128-byte granule, 28-byte round header
  CoalesceSetup h100{32, 32, 0, 0, 32, 16};        // h100.toml: 32 bytes per sector, 16 per multi-lane round
  h100.l2_header_bytes = 5;
  h100.l2_sector_bytes = 27;
  h100.instruction_bytes = 12;
  int cases = 0, with_runs = 0;
  for (const CoalesceSetup& base : {plain, h100}) {
    for (int t = 0; t < 4000; ++t) {
      const uint32_t n = 1 + g() % 32;
      const uint32_t words = 1 + g() % (t % 3 == 0 ? 2 : t % 3 == 1 ? 6 : 64);  // few words, or spread
      const uint32_t base_word = (g() % 1000) * 32;
      std::vector<uint32_t> pool;
      for (uint32_t k = 0; k < words; ++k) pool.push_back(base_word + (g() % 4 == 0 ? g() % 32 : (g() % 8) * 37));
      LaneOp ops[32];
      for (uint32_t l = 0; l < n; ++l) ops[l] = {pool[g() % pool.size()], 0, 1};
      CoalesceSetup runs = base, arrays = base;
      runs.runs = true;
      Packet a, b;
      append_requests(a, ops, n, 5, arrays);
      append_requests(b, ops, n, 5, runs);
      ASSERT_EQ(seen(a), seen(b)) << "case " << t << ", " << n << " lanes";
      ++cases;
      for (const Request& r : b) with_runs += r.run();
    }
  }
  EXPECT_GT(with_runs, 1000);
  std::printf("coalesce: %d instructions, runs == op arrays (%d run requests)\n", cases, with_runs);
}

}  // namespace
}  // namespace arc::sim

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
