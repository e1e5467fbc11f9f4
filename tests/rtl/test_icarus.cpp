// (c) The directed vectors (plus a few hundred seeded random ones) through Icarus Verilog:
// tb_subcore_top.sv + rtl/*.sv under `iverilog -g2012` and `vvp`. Every transaction must equal
// arc::golden::process(), and every accept and transaction cycle must equal the Verilated
// model's, so the RTL does not lean on one simulator's semantics.
// ARCSIM_RTL_DIR (environment) simulates another copy of rtl/ against the same golden model and
// Verilated cycles: scripts/mutate-rtl.sh runs its mutants this way (in a private work folder).
#include <gtest/gtest.h>

#include <algorithm>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "test_env.h"
#include "test_seed.h"

namespace fs = std::filesystem;

namespace {

using namespace arc::golden;
using arc::fp::FtzMode;

std::vector<WarpCase> cases_for(FtzMode ftz) {
  auto v = directed_cases(ftz);
  WarpGen gen(test_seed() + static_cast<uint64_t>(ftz));
  for (int i = 0; i < 400; ++i) v.push_back(gen.next(ftz));
  return v;
}

struct SimEvent {
  char kind;  // 'A' accept, 'T' transaction
  uint64_t instr, cycle;
  Transaction txn;
};

bool operator==(const SimEvent& a, const SimEvent& b) {
  return a.kind == b.kind && a.instr == b.instr && a.cycle == b.cycle && (a.kind == 'A' || a.txn == b.txn);
}

std::vector<SimEvent> run_icarus(const std::vector<WarpCase>& cases, FtzMode ftz, const fs::path& dir,
                                 int stages = 1) {
  fs::create_directories(dir);
  const fs::path in = dir / "instr.hex", out = dir / "events.txt", vvp = dir / "tb.vvp";
  {
    std::ofstream f(in);
    char buf[16];
    auto word = [&](uint32_t w) {
      std::snprintf(buf, sizeof buf, "%08x\n", w);
      f << buf;
    };
    for (const auto& c : cases) {
      word(c.in.active_mask);
      word(static_cast<uint32_t>(c.cfg.mode) | (std::min<uint32_t>(c.cfg.threshold, 63) << 2) |
           (uint32_t(c.busy) << 8));
      for (uint32_t a : c.in.addr) word(a);
      for (uint32_t v : c.in.value) word(v);
    }
  }
  fs::remove(vvp);  // never simulate a stale build of other sources
  std::string srcs;
  const char* rtl_env = std::getenv("ARCSIM_RTL_DIR");
  const fs::path rtl_dir = rtl_env && *rtl_env ? fs::path(rtl_env) : fs::path(ARCSIM_RTL_DIR);
  for (const auto& e : fs::directory_iterator(rtl_dir))
    if (e.path().extension() == ".sv") srcs += " " + e.path().string();
  const std::string compile = std::string(IVERILOG) + " -g2012 -o " + vvp.string() + " -s tb_subcore_top -P tb_subcore_top.FTZ=" +
                              std::to_string(static_cast<int>(ftz)) + " -P tb_subcore_top.Stages=" +
                              std::to_string(stages) + " " + TB_SOURCE + srcs + " 2> " +
                              (dir / "iverilog.log").string();
  EXPECT_EQ(std::system(compile.c_str()), 0) << compile;
  const std::string sim = std::string(VVP) + " -n " + vvp.string() + " +in=" + in.string() + " +out=" + out.string() +
                          " +n=" + std::to_string(cases.size()) + " > " + (dir / "vvp.log").string() + " 2>&1";
  EXPECT_EQ(std::system(sim.c_str()), 0) << sim;
  std::vector<SimEvent> ev;
  std::ifstream f(out);
  std::string line;
  while (std::getline(f, line)) {
    std::istringstream s(line);
    SimEvent e{};
    s >> e.kind >> e.instr >> e.cycle;
    if (e.kind == 'T') {
      int red;
      s >> red >> std::hex >> e.txn.addr >> e.txn.value >> e.txn.lane_mask;
      e.txn.route = red ? Route::Reduced : Route::Lsu;
    }
    ev.push_back(e);
  }
  return ev;
}

std::vector<SimEvent> run_verilator(const std::vector<WarpCase>& cases, FtzMode ftz) {
  arc::dut::SubcoreOptions opt;
  opt.ftz = ftz;
  arc::dut::SubcoreDut dut(opt);
  for (const auto& c : cases) dut.push(c.in, c.cfg, c.busy);
  dut.run_until_idle();
  std::vector<SimEvent> ev;
  const auto acc = dut.take_accept_cycles();
  for (size_t i = 0; i < acc.size(); ++i) ev.push_back({'A', i, acc[i], {}});
  for (const auto& t : dut.take_transactions()) ev.push_back({'T', t.instr, t.cycle, t.txn});
  return ev;
}

// Where the Icarus runs write: beside the RTL copy under test (ARCSIM_RTL_DIR), else the build.
fs::path work_root() {
  const char* rtl_env = std::getenv("ARCSIM_RTL_DIR");
  return rtl_env && *rtl_env ? fs::path(rtl_env) / "icarus" : fs::path(BUILD_DIR);
}

class Icarus : public ::testing::TestWithParam<FtzMode> {};

TEST_P(Icarus, SameOutputsAsGoldenAndVerilator) {
  SCOPED_TRACE(announce_seed());
  const FtzMode ftz = GetParam();
  const auto cases = cases_for(ftz);
  const fs::path work = work_root();
  const auto ica = run_icarus(cases, ftz, work / ("icarus_ftz" + std::to_string(static_cast<int>(ftz))));
  auto ver = run_verilator(cases, ftz);
  // Order both as (cycle, accept before transaction) for the cycle-exact comparison.
  auto key = [](const SimEvent& e) { return std::make_pair(e.cycle, e.kind == 'T'); };
  auto sorted = [&](std::vector<SimEvent> v) {
    std::stable_sort(v.begin(), v.end(), [&](const SimEvent& a, const SimEvent& b) { return key(a) < key(b); });
    return v;
  };
  const auto ica_s = sorted(ica), ver_s = sorted(ver);
  uint64_t passed = 0, failed = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    std::vector<Transaction> got;
    for (const auto& e : ica)
      if (e.kind == 'T' && e.instr == i) got.push_back(e.txn);
    const bool ok = got == process(cases[i].in, cases[i].cfg, cases[i].busy);
    ok ? ++passed : ++failed;
    if (!ok && failed <= 5) ADD_FAILURE() << "icarus differs from golden on instr " << i << ": "
                                          << arc::test::describe_case(cases[i]);
  }
  EXPECT_EQ(ica_s.size(), ver_s.size());
  size_t cycle_diffs = 0;
  for (size_t i = 0; i < std::min(ica_s.size(), ver_s.size()); ++i) cycle_diffs += !(ica_s[i] == ver_s[i]);
  EXPECT_EQ(cycle_diffs, 0u) << "events where Icarus and Verilator differ (kind, instr, cycle or payload)";
  std::printf("icarus FTZ=%d: %llu passed, %llu failed vs golden; %zu events, %zu differ from Verilator\n",
              static_cast<int>(ftz), static_cast<unsigned long long>(passed), static_cast<unsigned long long>(failed),
              ica_s.size(), cycle_diffs);
  EXPECT_EQ(failed, 0u);
  EXPECT_EQ(passed, cases.size());
}

