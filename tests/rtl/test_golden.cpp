// arc::golden on hand-worked cases: grouping and its order, serial vs butterfly order, the
// one-lane and empty sums, every scheduler mode, process() order and the ROP memory image.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#if defined(__x86_64__) && defined(__SSE2__)
#include <xmmintrin.h>
#endif
#include <vector>

#include "error.h"
#include "golden.h"
#include "rtl_timing.h"
#include "test_seed.h"

namespace {

using namespace arc::golden;
using arc::fp::FtzMode;

constexpr uint32_t kOne = 0x3F800000u, kTwo24 = 0x4B800000u;

WarpInstr instr(uint32_t mask, std::initializer_list<uint32_t> addrs) {
  WarpInstr w;
  w.active_mask = mask;
  int l = 0;
  for (uint32_t a : addrs) w.addr[l++] = a;
  w.value.fill(kOne);
  return w;
}

TEST(Golden, GroupsOrderedByLowestLane) {
  const auto w = instr(0b111111, {9, 3, 9, 3, 7, 9});
  const std::vector<Group> want = {{9, 0b100101}, {3, 0b001010}, {7, 0b010000}};
  EXPECT_EQ(match_addresses(w), want);
  EXPECT_TRUE(match_addresses(instr(0, {1, 1})).empty());
  const auto inactive = instr(0b101, {4, 4, 5});  // lane 1 shares lane 0's address but is inactive
  EXPECT_EQ(match_addresses(inactive), (std::vector<Group>{{4, 0b001}, {5, 0b100}}));
}

TEST(Golden, SerialSumIsAscendingFromTheFirstLane) {
  WarpInstr w = instr(0b111, {0, 0, 0});
  w.value[0] = kTwo24;  // 2^24 + 1 -> 2^24 (tie to even), twice
  EXPECT_EQ(serial_sum(w, 0b111, FtzMode::Flush), kTwo24);
  w.value[0] = kOne;
  w.value[2] = kTwo24;  // 1 + 1 = 2, 2 + 2^24 exact
  EXPECT_EQ(serial_sum(w, 0b111, FtzMode::Flush), 0x4B800001u);
  w.value[1] = 0x00000001u;  // one lane: unchanged, even a subnormal under FTZ
  EXPECT_EQ(serial_sum(w, 0b010, FtzMode::Flush), 0x00000001u);
  w.value[1] = 0x7FC00001u;  // one lane: a non-canonical NaN passes unchanged
  EXPECT_EQ(serial_sum(w, 0b010, FtzMode::Flush), 0x7FC00001u);
  EXPECT_EQ(serial_sum(w, 0b011, FtzMode::Flush), arc::fp::kCanonicalNaN);
  EXPECT_EQ(serial_sum(w, 0, FtzMode::Flush), 0u);
  w.value[0] = 0x00000001u;  // subnormal + subnormal: kept or flushed
  w.value[1] = 0x00000001u;
  EXPECT_EQ(serial_sum(w, 0b011, FtzMode::Keep), 0x00000002u);
  EXPECT_EQ(serial_sum(w, 0b011, FtzMode::Flush), 0u);
}

TEST(Golden, ButterflyTreeOrder) {
  std::array<uint32_t, kLanes> v{};
  v.fill(kOne);
  EXPECT_EQ(butterfly_sum(v, 0xFFFFFFFFu, FtzMode::Flush), 0x42000000u);  // 32.0
  EXPECT_EQ(butterfly_sum(v, 0x0000000Fu, FtzMode::Flush), 0x40800000u);  // 4.0
  v[5] = 0x80000000u;
  EXPECT_EQ(butterfly_sum(v, 1u << 5, FtzMode::Flush), 0u);  // -0 + zeros of inactive lanes = +0
  // Tree vs serial: lane 0 = 2^24, lanes 1 and 17 = 1. Serial: (2^24 + 1) ties to 2^24,
  // again for lane 17: 2^24. Tree: offset 16 makes lane 1 = 1 + 1 = 2, offset 1 adds it to
  // lane 0: 2^24 + 2, exact.
  v.fill(0);
  v[0] = kTwo24;
  v[1] = kOne;
  v[17] = kOne;
  WarpInstr w;
  w.active_mask = 0x20003u;
  w.value = v;
  EXPECT_EQ(serial_sum(w, w.active_mask, FtzMode::Flush), kTwo24);
  EXPECT_EQ(butterfly_sum(v, w.active_mask, FtzMode::Flush), 0x4B800001u);
}

// Adaptive's group tree (rule v4): ranks over the group's lanes only. Lanes 3, 9, 20, 31 = 2^24,
// 1, 1, 1: serial ((2^24 + 1) + 1) + 1 ties to 2^24 each time; the tree adds (2^24 + 1) -> 2^24
// and (1 + 1) = 2, then 2^24 + 2, exact.
TEST(Golden, GroupTreeOrderOverTheGroupsRanks) {
  std::array<uint32_t, kLanes> v{};
  v[3] = kTwo24, v[9] = kOne, v[20] = kOne, v[31] = kOne;
  const uint32_t group = (1u << 3) | (1u << 9) | (1u << 20) | (1u << 31);
  WarpInstr w;
  w.active_mask = group;
  w.value = v;
  EXPECT_EQ(serial_sum(w, group, FtzMode::Flush), kTwo24);
  EXPECT_EQ(group_tree_sum(v, group, FtzMode::Flush), 0x4B800001u);  // 2^24 + 2
  // A lane outside the group is not part of the sum (the butterfly would add its value).
  v[0] = kOne;
  EXPECT_EQ(group_tree_sum(v, group, FtzMode::Flush), 0x4B800001u);
  EXPECT_EQ(group_tree_sum(v, 0u, FtzMode::Flush), 0u);
  EXPECT_EQ(group_tree_sum(v, 1u << 9, FtzMode::Flush), kOne);  // one lane: its own value
  // Three lanes: ranks 0 + 1 first, then + rank 2.
  std::array<uint32_t, kLanes> t{};
  t[0] = kOne, t[1] = kTwo24, t[2] = kOne;
  EXPECT_EQ(group_tree_sum(t, 0b111u, FtzMode::Flush), kTwo24);
}

// The same order written another way: the sum of ranks [lo, hi) is the sum of [lo, lo + P) plus
// the sum of [lo + P, hi), P the largest power of two below hi - lo; host float adds (no FTZ,
// no subnormals drawn) against golden's MPFR adds, random groups and values.
float split_sum(const std::vector<float>& x, size_t lo, size_t hi) {
  if (hi - lo == 1) return x[lo];
  size_t p = 1;
  while (2 * p < hi - lo) p *= 2;
  const volatile float a = split_sum(x, lo, lo + p), b = split_sum(x, lo + p, hi);
  return a + b;
}

TEST(Golden, GroupTreeIsTheRecursiveSplit) {
  SCOPED_TRACE(announce_seed());
  std::mt19937 rng(static_cast<uint32_t>(test_seed() + 20261127));
  std::uniform_real_distribution<float> mag(-1.0f, 1.0f);
  std::uniform_int_distribution<int> expo(-20, 20);
  int checked = 0;
  for (int t = 0; t < 20000; ++t) {
    const uint32_t group = static_cast<uint32_t>(rng()) & static_cast<uint32_t>(rng());  // ~8 lanes
    if (group == 0) continue;
    std::array<uint32_t, kLanes> v{};
    std::vector<float> ranked;
    for (int l = 0; l < kLanes; ++l) {
      const float f = std::ldexp(mag(rng), expo(rng));
      std::memcpy(&v[static_cast<size_t>(l)], &f, 4);
      if (group >> l & 1) ranked.push_back(f);
    }
    const float want = split_sum(ranked, 0, ranked.size());
    uint32_t want_bits;
    std::memcpy(&want_bits, &want, 4);
    ASSERT_EQ(group_tree_sum(v, group, FtzMode::Keep), want_bits) << "group 0x" << std::hex << group;
    ++checked;
  }
  EXPECT_GT(checked, 19000);
}

TEST(Golden, RoutingPerMode) {
  const Group g{1, 0b1111};
  EXPECT_EQ(route_group(g, {SchedMode::Never, 0, FtzMode::Flush}, true), Route::Lsu);
  EXPECT_EQ(route_group(g, {SchedMode::Always, 99, FtzMode::Flush}, false), Route::Reduced);
  EXPECT_EQ(route_group(g, {SchedMode::Threshold, 4, FtzMode::Flush}, false), Route::Reduced);
  EXPECT_EQ(route_group(g, {SchedMode::Threshold, 5, FtzMode::Flush}, true), Route::Lsu);
  EXPECT_EQ(route_group(g, {SchedMode::Threshold, 0, FtzMode::Flush}, false), Route::Reduced);
  EXPECT_EQ(route_group(g, {SchedMode::Dynamic, 0, FtzMode::Flush}, false), Route::Lsu);
  EXPECT_EQ(route_group(g, {SchedMode::Dynamic, 0, FtzMode::Flush}, true), Route::Reduced);
}

TEST(Golden, ProcessOrderAndTiming) {
  WarpInstr w = instr(0b11111, {5, 6, 5, 6, 5});
  for (int l = 0; l < 5; ++l) w.value[l] = kOne + (static_cast<uint32_t>(l) << 20);
  // Threshold 3: group {0,2,4} (3 lanes) reduced, group {1,3} as two per-lane atomics.
  const auto t = process(w, {SchedMode::Threshold, 3, FtzMode::Flush}, false);
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[0].route, Route::Reduced);
  EXPECT_EQ(t[0].lane_mask, 0b10101u);
  EXPECT_EQ(t[0].value, serial_sum(w, 0b10101, FtzMode::Flush));
  EXPECT_EQ(t[1], (Transaction{Route::Lsu, 6, w.value[1], 0b00010}));
  EXPECT_EQ(t[2], (Transaction{Route::Lsu, 6, w.value[3], 0b01000}));
  // Reduced group of 3 dispatched at 1, sum at 4; route change: LSU lanes at 6 and 7.
  const auto s = rtl_timing::schedule(t);
  EXPECT_EQ(s.emit, (std::vector<uint64_t>{4, 6, 7}));
  EXPECT_EQ(s.next_accept, 8u);
  EXPECT_EQ(rtl_timing::schedule({}).next_accept, 1u);
}

