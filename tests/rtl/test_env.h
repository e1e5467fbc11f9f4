// Test-side helpers: the library checker (cosim/dut/subcore_check.h) under arc::test, and
// vector counts overridable from the environment.
#pragma once
#include <cstdint>
#include <cstdlib>

#include "subcore_check.h"

namespace arc::test {

using dut::CheckCounts;
using dut::describe_case;
using dut::run_and_check;

inline uint64_t env_count(const char* name, uint64_t dflt) {
  const char* e = std::getenv(name);
  return e ? std::strtoull(e, nullptr, 10) : dflt;
}

}  // namespace arc::test
