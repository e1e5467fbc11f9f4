// The MPFR reference itself: directed cases from the numeric contract, and agreement with a
// third opinion, the host's IEEE float add (fp32_native.h, which the timing model uses), in
// both FTZ modes on the special-value table and random vectors of every class.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "fp32_native.h"
#include "fp32_ref.h"
#include "fp32_vectors.h"
#include "test_seed.h"

using arc::fp::add_ref;
using arc::fp::FtzMode;

namespace {

TEST(Fp32Ref, ContractCorners) {
  for (auto m : {FtzMode::Keep, FtzMode::Flush}) {
    EXPECT_EQ(add_ref(0x3F800000, 0x3F800000, m), 0x40000000u);   // 1 + 1 = 2
    EXPECT_EQ(add_ref(0x3F800000, 0xBF800000, m), 0x00000000u);   // x + (-x) = +0
    EXPECT_EQ(add_ref(0x80000000, 0x80000000, m), 0x80000000u);   // -0 + -0 = -0
    EXPECT_EQ(add_ref(0x00000000, 0x80000000, m), 0x00000000u);   // +0 + -0 = +0
    EXPECT_EQ(add_ref(0x7F800000, 0xFF800000, m), 0x7FFFFFFFu);   // inf + -inf = NaN
    EXPECT_EQ(add_ref(0x7F800000, 0x3F800000, m), 0x7F800000u);   // inf + 1 = inf
    EXPECT_EQ(add_ref(0xFFC00000, 0x3F800000, m), 0x7FFFFFFFu);   // NaN is canonical
    EXPECT_EQ(add_ref(0x7F7FFFFF, 0x7F7FFFFF, m), 0x7F800000u);   // overflow
    EXPECT_EQ(add_ref(0x3F800000, 0x33800000, m), 0x3F800000u);   // 1 + 2^-24: tie to even (down)
    EXPECT_EQ(add_ref(0x3F800001, 0x33800000, m), 0x3F800002u);   // tie to even (up)
  }
  // Subnormals: kept in FTZ=0, flushed with their sign in FTZ=1.
  EXPECT_EQ(add_ref(0x00000001, 0x00000001, FtzMode::Keep), 0x00000002u);
  EXPECT_EQ(add_ref(0x00000001, 0x00000001, FtzMode::Flush), 0x00000000u);
  EXPECT_EQ(add_ref(0x80000001, 0x80000000, FtzMode::Flush), 0x80000000u);
  EXPECT_EQ(add_ref(0x00C00000, 0x80800000, FtzMode::Keep), 0x00400000u);  // normal - normal = subnormal
  EXPECT_EQ(add_ref(0x00C00000, 0x80800000, FtzMode::Flush), 0x00000000u);
  EXPECT_EQ(add_ref(0x80C00000, 0x00800000, FtzMode::Flush), 0x80000000u);  // sign kept
  EXPECT_EQ(add_ref(0x007FFFFF, 0x00000001, FtzMode::Keep), 0x00800000u);  // subnormal -> normal
  EXPECT_EQ(add_ref(0x3F800000, 0x00000001, FtzMode::Flush), 0x3F800000u);
}

// The host adder (arc::fp::add_native) against MPFR, bit for bit: every special pair plus
// 2,000,000 random vectors per FTZ mode (ARCSIM_FP_NATIVE_VECTORS overrides the count).
TEST(Fp32Ref, HostAdderAgreesWithMpfrInBothModes) {
  const char* env = std::getenv("ARCSIM_FP_NATIVE_VECTORS");
  const long n = env ? std::atol(env) : 2'000'000;
  const uint64_t seed = test_seed();  // fresh each run, printed so a failure can be replayed
  std::printf("host adder vs MPFR: seed %llu (ARCSIM_TEST_SEED=%llu repeats it)\n", static_cast<unsigned long long>(seed),
              static_cast<unsigned long long>(seed));
  RecordProperty("seed", std::to_string(seed));
  for (auto mode : {FtzMode::Keep, FtzMode::Flush}) {
    arc::fp::VectorGenerator gen(seed);
    uint64_t passed = 0, failed = 0;
    auto one = [&](uint32_t a, uint32_t b) {
      const uint32_t want = add_ref(a, b, mode), got = arc::fp::add_native(a, b, mode);
      if (got == want) return void(++passed);
      if (failed < 5) ADD_FAILURE() << std::hex << "a=" << a << " b=" << b << " mpfr=" << want << " host=" << got;
      ++failed;
    };
    for (const uint32_t a : arc::fp::special_values())
      for (const uint32_t b : arc::fp::special_values()) one(a, b);
    for (long i = 0; i < n; ++i) {
      const auto [a, b] = gen.next();
      one(a, b);
    }
    std::printf("fp32 host adder vs MPFR reference (FTZ=%d): %llu passed, %llu failed\n", mode == FtzMode::Flush,
                static_cast<unsigned long long>(passed), static_cast<unsigned long long>(failed));
    EXPECT_EQ(failed, 0u);
  }
}

TEST(Fp32Ref, UlpDistance) {
  EXPECT_EQ(arc::fp::ulp_distance(0x3F800000, 0x3F800001), 1u);
  EXPECT_EQ(arc::fp::ulp_distance(0x00000000, 0x80000000), 0u);
  EXPECT_EQ(arc::fp::ulp_distance(0x00000001, 0x80000001), 2u);
}

TEST(Fp32Vectors, SpecialTableHasAtLeast40Values) { EXPECT_GE(arc::fp::special_values().size(), 40u); }

}  // namespace
