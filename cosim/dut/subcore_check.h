// Runs warp cases through a SubcoreDut and compares each instruction's emitted transactions,
// bit for bit and in order (route, address, value, lane mask), with arc::golden::process().
// Used by tests/rtl and `arcsim rtl-run`.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "golden.h"
#include "subcore_dut.h"
#include "warp_gen.h"

namespace arc::dut {

struct CheckCounts {
  uint64_t passed = 0, failed = 0, transactions = 0;
  std::vector<std::string> first_failures;  // at most 8, in hex
};

// One line: mask, mode, threshold, busy and every active lane's lane:addr/value in hex.
std::string describe_case(const golden::WarpCase& c);

// Pushes all cases, runs the DUT until idle and checks every instruction; adds to counts.
void run_and_check(SubcoreDut& dut, const std::vector<golden::WarpCase>& cases, CheckCounts& counts);

}  // namespace arc::dut
