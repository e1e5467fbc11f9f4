// (b) Random back-pressure on the top's ready input (txn_ready_i) and random gaps on its valid
// input: the transaction stream must still equal arc::golden::process(), instruction by
// instruction: nothing lost, duplicated or reordered. The units' own ready inputs are covered
// one by one in test_rtl_units.cpp.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "test_env.h"
#include "test_seed.h"

namespace {

using arc::fp::FtzMode;

struct Pressure {
  double ready, valid;
  double rf_ready = 0.0;  // > 0: the paper configuration (RfPort = 1), its RF ready this often
};

class SubcoreBackpressure : public ::testing::TestWithParam<Pressure> {};

TEST_P(SubcoreBackpressure, NothingLostDuplicatedOrReordered) {
  const Pressure p = GetParam();
  SCOPED_TRACE(announce_seed());
  const uint64_t n = arc::test::env_count("ARCSIM_RTL_BP_VECTORS", 50'000);
  for (FtzMode ftz : {FtzMode::Flush, FtzMode::Keep}) {
    arc::dut::SubcoreOptions opt;
    opt.ftz = ftz;
    opt.out_ready_prob = p.ready;
    opt.in_valid_prob = p.valid;
    opt.rf_port = p.rf_ready > 0.0;
    if (opt.rf_port) opt.rf_ready_prob = p.rf_ready;
    opt.seed = test_seed() + 77 + static_cast<uint64_t>(ftz);  // the handshakes' random stalls
    arc::dut::SubcoreDut dut(opt);
    arc::test::CheckCounts counts;
    arc::test::run_and_check(dut, arc::golden::directed_cases(ftz), counts);
    arc::golden::WarpGen gen(test_seed() + static_cast<uint64_t>(ftz));
    std::vector<arc::golden::WarpCase> batch;
    for (uint64_t done = 0; done < n;) {
      batch.clear();
      for (; batch.size() < 2048 && done < n; ++done) batch.push_back(gen.next(ftz));
      arc::test::run_and_check(dut, batch, counts);
    }
    for (const auto& f : counts.first_failures) ADD_FAILURE() << f << " (" << seed_note() << ")";
    std::printf("back-pressure ready=%.2f valid=%.2f FTZ=%d: %llu passed, %llu failed (%llu transactions, %llu cycles; %s)\n",
                p.ready, p.valid, static_cast<int>(ftz), static_cast<unsigned long long>(counts.passed),
                static_cast<unsigned long long>(counts.failed), static_cast<unsigned long long>(counts.transactions),
                static_cast<unsigned long long>(dut.cycle()), seed_note().c_str());
    EXPECT_EQ(counts.failed, 0u);
    EXPECT_EQ(counts.passed, n + arc::golden::directed_cases(ftz).size());
  }
}

INSTANTIATE_TEST_SUITE_P(Pressures, SubcoreBackpressure,
                         ::testing::Values(Pressure{0.5, 1.0}, Pressure{0.1, 0.3}, Pressure{0.9, 0.5}, Pressure{0.5, 0.7, 0.4},
                                           Pressure{1.0, 1.0, 0.2}),
                         [](const auto& info) {
                           return "Ready" + std::to_string(static_cast<int>(info.param.ready * 100)) + "Valid" +
                                  std::to_string(static_cast<int>(info.param.valid * 100)) +
                                  (info.param.rf_ready > 0.0
                                       ? "RfReady" + std::to_string(static_cast<int>(info.param.rf_ready * 100))
                                       : std::string());
                         });

}  // namespace