// The top with the two-stage adder (Stages=2; the Verilated models and the simulator use 1): the
// same transactions, bit for bit and in order, as the golden model, in both FTZ modes. Its cycles
// differ by design (a group of n lanes takes 1 + 2(n-1)); RtlUnits.ReducePipelinedAdderStages2
// checks those on the reduce unit.
TEST_P(Icarus, PipelinedAdderTopSameTransactionsAsGolden) {
  SCOPED_TRACE(announce_seed());
  const FtzMode ftz = GetParam();
  const auto cases = cases_for(ftz);
  const fs::path work = work_root();
  const auto ica = run_icarus(cases, ftz, work / ("icarus_s2_ftz" + std::to_string(static_cast<int>(ftz))), 2);
  uint64_t passed = 0, failed = 0;
  std::vector<std::vector<Transaction>> got(cases.size());
  for (const auto& e : ica)
    if (e.kind == 'T' && e.instr < cases.size()) got[e.instr].push_back(e.txn);
  for (size_t i = 0; i < cases.size(); ++i) {
    const bool ok = got[i] == process(cases[i].in, cases[i].cfg, cases[i].busy);
    ok ? ++passed : ++failed;
    if (!ok && failed <= 5) ADD_FAILURE() << "Stages=2 top differs from golden on instr " << i << ": "
                                          << arc::test::describe_case(cases[i]);
  }
  // ... and it really ran two stages: multi-lane groups take longer, so the run ends later than
  // the one-stage top's on the same instructions.
  auto last_cycle = [](const std::vector<SimEvent>& ev) {
    uint64_t c = 0;
    for (const auto& e : ev) c = std::max<uint64_t>(c, e.cycle);
    return c;
  };
  const uint64_t end2 = last_cycle(ica), end1 = last_cycle(run_verilator(cases, ftz));
  EXPECT_GT(end2, end1) << "the Stages=2 top finished no later than the one-stage top";
  std::printf("icarus Stages=2 FTZ=%d: %llu passed, %llu failed vs golden; %llu cycles against %llu at Stages=1\n",
              static_cast<int>(ftz), static_cast<unsigned long long>(passed), static_cast<unsigned long long>(failed),
              static_cast<unsigned long long>(end2), static_cast<unsigned long long>(end1));
  EXPECT_EQ(failed, 0u);
  EXPECT_EQ(passed, cases.size());
}

INSTANTIATE_TEST_SUITE_P(BothModes, Icarus, ::testing::Values(FtzMode::Flush, FtzMode::Keep),
                         [](const auto& info) { return info.param == FtzMode::Flush ? "Ftz1" : "Ftz0"; });

}  // namespace