TEST(Golden, MemoryImageIsRopFtz) {
  MemoryImage m(4);
  m.apply(2, kOne);
  m.apply({Route::Reduced, 2, kOne, 3});
  EXPECT_EQ(m.at(2), 0x40000000u);
  m.apply(1, 0x00000001u);  // subnormal flushed by the ROP
  EXPECT_EQ(m.at(1), 0u);
  EXPECT_THROW(m.apply(4, kOne), arc::Error);
  EXPECT_THROW(m.at(100), arc::Error);
}

// apply_run (the timing model's ROP: a word's ops in one go, host FPU) against apply one op
// at a time, bit for bit, on patterns full of the cases FTZ and NaN handling decide: subnormal
// inputs and sums, infinities, NaNs, signed zeros, and a subnormal word to start from.
TEST(Golden, MemoryImageRunIsOneApplyAtATime) {
  SCOPED_TRACE(announce_seed());
  std::mt19937 rng(static_cast<uint32_t>(test_seed() + 16));
  const uint32_t special[] = {0u,          0x80000000u, 0x00000001u, 0x807FFFFFu, 0x00800000u, 0x80800000u,
                              0x7F800000u, 0xFF800000u, 0x7FC00000u, 0xFFC00001u, 0x7F7FFFFFu, 0xFF7FFFFFu};
  auto pick = [&]() -> uint32_t {
    const uint32_t r = rng();
    if (r % 4 == 0) return special[rng() % (sizeof special / sizeof special[0])];
    if (r % 4 == 1) return static_cast<uint32_t>((rng() & 0x807FFFFFu) | ((rng() % 3) << 23));  // subnormal or near it
    return static_cast<uint32_t>(rng());
  };
#if defined(__x86_64__) && defined(__SSE2__)
  const unsigned csr_before = _mm_getcsr() & ~0x3Fu;  // (bits 0-5: sticky exception flags)
#endif
  size_t long_runs = 0;
  for (const auto arith : {arc::fp::Arith::Reference, arc::fp::Arith::Native}) {
    for (int trial = 0; trial < 2000; ++trial) {
      const uint32_t start = pick();
      std::vector<uint32_t> v(1 + rng() % 32);
      for (uint32_t& x : v) x = pick();
      long_runs += arith == arc::fp::Arith::Native && v.size() >= MemoryImage::kMxcsrRun;
      MemoryImage one(2, start), run(2, start);
      one.set_arith(arith);
      run.set_arith(arith);
      for (uint32_t x : v) one.apply(1, x);
      run.apply_run(1, v.size(), [&](size_t k) { return v[k]; });
      ASSERT_EQ(run.words(), one.words()) << "trial " << trial;
    }
  }
  // Directed: long runs whose last add lands in the subnormal range (flushed to a zero of its
  // sign), or whose middle makes a NaN (Inf - Inf, a NaN value) that later adds carry on.
  struct Case {
    uint32_t start;
    std::vector<uint32_t> v;
    uint32_t want;
  };
  const Case cases[] = {
      {0u, {0u, 0u, 0x00C00000u, 0x80800000u}, 0u},                  // 1.5 x 2^-126 - 2^-126
      {0u, {0u, 0u, 0x80C00000u, 0x00800000u}, 0x80000000u},         // its negative: -0
      {0x00400000u, {0u, 0u, 0u, 0u}, 0u},                           // a subnormal word, adds of +0
      {0x7F800000u, {0xFF800000u, kOne, kOne, kOne}, 0x7FFFFFFFu},   // Inf - Inf, then finite adds
      {kOne, {0xFFC00001u, kOne, 0x7F800000u, kOne}, 0x7FFFFFFFu},   // a NaN with a payload
  };
  for (const Case& c : cases) {
    MemoryImage one(2, c.start), run(2, c.start);
    one.set_arith(arc::fp::Arith::Native);
    run.set_arith(arc::fp::Arith::Native);
    for (uint32_t x : c.v) one.apply(1, x);
    run.apply_run(1, c.v.size(), [&](size_t k) { return c.v[k]; });
    EXPECT_EQ(one.at(1), c.want) << std::hex << c.start;
    EXPECT_EQ(run.at(1), c.want) << std::hex << c.start;
  }
  // The draw holds enough Native runs long enough for the register chain (x86-64: >= kMxcsrRun
  // ops under DAZ/FTZ) that the comparisons above cover it, not only the one-at-a-time loop.
  EXPECT_GT(long_runs, 1500u);
#if defined(__x86_64__) && defined(__SSE2__)
  EXPECT_EQ(_mm_getcsr() & ~0x3Fu, csr_before);  // the run left the rounding and flush modes as they were
#endif
  MemoryImage m(2, 0x00000001u);
  m.apply_run(1, 0, [](size_t) { return kOne; });  // no op: the word is left as it is
  EXPECT_EQ(m.at(1), 0x00000001u);
  EXPECT_THROW(m.apply_run(2, 1, [](size_t) { return kOne; }), arc::Error);
}

}  // namespace
