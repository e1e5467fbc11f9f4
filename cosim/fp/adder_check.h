// Streams reference vectors through any binary32 adder (the Verilated RTL, usually) and
// compares every bit with add_ref(), HardFloat/TestFloat style: count passes and failures,
// keep the first few mismatches for a hex report.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "fp32_ref.h"
#include "fp32_vectors.h"

namespace arc::fp {

struct Mismatch {
  uint32_t a, b, got, want;
  VectorClass cls;
};

struct AdderCheckResult {
  uint64_t passed = 0;
  uint64_t failed = 0;
  uint64_t special_pairs = 0;  // how many of the vectors were the special-value cross product
  std::array<uint64_t, static_cast<size_t>(VectorClass::kCount)> per_class{};
  std::vector<Mismatch> first_mismatches;
};

using AddFn = std::function<uint32_t(uint32_t, uint32_t)>;
using ProgressFn = std::function<void(uint64_t done, uint64_t total)>;

// Every pair of special_values(), then `random_vectors` pairs from VectorGenerator(seed).
AdderCheckResult check_adder(const AddFn& dut, FtzMode ftz, uint64_t random_vectors, uint64_t seed,
                             size_t keep_mismatches = 8, const ProgressFn& progress = nullptr);

// "a=0x... b=0x... got=0x... want=0x... (class)"
std::string describe(const Mismatch& m);

}  // namespace arc::fp
