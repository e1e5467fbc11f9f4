#include "subcore_check.h"

#include <cstdio>

namespace arc::dut {

std::string describe_case(const golden::WarpCase& c) {
  std::string s = "mask=" + std::to_string(c.in.active_mask) + " mode=" + golden::to_string(c.cfg.mode) +
                  " thr=" + std::to_string(c.cfg.threshold) + " busy=" + std::to_string(c.busy) + " lanes:";
  char buf[40];
  for (int l = 0; l < golden::kLanes; ++l)
    if ((c.in.active_mask >> l) & 1u) {
      std::snprintf(buf, sizeof buf, " %d:%08x/%08x", l, c.in.addr[l], c.in.value[l]);
      s += buf;
    }
  return s;
}

// Pushes all cases, runs the DUT until idle and checks them; adds to counts.
void run_and_check(SubcoreDut& dut, const std::vector<golden::WarpCase>& cases, CheckCounts& counts) {
  const uint64_t base = dut.accepted();
  for (const auto& c : cases) dut.push(c.in, c.cfg, c.busy);
  dut.run_until_idle();
  const auto got = dut.take_transactions();
  size_t pos = 0;
  for (size_t i = 0; i < cases.size(); ++i) {
    const auto want = golden::process(cases[i].in, cases[i].cfg, cases[i].busy);
    std::vector<golden::Transaction> mine;
    while (pos < got.size() && got[pos].instr == base + i) mine.push_back(got[pos++].txn);
    counts.transactions += mine.size();
    if (mine == want) {
      ++counts.passed;
      continue;
    }
    ++counts.failed;
    if (counts.first_failures.size() < 8) {
      std::string s = "instr " + std::to_string(base + i) + " " + describe_case(cases[i]) + "\n  want:";
      for (const auto& t : want) s += "\n    " + golden::describe(t);
      s += "\n  got:";
      for (const auto& t : mine) s += "\n    " + golden::describe(t);
      counts.first_failures.push_back(s);
    }
  }
  if (pos != got.size()) {  // transactions attributed to no instruction of this batch
    ++counts.failed;
    counts.first_failures.push_back(std::to_string(got.size() - pos) + " stray transactions");
  }
}

}  // namespace arc::dut
