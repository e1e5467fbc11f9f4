#include "warp_gen.h"

namespace arc::golden {

uint32_t WarpGen::random_mask() {
  switch (below(8)) {
    case 0: return 0;
    case 1: return 0xFFFFFFFFu;
    case 2: return 1u << below(32);
    case 3: {
      const uint32_t n = below(33);
      return n == 32 ? 0xFFFFFFFFu : (1u << n) - 1u;
    }
    default: {  // random density 0..1
      const uint32_t p = below(101);
      uint32_t m = 0;
      for (int l = 0; l < kLanes; ++l)
        if (below(100) < p) m |= 1u << l;
      return m;
    }
  }
}

uint32_t WarpGen::random_value() {
  const uint32_t sign = below(2) << 31;
  const uint32_t man = static_cast<uint32_t>(rng_()) & 0x007FFFFFu;
  switch (below(16)) {
    case 0: return sign | (man == 0 ? 1u : man);                        // subnormal
    case 1: return sign | (1u << 23) | man;                             // tiny normal (exp 1)
    case 2: return sign;                                                // +-0
    case 3: return sign | 0x7F800000u;                                  // +-inf
    case 4: return sign | 0x7F800000u | (man == 0 ? 0x400000u : man);   // NaN, any payload
    case 5: return sign | (0xFEu << 23) | man;                          // huge: overflow
    case 6: return static_cast<uint32_t>(rng_());                       // any bits
    case 7: return sign | ((124u + below(6)) << 23) | (man & 0x7F0000u);  // few bits: ties, exact
    default: return sign | ((120u + below(16)) << 23) | man;            // normals near 1.0
  }
}

WarpCase WarpGen::next(fp::FtzMode ftz) {
  WarpCase c;
  c.in.active_mask = random_mask();
  const uint32_t base = static_cast<uint32_t>(rng_());
  const uint32_t pattern = below(5);
  const uint32_t k = 2 + below(7);
  std::array<uint32_t, 4> pool{};
  for (auto& p : pool) p = below(2) ? static_cast<uint32_t>(rng_()) : below(8);
  const uint32_t pool_n = 1 + below(4);
  for (int l = 0; l < kLanes; ++l) {
    switch (pattern) {
      case 0: c.in.addr[l] = base; break;                           // all same
      case 1: c.in.addr[l] = base + below(k); break;                // k distinct, random lanes
      case 2: c.in.addr[l] = base + static_cast<uint32_t>(l); break;  // all distinct
      case 3: c.in.addr[l] = pool[below(pool_n)]; break;            // small pool
      default: c.in.addr[l] = base + static_cast<uint32_t>(l) % k; break;  // interleaved
    }
    c.in.value[l] = random_value();
  }
  c.cfg.mode = static_cast<SchedMode>(below(4));
  c.cfg.threshold = below(41);
  c.cfg.adder_ftz = ftz;
  c.busy = below(2) != 0;
  return c;
}

namespace {

WarpCase make(uint32_t mask, SchedMode mode, uint32_t thr, bool busy, fp::FtzMode ftz) {
  WarpCase c;
  c.in.active_mask = mask;
  c.cfg = {mode, thr, ftz};
  c.busy = busy;
  for (int l = 0; l < kLanes; ++l) {
    c.in.addr[l] = 0x100;
    c.in.value[l] = 0x3F800000u;  // 1.0
  }
  return c;
}

}  // namespace

std::vector<WarpCase> directed_cases(fp::FtzMode ftz) {
  std::vector<WarpCase> v;
  const SchedMode modes[] = {SchedMode::Never, SchedMode::Always, SchedMode::Threshold, SchedMode::Dynamic};
  for (SchedMode m : modes)
    for (bool busy : {false, true}) {
      v.push_back(make(0xFFFFFFFFu, m, 16, busy, ftz));  // one full group: 32 x 1.0
      v.push_back(make(0, m, 0, busy, ftz));             // empty mask
      auto d = make(0xFFFFFFFFu, m, 2, busy, ftz);       // all distinct
      for (int l = 0; l < kLanes; ++l) d.in.addr[l] = 0xFFFFFFE0u + static_cast<uint32_t>(l);
      v.push_back(d);
    }
  // Threshold boundaries: groups of sizes 1, 2, 3, 5, 7, 14 against thresholds 0..33 and 63.
  for (uint32_t thr : {0u, 1u, 2u, 3u, 4u, 5u, 7u, 8u, 14u, 15u, 31u, 32u, 33u, 63u}) {
    auto c = make(0xFFFFFFFFu, SchedMode::Threshold, thr, false, ftz);
    const uint32_t sizes[] = {1, 2, 3, 5, 7, 14};
    int l = 0;
    for (uint32_t g = 0; g < 6; ++g)
      for (uint32_t i = 0; i < sizes[g]; ++i, ++l) c.in.addr[l] = 0x40 + g;
    v.push_back(c);
  }
  // One-lane reduced groups keep their bits: non-canonical NaN, subnormal, -0.
  for (uint32_t x : {0x7FC00001u, 0xFF800001u, 0x00000001u, 0x807FFFFFu, 0x80000000u}) {
    auto c = make(1u << 7, SchedMode::Always, 0, false, ftz);
    c.in.value[7] = x;
    v.push_back(c);
  }
  // Sums: inf + -inf = NaN, overflow, subnormal accumulation, -0 + -0, x + -x = +0.
  const std::vector<std::vector<uint32_t>> sums = {
      {0x7F800000u, 0xFF800000u},
      {0x7F7FFFFFu, 0x7F7FFFFFu, 0x7F7FFFFFu},
      {0x00000001u, 0x00000001u, 0x00400000u, 0x00400000u},
      {0x00800000u, 0x80000001u},
      {0x80000000u, 0x80000000u, 0x80000000u},
      {0x3F800000u, 0xBF800000u},
      {0x4B800000u, 0x3F800000u, 0x3F800000u},  // 2^24 + 1 + 1: ties to even, order matters
      {0x3F800000u, 0x7FC00000u, 0x3F800000u},
      // Carry out of the significand add with guard and round bits set, sticky clear: above
      // half, rounds up to 0x400FFFF9 (the round bit must reach the sticky bit after the
      // right shift; mutant 43 of scripts/mutate-rtl.sh).
      {0x3FFFFFF0u, 0x3E800006u},
  };
  for (const auto& s : sums)
    for (SchedMode m : {SchedMode::Always, SchedMode::Never}) {
      auto c = make(0, m, 0, true, ftz);
      for (size_t i = 0; i < s.size(); ++i) {
        const int lane = static_cast<int>(3 + 5 * i);
        c.in.active_mask |= 1u << lane;
        c.in.value[lane] = s[i];
      }
      v.push_back(c);
    }
  // Route changes inside one instruction (threshold 3, alternating group sizes) and lanes
  // interleaved across 4 addresses.
  {
    auto c = make(0xFFFFFFFFu, SchedMode::Threshold, 3, false, ftz);
    for (int l = 0; l < kLanes; ++l) c.in.addr[l] = static_cast<uint32_t>(l % 4 == 0 ? 1000 + l : 7 + (l % 4));
    v.push_back(c);
  }
  {
    auto c = make(0xA5A5A5A5u, SchedMode::Always, 0, false, ftz);
    for (int l = 0; l < kLanes; ++l) {
      c.in.addr[l] = static_cast<uint32_t>(l % 4);
      c.in.value[l] = 0x3DCCCCCDu + static_cast<uint32_t>(l) * 0x00101010u;
    }
    v.push_back(c);
  }
  return v;
}

}  // namespace arc::golden
