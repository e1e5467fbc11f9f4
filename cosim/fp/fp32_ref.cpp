#include "fp32_ref.h"

#include <mpfr.h>

#include <cstring>

namespace arc::fp {
namespace {

// binary32 in MPFR's convention (value = m * 2^e, 1/2 <= m < 1): the largest finite value
// has e = 128 and the smallest subnormal 2^-149 has e = -148.
constexpr mpfr_exp_t kEmin = -148;
constexpr mpfr_exp_t kEmax = 128;

// Holds MPFR variables for one thread and restores the caller's exponent range after use.
class Scratch {
 public:
  Scratch() {
    mpfr_inits2(24, x_, y_, z_, static_cast<mpfr_ptr>(nullptr));
  }
  ~Scratch() { mpfr_clears(x_, y_, z_, static_cast<mpfr_ptr>(nullptr)); }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;

  uint32_t add(uint32_t a, uint32_t b) {
    const mpfr_exp_t old_emin = mpfr_get_emin(), old_emax = mpfr_get_emax();
    mpfr_set_emin(kEmin);
    mpfr_set_emax(kEmax);
    set_bits(x_, a);
    set_bits(y_, b);
    int inex = mpfr_add(z_, x_, y_, MPFR_RNDN);
    inex = mpfr_check_range(z_, inex, MPFR_RNDN);
    mpfr_subnormalize(z_, inex, MPFR_RNDN);
    const uint32_t r = get_bits(z_);
    mpfr_set_emin(old_emin);
    mpfr_set_emax(old_emax);
    return r;
  }

 private:
  // Exact conversion from the bit pattern through integer significand and exponent.
  static void set_bits(mpfr_t v, uint32_t x) {
    const bool neg = x >> 31;
    const uint32_t e = (x >> 23) & 0xFF, m = x & 0x7FFFFF;
    if (e == 0xFF) {
      if (m) mpfr_set_nan(v); else mpfr_set_inf(v, neg ? -1 : 1);
      return;
    }
    if (e == 0 && m == 0) {
      mpfr_set_zero(v, neg ? -1 : 1);
      return;
    }
    const uint32_t sig = e ? (m | 0x800000u) : m;
    const long exp2 = (e ? static_cast<long>(e) : 1L) - 127 - 23;
    mpfr_set_ui_2exp(v, sig, exp2, MPFR_RNDN);  // exact: sig has <= 24 bits
    if (neg) mpfr_neg(v, v, MPFR_RNDN);
  }

  // Exact conversion back: the value is already a binary32 number after subnormalize.
  static uint32_t get_bits(mpfr_t v) {
    if (mpfr_nan_p(v)) return kCanonicalNaN;
    const uint32_t sign = mpfr_signbit(v) ? 0x80000000u : 0u;
    if (mpfr_inf_p(v)) return sign | 0x7F800000u;
    if (mpfr_zero_p(v)) return sign;
    // |v| = sig * 2^(e - 24) with 2^23 <= sig < 2^24 (precision 24).
    mpfr_exp_t e = 0;
    mpfr_t mag;
    mpfr_init2(mag, 24);
    mpfr_abs(mag, v, MPFR_RNDN);
    e = mpfr_get_exp(mag);              // value = m * 2^e, 1/2 <= m < 1
    mpfr_mul_2si(mag, mag, 24 - e, MPFR_RNDN);
    const unsigned long sig = mpfr_get_ui(mag, MPFR_RNDN);
    mpfr_clear(mag);
    const long biased = static_cast<long>(e) - 1 + 127;   // exponent of the leading bit
    if (biased >= 1) {
      return sign | (static_cast<uint32_t>(biased) << 23) | (static_cast<uint32_t>(sig) & 0x7FFFFFu);
    }
    // Subnormal: shift the 24-bit significand down to the 2^-149 grid (exact).
    const uint32_t sub = static_cast<uint32_t>(sig >> (1 - biased));
    return sign | sub;
  }

  mpfr_t x_, y_, z_;
};

}  // namespace

uint32_t add_ref(uint32_t a, uint32_t b, FtzMode ftz) {
  thread_local Scratch s;
  if (ftz == FtzMode::Flush) {
    a = flush_subnormal(a);
    b = flush_subnormal(b);
  }
  uint32_t r = s.add(a, b);
  if (ftz == FtzMode::Flush) r = flush_subnormal(r);
  return r;
}

uint64_t ulp_distance(uint32_t a, uint32_t b) {
  // Map sign-magnitude patterns onto a monotonic integer line (+0 and -0 both map to 0).
  auto key = [](uint32_t x) -> int64_t {
    const int64_t mag = x & 0x7FFFFFFFu;
    return (x >> 31) ? -mag : mag;
  };
  const int64_t d = key(a) - key(b);
  return static_cast<uint64_t>(d < 0 ? -d : d);
}

}  // namespace arc::fp
