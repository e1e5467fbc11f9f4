// Per-lane tests over a warp's 32 lanes at once, as a 32-bit mask (bit l = lane l): the hot
// loops of trace checking, address matching and the timing model ask them for every warp
// instruction. SSE2 (every x86-64) compares four lanes per instruction; elsewhere a plain loop.
#pragma once
#include <array>
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace arc {

using Lanes = std::array<uint32_t, 32>;

// Lanes whose word equals v.
inline uint32_t lanes_equal(const Lanes& a, uint32_t v) {
#if defined(__SSE2__)
  const __m128i vv = _mm_set1_epi32(static_cast<int>(v));
  uint32_t m = 0;
#pragma GCC unroll 8
  for (int i = 0; i < 32; i += 4) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(a.data() + i));
    m |= static_cast<uint32_t>(_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(x, vv)))) << i;
  }
  return m;
#else
  uint32_t m = 0;
  for (int l = 0; l < 32; ++l) m |= static_cast<uint32_t>(a[static_cast<size_t>(l)] == v) << l;
  return m;
#endif
}

// Lanes whose word is not 0.
inline uint32_t lanes_nonzero(const Lanes& a) { return ~lanes_equal(a, 0); }

// Lanes whose word is >= bound (unsigned).
inline uint32_t lanes_at_least(const Lanes& a, uint32_t bound) {
#if defined(__SSE2__)
  // Unsigned x >= b as signed (x ^ 2^31) > (b ^ 2^31) - 1; b = 0: every lane.
  if (bound == 0) return ~0u;
  const __m128i flip = _mm_set1_epi32(static_cast<int>(0x80000000u));
  const __m128i bb = _mm_set1_epi32(static_cast<int>((bound - 1) ^ 0x80000000u));
  uint32_t m = 0;
#pragma GCC unroll 8
  for (int i = 0; i < 32; i += 4) {
    const __m128i x = _mm_xor_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(a.data() + i)), flip);
    m |= static_cast<uint32_t>(_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpgt_epi32(x, bb)))) << i;
  }
  return m;
#else
  uint32_t m = 0;
  for (int l = 0; l < 32; ++l) m |= static_cast<uint32_t>(a[static_cast<size_t>(l)] >= bound) << l;
  return m;
#endif
}

// a[l] = v on the lanes of mask, 0 on the others.
inline void fill_lanes(Lanes& a, uint32_t v, uint32_t mask) {
#if defined(__SSE2__)
  // Four lanes' mask bits -> four all-ones / all-zeros words, by table.
  alignas(16) static constexpr uint32_t kOn[16][4] = {
      {0, 0, 0, 0}, {~0u, 0, 0, 0}, {0, ~0u, 0, 0}, {~0u, ~0u, 0, 0},
      {0, 0, ~0u, 0}, {~0u, 0, ~0u, 0}, {0, ~0u, ~0u, 0}, {~0u, ~0u, ~0u, 0},
      {0, 0, 0, ~0u}, {~0u, 0, 0, ~0u}, {0, ~0u, 0, ~0u}, {~0u, ~0u, 0, ~0u},
      {0, 0, ~0u, ~0u}, {~0u, 0, ~0u, ~0u}, {0, ~0u, ~0u, ~0u}, {~0u, ~0u, ~0u, ~0u}};
  const __m128i vv = _mm_set1_epi32(static_cast<int>(v));
#pragma GCC unroll 8
  for (int i = 0; i < 32; i += 4) {
    const __m128i on = _mm_load_si128(reinterpret_cast<const __m128i*>(kOn[(mask >> i) & 15u]));
    _mm_storeu_si128(reinterpret_cast<__m128i*>(a.data() + i), _mm_and_si128(on, vv));
  }
#else
  for (int l = 0; l < 32; ++l) a[static_cast<size_t>(l)] = (mask >> l & 1u) ? v : 0u;
#endif
}

}  // namespace arc
