// The top's cycle behaviour vs cosim/golden/rtl_timing.h: with txn_ready_i held high and an
// instruction always offered, every instruction's accept cycle and every transaction's cycle
// must be what rtl_timing::schedule() predicts. Also measures and prints the headline numbers.
#include <gtest/gtest.h>

#include <cstdio>

#include "rtl_timing.h"
#include "test_env.h"
#include "test_seed.h"

namespace {

using namespace arc::golden;
using arc::fp::FtzMode;

// Both configurations: the operand register (RfPort = 0) and the paper's register-file read
// port (RfPort = 1, the port always ready) have the same cycles, rtl_timing::schedule().
void check_top_timing(bool rf_port) {
  const uint64_t n = arc::test::env_count("ARCSIM_RTL_TIMING_VECTORS", 100'000);
  arc::dut::SubcoreOptions opt;
  opt.rf_port = rf_port;
  arc::dut::SubcoreDut dut(opt);
  std::vector<WarpCase> cases = directed_cases(FtzMode::Flush);
  SCOPED_TRACE(announce_seed());
  WarpGen gen(test_seed() + 0x71u);
  while (cases.size() < n) cases.push_back(gen.next(FtzMode::Flush));
  for (const auto& c : cases) dut.push(c.in, c.cfg, c.busy);
  dut.run_until_idle();
  const auto txns = dut.take_transactions();
  const auto accepts = dut.take_accept_cycles();
  ASSERT_EQ(accepts.size(), cases.size());
  uint64_t passed = 0, failed = 0, pos = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    const auto want = process(cases[i].in, cases[i].cfg, cases[i].busy);
    const auto s = rtl_timing::schedule(want);
    bool ok = true;
    for (size_t k = 0; k < want.size(); ++k, ++pos) {
      ok = ok && pos < txns.size() && txns[pos].instr == i && txns[pos].txn == want[k] &&
           txns[pos].cycle == accepts[i] + s.emit[k];
    }
    if (i + 1 < cases.size()) ok = ok && accepts[i + 1] == accepts[i] + s.next_accept;
    if (ok) {
      ++passed;
    } else if (++failed <= 5) {
      std::string got;
      for (const auto& t : txns)
        if (t.instr == i) got += " " + std::to_string(t.cycle - accepts[i]);
      ADD_FAILURE() << "instr " << i << " " << arc::test::describe_case(cases[i]) << "\n got emit offsets:" << got
                    << (i + 1 < cases.size() ? " next accept +" + std::to_string(accepts[i + 1] - accepts[i]) : "");
    }
  }
  std::printf("rtl timing RfPort=%d (top vs rtl_timing::schedule): %llu passed, %llu failed\n",
              static_cast<int>(rf_port), static_cast<unsigned long long>(passed),
              static_cast<unsigned long long>(failed));
  EXPECT_EQ(failed, 0u);
}

TEST(RtlTiming, TopMatchesScheduleCycleForCycle) { check_top_timing(false); }
TEST(RtlTiming, PaperRfPortMatchesScheduleCycleForCycle) { check_top_timing(true); }

// The closed form the fast ARC unit uses for an all-LSU instruction equals schedule() (which
// the two tests above check against the RTL) for every stream length and group split.
TEST(RtlTiming, LsuStreamClosedFormEqualsSchedule) {
  for (uint32_t n = 1; n <= 32; ++n) {
    std::vector<Transaction> t;
    for (uint32_t l = 0; l < n; ++l) t.push_back({Route::Lsu, l % 3, 0, 1u << l});  // groups of any shape
    const auto s = rtl_timing::schedule(t);
    for (uint32_t i = 0; i < n; ++i) EXPECT_EQ(s.emit[i], rtl_timing::lsu_stream_emit(i)) << "n " << n << " i " << i;
    EXPECT_EQ(s.next_accept, rtl_timing::lsu_stream_emit(n - 1) + rtl_timing::kInstrTurnaround) << "n " << n;
  }
}

TEST(RtlTiming, ReducedAloneClosedFormEqualsSchedule) {
  for (uint32_t n = 1; n <= 32; ++n) {
    const uint32_t mask = n == 32 ? ~0u : (1u << n) - 1;
    const auto s = rtl_timing::schedule({{Route::Reduced, 7, 0, mask}});
    EXPECT_EQ(s.emit[0], rtl_timing::reduced_alone_emit(n)) << "n " << n;
    EXPECT_EQ(s.next_accept, rtl_timing::reduced_alone_emit(n) + rtl_timing::kInstrTurnaround) << "n " << n;
  }
}

// Headline numbers, measured: a full-warp reduction, 32 per-lane atomics, an empty mask.
TEST(RtlTiming, HeadlineNumbers) {
  WarpCase full;
  full.in.active_mask = 0xFFFFFFFFu;
  full.in.addr.fill(42);
  full.in.value.fill(0x3F800000u);
  full.cfg = {SchedMode::Always, 0, FtzMode::Flush};
  WarpCase lsu = full;
  lsu.cfg.mode = SchedMode::Never;
  WarpCase empty = full;
  empty.in.active_mask = 0;
  arc::dut::SubcoreDut dut;
  for (const auto* c : {&full, &lsu, &empty, &full}) dut.push(c->in, c->cfg, c->busy);
  dut.run_until_idle();
  const auto t = dut.take_transactions();
  const auto a = dut.take_accept_cycles();
  ASSERT_EQ(t.size(), 1u + 32u + 1u);
  ASSERT_EQ(a.size(), 4u);
  // Full-warp reduction: accept -> sum = matcher latency + 32 lanes at one lane per cycle.
  EXPECT_EQ(t[0].cycle - a[0], uint64_t(rtl_timing::kMatcherLatency + 32 * rtl_timing::kReduceCyclesPerLane));
  EXPECT_EQ(t[0].txn.value, 0x42000000u);  // 32.0
  // Next instruction one cycle after the sum was taken.
  EXPECT_EQ(a[1] - t[0].cycle, uint64_t(rtl_timing::kInstrTurnaround));
  // 32 per-lane atomics, one per cycle, the first 2 cycles after accept.
  for (int l = 0; l < 32; ++l) EXPECT_EQ(t[1 + l].cycle, a[1] + 2 + l);
  EXPECT_EQ(a[3] - a[2], uint64_t(rtl_timing::kEmptyInstrCycles));
  std::printf("measured: full-warp reduce accept->sum %llu cycles, instr period %llu; 32 LSU lanes period %llu; "
              "empty instr %llu\n",
              static_cast<unsigned long long>(t[0].cycle - a[0]), static_cast<unsigned long long>(a[1] - a[0]),
              static_cast<unsigned long long>(a[2] - a[1]), static_cast<unsigned long long>(a[3] - a[2]));
}

}  // namespace
