// The project's one numeric reference for binary32 addition (../shared/DESIGN.md, "Numeric
// contract"). Built on MPFR: the exact sum is rounded once to binary32 (nearest even) with
// IEEE subnormals; the host's float '+' is never used.
#pragma once
#include <cstdint>

namespace arc::fp {

// FtzMode::Flush = PTX red/atom.add.f32: subnormal inputs and results become a zero of the
// same sign. FtzMode::Keep = IEEE subnormals (plain add.f32 without .ftz).
enum class FtzMode { Keep = 0, Flush = 1 };

constexpr uint32_t kCanonicalNaN = 0x7FFFFFFFu;

// a + b on binary32 bit patterns. Any NaN result is kCanonicalNaN.
uint32_t add_ref(uint32_t a, uint32_t b, FtzMode ftz);

// Classification helpers on bit patterns (no host float arithmetic).
inline bool is_nan(uint32_t x) { return (x & 0x7F800000u) == 0x7F800000u && (x & 0x007FFFFFu); }
inline bool is_subnormal(uint32_t x) { return (x & 0x7F800000u) == 0 && (x & 0x007FFFFFu); }
inline uint32_t flush_subnormal(uint32_t x) { return is_subnormal(x) ? (x & 0x80000000u) : x; }

// Distance in units in the last place between two finite values (0 when equal bit patterns
// or both zero); used to report how far two memory images differ.
uint64_t ulp_distance(uint32_t a, uint32_t b);

}  // namespace arc::fp
