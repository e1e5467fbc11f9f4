// The Verilated arc_subcore_top vs arc::golden::process() on random warp instructions
// (ARCSIM_RTL_VECTORS per FTZ mode, default 1,000,000; a fresh seed each run, test_seed.h) plus
// the directed corners; every transaction compared bit for bit, in order, including the route.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <utility>

#include "test_env.h"
#include "test_seed.h"

namespace {

using arc::fp::FtzMode;

// (FTZ mode, RfPort): both configurations of arc_subcore_top, both adder modes.
class SubcoreRandom : public ::testing::TestWithParam<std::pair<FtzMode, bool>> {};

TEST_P(SubcoreRandom, MatchesGoldenBitForBit) {
  const FtzMode ftz = GetParam().first;
  SCOPED_TRACE(announce_seed());
  const uint64_t n = arc::test::env_count("ARCSIM_RTL_VECTORS", 1'000'000);
  arc::dut::SubcoreOptions opt;
  opt.ftz = ftz;
  opt.rf_port = GetParam().second;
  arc::dut::SubcoreDut dut(opt);
  arc::test::CheckCounts directed, random;
  arc::test::run_and_check(dut, arc::golden::directed_cases(ftz), directed);
  ::testing::Test::RecordProperty("seed", std::to_string(test_seed()));
  arc::golden::WarpGen gen(test_seed() + static_cast<uint64_t>(ftz) + (opt.rf_port ? 2 : 0));
  std::vector<arc::golden::WarpCase> batch;
  for (uint64_t done = 0; done < n;) {
    batch.clear();
    for (; batch.size() < 4096 && done < n; ++done) batch.push_back(gen.next(ftz));
    arc::test::run_and_check(dut, batch, random);
  }
  for (const auto* c : {&directed, &random})
    for (const auto& f : c->first_failures) ADD_FAILURE() << f << " (" << seed_note() << ")";
  std::printf("RfPort=%d ", static_cast<int>(opt.rf_port));
  std::printf("subcore_top FTZ=%d directed: %llu passed, %llu failed\n", static_cast<int>(ftz),
              static_cast<unsigned long long>(directed.passed), static_cast<unsigned long long>(directed.failed));
  std::printf("subcore_top FTZ=%d random: %llu passed, %llu failed (%llu transactions, %llu cycles; %s)\n",
              static_cast<int>(ftz), static_cast<unsigned long long>(random.passed),
              static_cast<unsigned long long>(random.failed), static_cast<unsigned long long>(random.transactions),
              static_cast<unsigned long long>(dut.cycle()), seed_note().c_str());
  EXPECT_EQ(directed.failed + random.failed, 0u);
  EXPECT_EQ(random.passed, n);
  EXPECT_GT(directed.passed, 50u);
}

INSTANTIATE_TEST_SUITE_P(BothModes, SubcoreRandom,
                         ::testing::Values(std::pair{FtzMode::Flush, false}, std::pair{FtzMode::Keep, false},
                                           std::pair{FtzMode::Flush, true}, std::pair{FtzMode::Keep, true}),
                         [](const auto& info) {
                           return std::string(info.param.first == FtzMode::Flush ? "Ftz1" : "Ftz0") +
                                  (info.param.second ? "RfPort" : "");
                         });

}  // namespace
