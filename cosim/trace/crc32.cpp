// detail::crc32_of: zlib's crc32 (polynomial 0xEDB88320), the same value, faster where the CPU
// multiplies carry-less. Every block's stored bytes are checked (FORMAT.md "Blocks"), so on the
// timing model's reader thread zlib's table-driven crc32 was ~4 instructions per byte, 1.5 % of
// a timing-only run; folding 64 bytes at a time with PCLMULQDQ (Intel, "Fast CRC Computation
// for Generic Polynomials Using PCLMULQDQ Instruction", 2009; the constants of zlib-ng's and
// Chromium's crc32 for this polynomial) is ~0.3. The tail (under 16 bytes, or a buffer under
// 64) and CPUs without PCLMULQDQ go through zlib.
#include <zlib.h>

#include <cstddef>
#include <cstdint>

#include "trace_codec.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace arc::trace::detail {

namespace {

uint32_t zlib_crc(uint32_t crc, const uint8_t* p, size_t n) {  // crc32(crc, p, n) for any n
  uLong c = crc;
  while (n > 0) {  // zlib takes uInt lengths
    const uInt chunk = static_cast<uInt>(n > (1u << 30) ? (1u << 30) : n);
    c = crc32(c, p, chunk);
    p += chunk;
    n -= chunk;
  }
  return static_cast<uint32_t>(c);
}

#if defined(__x86_64__)
#define ARC_CLMUL __attribute__((target("pclmul,sse4.1")))
ARC_CLMUL inline __m128i load(const uint8_t* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
// x times k (its low half by k's low, its high half by k's high) xor next: one 16-byte fold.
ARC_CLMUL inline __m128i fold16(__m128i x, __m128i k, __m128i next) {
  const __m128i lo = _mm_clmulepi64_si128(x, k, 0x00);
  const __m128i hi = _mm_clmulepi64_si128(x, k, 0x11);
  return _mm_xor_si128(_mm_xor_si128(hi, lo), next);
}
// The raw (not inverted) crc state after `len` bytes (>= 64, a multiple of 16) from state `crc`.
ARC_CLMUL uint32_t fold(uint32_t crc, const uint8_t* buf, size_t len) {
  alignas(16) static const uint64_t k1k2[] = {0x0154442bd4, 0x01c6e41596};
  alignas(16) static const uint64_t k3k4[] = {0x01751997d0, 0x00ccaa009e};
  alignas(16) static const uint64_t k5k0[] = {0x0163cd6124, 0x0000000000};
  alignas(16) static const uint64_t poly[] = {0x01db710641, 0x01f7011641};
  // x1..x4 <- x1..x4 x k (the high and low halves by their constants) xor the next 64 bytes.
  __m128i x1 = _mm_xor_si128(load(buf), _mm_cvtsi32_si128(static_cast<int>(crc)));
  __m128i x2 = load(buf + 16), x3 = load(buf + 32), x4 = load(buf + 48);
  __m128i k = _mm_load_si128(reinterpret_cast<const __m128i*>(k1k2));
  buf += 64;
  len -= 64;
  for (; len >= 64; buf += 64, len -= 64) {
    x1 = fold16(x1, k, load(buf));
    x2 = fold16(x2, k, load(buf + 16));
    x3 = fold16(x3, k, load(buf + 32));
    x4 = fold16(x4, k, load(buf + 48));
  }
  // Four lanes into one, then the rest 16 bytes at a time.
  k = _mm_load_si128(reinterpret_cast<const __m128i*>(k3k4));
  x1 = fold16(x1, k, x2);
  x1 = fold16(x1, k, x3);
  x1 = fold16(x1, k, x4);
  for (; len >= 16; buf += 16, len -= 16) x1 = fold16(x1, k, load(buf));
  // 128 bits to 64, then Barrett reduction to 32.
  const __m128i mask32 = _mm_setr_epi32(~0, 0, ~0, 0);
  __m128i x = _mm_xor_si128(_mm_srli_si128(x1, 8), _mm_clmulepi64_si128(x1, k, 0x10));
  k = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(k5k0));
  x = _mm_xor_si128(_mm_clmulepi64_si128(_mm_and_si128(x, mask32), k, 0x00), _mm_srli_si128(x, 4));
  k = _mm_load_si128(reinterpret_cast<const __m128i*>(poly));
  __m128i t = _mm_and_si128(_mm_clmulepi64_si128(_mm_and_si128(x, mask32), k, 0x10), mask32);
  t = _mm_clmulepi64_si128(t, k, 0x00);
  return static_cast<uint32_t>(_mm_extract_epi32(_mm_xor_si128(x, t), 1));
}
#undef ARC_CLMUL

bool has_clmul() {
  static const bool yes = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1");
  return yes;
}
#endif

}  // namespace

uint32_t crc32_of(const uint8_t* p, size_t n) {
#if defined(__x86_64__)
  if (n >= 64 && has_clmul()) {
    const size_t m = n & ~size_t{15};
    const uint32_t state = fold(0xFFFFFFFFu, p, m);  // zlib's crc32 starts from ~0 and inverts at the end
    return zlib_crc(~state, p + m, n - m);
  }
#endif
  return zlib_crc(0, p, n);
}

}  // namespace arc::trace::detail
