// binary32 addition on the host's FPU, for the timing model's hot path (ROP commits, ARC-SW and
// ARC-HW fast-level sums), where the MPFR reference (fp32_ref.h) cost a quarter to a half of
// the run time. The same contract as add_ref (../shared/DESIGN.md "Numeric contract"): round to
// nearest even, FTZ flushes subnormal inputs and results to a zero of the same sign (DAZ + FTZ),
// any NaN result is kCanonicalNaN. x86-64 float '+' is one SSE addss: IEEE binary32 with the
// default MXCSR (round to nearest, no FTZ/DAZ, which this code does itself on the bit
// patterns). MPFR stays the reference: tests/fp checks add_native against add_ref bit for bit
// on the full vector sets in both modes, and fuzz_fp32_native searches for a disagreement.
#pragma once
#include <cstdint>
#include <cstring>

#include "fp32_ref.h"

namespace arc::fp {

inline uint32_t add_native(uint32_t a, uint32_t b, FtzMode ftz) {
  if (ftz == FtzMode::Flush) {
    a = flush_subnormal(a);
    b = flush_subnormal(b);
  }
  float fa, fb;
  std::memcpy(&fa, &a, sizeof fa);
  std::memcpy(&fb, &b, sizeof fb);
  const volatile float sum = fa + fb;  // volatile: one rounding to binary32, never contracted or widened
  const float s = sum;
  uint32_t y;
  std::memcpy(&y, &s, sizeof y);
  if (is_nan(y)) return kCanonicalNaN;
  return ftz == FtzMode::Flush ? flush_subnormal(y) : y;
}

// Which adder a golden-model computation uses: the MPFR reference (verification, default) or
// the host FPU (the timing model, where only speed differs).
enum class Arith : uint8_t { Reference, Native };

inline uint32_t add(uint32_t a, uint32_t b, FtzMode ftz, Arith arith) {
  return arith == Arith::Native ? add_native(a, b, ftz) : add_ref(a, b, ftz);
}

}  // namespace arc::fp
