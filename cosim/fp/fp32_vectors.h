// Test-vector sources for binary32 addition: a table of special values and a seeded random
// generator weighted towards the hard cases (cancellation, rounding ties, exponent gaps 0..40,
// subnormals, overflow, rounding that carries into the next binade or to infinity, NaN/inf,
// +-0). Shared by the GoogleTest suites and `arcsim check-adder`.
#pragma once
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace arc::fp {

// Bit patterns of >= 40 special and boundary values (both signs of each).
const std::vector<uint32_t>& special_values();

// The class a random vector was drawn from (for reports).
enum class VectorClass { Uniform, ExpGap, Cancel, Tie, Subnormal, Overflow, Carry, Special, kCount };
const char* to_string(VectorClass c);

// A fresh seed for VectorGenerator (64 bits from std::random_device): each run draws new vectors;
// callers print it so that a run can be repeated.
uint64_t fresh_seed();

class VectorGenerator {
 public:
  explicit VectorGenerator(uint64_t seed) : rng_(seed) {}
  // Next operand pair and the class it was drawn from.
  std::pair<uint32_t, uint32_t> next(VectorClass* cls = nullptr);

 private:
  uint32_t bits32() { return static_cast<uint32_t>(rng_()); }
  uint32_t uniform(uint32_t lo, uint32_t hi) {  // inclusive
    return lo + static_cast<uint32_t>(rng_() % (uint64_t{hi} - lo + 1));
  }
  static uint32_t pack(uint32_t sign, uint32_t exp, uint32_t man) {
    return (sign << 31) | ((exp & 0xFF) << 23) | (man & 0x7FFFFF);
  }
  std::pair<uint32_t, uint32_t> exp_gap();
  std::pair<uint32_t, uint32_t> cancel();
  std::pair<uint32_t, uint32_t> tie();
  std::pair<uint32_t, uint32_t> subnormal();
  std::pair<uint32_t, uint32_t> overflow();
  std::pair<uint32_t, uint32_t> carry();
  std::pair<uint32_t, uint32_t> special();

  std::mt19937_64 rng_;
};

}  // namespace arc::fp
