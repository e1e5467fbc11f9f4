// The Verilated arc_fp32_add vs the MPFR reference, bit for bit: every pair of the special-value
// table plus ARCSIM_ADDER_VECTORS (default 10,000,000) fresh random vectors per FTZ mode, drawn to hit
// cancellation, ties, exponent gaps 0..40, subnormals, overflow, NaN/inf and +-0.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "adder_check.h"
#include "adder_dut.h"
#include "test_seed.h"

namespace {

uint64_t vectors_per_mode() {
  const char* env = std::getenv("ARCSIM_ADDER_VECTORS");
  return env ? std::strtoull(env, nullptr, 10) : 10'000'000ull;
}

class AdderRtl : public ::testing::TestWithParam<arc::fp::FtzMode> {};

TEST_P(AdderRtl, BitExactAgainstMpfr) {
  const auto mode = GetParam();
  arc::dut::AdderDut dut(mode);
  const uint64_t seed = test_seed() + static_cast<uint64_t>(mode);
  ::testing::Test::RecordProperty("seed", std::to_string(test_seed()));
  const auto r = arc::fp::check_adder([&](uint32_t a, uint32_t b) { return dut(a, b); }, mode,
                                      vectors_per_mode(), seed);
  for (const auto& m : r.first_mismatches) ADD_FAILURE() << arc::fp::describe(m);
  std::printf("fp32_add FTZ=%d, seed %llu (ARCSIM_TEST_SEED=%llu repeats it): %llu passed, %llu failed (%llu special pairs; classes:",
              static_cast<int>(mode), static_cast<unsigned long long>(seed), static_cast<unsigned long long>(test_seed()),
              static_cast<unsigned long long>(r.passed),
              static_cast<unsigned long long>(r.failed), static_cast<unsigned long long>(r.special_pairs));
  for (size_t c = 0; c < r.per_class.size(); ++c)
    std::printf(" %s=%llu", arc::fp::to_string(static_cast<arc::fp::VectorClass>(c)),
                static_cast<unsigned long long>(r.per_class[c]));
  std::printf(")\n");
  EXPECT_EQ(r.failed, 0u);
  EXPECT_GE(r.passed, vectors_per_mode());
}

INSTANTIATE_TEST_SUITE_P(BothModes, AdderRtl, ::testing::Values(arc::fp::FtzMode::Flush, arc::fp::FtzMode::Keep),
                         [](const auto& info) { return info.param == arc::fp::FtzMode::Flush ? "Ftz1" : "Ftz0"; });

}  // namespace
