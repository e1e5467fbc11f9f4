#include "fp32_vectors.h"

namespace arc::fp {

const std::vector<uint32_t>& special_values() {
  static const std::vector<uint32_t> table = [] {
    const uint32_t positive[] = {
        0x00000000,  // +0
        0x00000001,  // smallest subnormal 2^-149
        0x00000002, 0x00000003,
        0x003FFFFF, 0x00400000,  // mid subnormals
        0x007FFFFE, 0x007FFFFF,  // largest subnormals
        0x00800000,  // smallest normal 2^-126
        0x00800001, 0x00FFFFFF, 0x01000000,
        0x33000000,  // 2^-25 (half an ulp of 1 - 2^-24: a tie that carries into 1.0)
        0x33800000,  // 2^-24 (half an ulp of 1.0)
        0x33800001, 0x34000000,  // 2^-23 (one ulp of 1.0)
        0x3EAAAAAB,  // 1/3
        0x3DCCCCCD,  // 0.1
        0x3F7FFFFF,  // 1 - 2^-24
        0x3F800000,  // 1.0
        0x3F800001,  // 1 + 2^-23
        0x3FC00000,  // 1.5
        0x40000000,  // 2.0
        0x4B000000,  // 2^23
        0x4B7FFFFF,  // 2^24 - 1
        0x4B800000,  // 2^24
        0x7EFFFFFF, 0x7F000000,  // near 2^127
        0x73000000,  // 2^103 (half an ulp of the largest finite: rounds it up to inf)
        0x7F7FFFFE, 0x7F7FFFFF,  // largest finite
        0x7F800000,  // inf
        0x7F800001,  // signalling NaN
        0x7FBFFFFF,  // signalling NaN, largest payload
        0x7FC00000,  // quiet NaN
        0x7FFFFFFF,  // canonical NaN
    };
    std::vector<uint32_t> t;
    for (uint32_t v : positive) {
      t.push_back(v);
      t.push_back(v | 0x80000000u);
    }
    return t;
  }();
  return table;
}

const char* to_string(VectorClass c) {
  switch (c) {
    case VectorClass::Uniform: return "uniform";
    case VectorClass::ExpGap: return "exp-gap";
    case VectorClass::Cancel: return "cancel";
    case VectorClass::Tie: return "tie";
    case VectorClass::Subnormal: return "subnormal";
    case VectorClass::Overflow: return "overflow";
    case VectorClass::Carry: return "carry";
    case VectorClass::Special: return "special";
    case VectorClass::kCount: break;
  }
  return "?";
}

std::pair<uint32_t, uint32_t> VectorGenerator::next(VectorClass* cls) {
  // Weights (out of 100): the random-bits class alone rarely hits ties or cancellation.
  const uint32_t r = uniform(0, 99);
  VectorClass c;
  std::pair<uint32_t, uint32_t> v;
  if (r < 15) { c = VectorClass::Uniform; v = {bits32(), bits32()}; }
  else if (r < 45) { c = VectorClass::ExpGap; v = exp_gap(); }
  else if (r < 60) { c = VectorClass::Cancel; v = cancel(); }
  else if (r < 75) { c = VectorClass::Tie; v = tie(); }
  else if (r < 85) { c = VectorClass::Subnormal; v = subnormal(); }
  else if (r < 90) { c = VectorClass::Overflow; v = overflow(); }
  else if (r < 93) { c = VectorClass::Carry; v = carry(); }
  else { c = VectorClass::Special; v = special(); }
  if (uniform(0, 1)) std::swap(v.first, v.second);
  if (cls) *cls = c;
  return v;
}

// Two finite operands whose exponents differ by 0..40.
std::pair<uint32_t, uint32_t> VectorGenerator::exp_gap() {
  const uint32_t gap = uniform(0, 40);
  const uint32_t ea = uniform(1, 254);
  const uint32_t eb = ea > gap ? ea - gap : 0;
  return {pack(uniform(0, 1), ea, bits32()), pack(uniform(0, 1), eb, bits32())};
}

// Opposite signs and nearly equal magnitudes: massive cancellation, exact zeros.
std::pair<uint32_t, uint32_t> VectorGenerator::cancel() {
  const uint32_t sa = uniform(0, 1);
  const uint32_t ea = uniform(0, 254);
  const uint32_t ma = bits32() & 0x7FFFFF;
  uint32_t eb = ea, mb = ma;
  switch (uniform(0, 3)) {
    case 0: break;                                          // exactly x + (-x)
    case 1: mb = (ma ^ (bits32() & 0xFF)) & 0x7FFFFF; break;  // low bits differ
    case 2: mb = (ma + uniform(1, 3)) & 0x7FFFFF; break;
    default: eb = ea > 0 ? ea - 1 : 0; mb = bits32(); break;   // one exponent apart
  }
  return {pack(sa, ea, ma), pack(sa ^ 1, eb, mb)};
}

// The smaller operand's shifted-out bits are exactly one half ulp (or half +- a little):
// exercises round-to-nearest-even ties in both the add and the subtract path.
std::pair<uint32_t, uint32_t> VectorGenerator::tie() {
  const uint32_t gap = uniform(1, 25);
  const uint32_t ea = uniform(gap + 1, 254);
  const uint32_t eb = ea - gap;
  uint32_t mb = bits32() & 0x7FFFFF;
  if (gap <= 23) {
    const uint32_t low = (1u << gap) - 1;  // bits of b below a's ulp
    uint32_t half = 1u << (gap - 1);
    const uint32_t wiggle = uniform(0, 3);
    if (wiggle == 1 && half > 1) half += 1;
    if (wiggle == 2 && half > 1) half -= 1;
    mb = (mb & ~low) | half;
  }
  return {pack(uniform(0, 1), ea, bits32()), pack(uniform(0, 1), eb, mb)};
}

// Rounding that carries out of the mantissa: the larger operand's mantissa is all ones and the
// smaller's bits below its ulp are a half ulp (a tie, which rounds to even: up), a little more, or
// a little less, at every exponent gap 1..24 (tie() draws an all-ones mantissa about once in 2^23
// vectors, so gaps 2..21 never carried). Same signs: the sum carries into the next binade, and at
// the top exponent overflows to infinity by rounding alone (one in four of these vectors).
std::pair<uint32_t, uint32_t> VectorGenerator::carry() {
  const uint32_t gap = uniform(1, 24);
  const uint32_t ea = uniform(0, 3) == 0 ? 254 : uniform(gap + 1, 254);
  const uint32_t eb = ea - gap;
  const uint32_t wiggle = uniform(0, 2);
  uint32_t mb = bits32() & 0x7FFFFF;  // gap 24: all of b lies below a's ulp, a half or more: up
  if (gap < 24) {                     // b's low `gap` bits lie below a's ulp (its hidden bit above them)
    uint32_t below = 1u << (gap - 1);                   // exactly a half ulp
    if (wiggle == 1) below += 1;                        // just above a half: up
    if (wiggle == 2 && below > 1) below -= 1;           // just below: stays
    mb = (mb & ~((1u << gap) - 1)) | below;
  }
  const uint32_t s = uniform(0, 1);
  return {pack(s, ea, 0x7FFFFF), pack(s, eb, mb)};
}

// One or both operands subnormal, or both tiny normals whose sum or difference is subnormal.
std::pair<uint32_t, uint32_t> VectorGenerator::subnormal() {
  switch (uniform(0, 2)) {
    case 0: return {pack(uniform(0, 1), 0, bits32()), pack(uniform(0, 1), 0, bits32())};
    case 1: return {pack(uniform(0, 1), 0, bits32()), pack(uniform(0, 1), uniform(1, 30), bits32())};
    default: return {pack(uniform(0, 1), uniform(1, 2), bits32()), pack(uniform(0, 1), uniform(1, 2), bits32())};
  }
}

// Large same-sign operands near the top of the range: overflow to infinity or not.
std::pair<uint32_t, uint32_t> VectorGenerator::overflow() {
  const uint32_t s = uniform(0, 1);
  return {pack(s, uniform(250, 254), bits32()), pack(s ^ (uniform(0, 7) == 0), uniform(225, 254), bits32())};
}

// A special value against a random or another special value.
std::pair<uint32_t, uint32_t> VectorGenerator::special() {
  const auto& t = special_values();
  const uint32_t a = t[uniform(0, static_cast<uint32_t>(t.size() - 1))];
  const uint32_t b = uniform(0, 1) ? t[uniform(0, static_cast<uint32_t>(t.size() - 1))] : bits32();
  return {a, b};
}

uint64_t fresh_seed() {
  std::random_device rd;
  return uint64_t{rd()} << 32 | rd();
}

}  // namespace arc::fp
