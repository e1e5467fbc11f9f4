#include "read_ahead.h"

namespace arc::sim::packed {

namespace {

inline uint8_t* put(uint8_t* o, uint64_t v) {
  while (v >= 0x80) {
    *o++ = static_cast<uint8_t>(v | 0x80);
    v >>= 7;
  }
  *o++ = static_cast<uint8_t>(v);
  return o;
}

inline uint64_t zigzag(int64_t v) { return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63); }
inline int64_t unzigzag(uint64_t z) { return static_cast<int64_t>(z >> 1) ^ -static_cast<int64_t>(z & 1); }

inline uint64_t get(const uint8_t*& p) {
  if (*p < 0x80) return *p++;  // most fields: one byte
  uint64_t v = 0;
  for (int shift = 0;; shift += 7) {
    const uint8_t c = *p++;
    v |= static_cast<uint64_t>(c & 0x7F) << shift;
    if (!(c & 0x80)) return v;
  }
}

}  // namespace

namespace {

// dense: the values as trace::Reader::packed_values gives them (else in.value is read).
size_t pack_as(const trace::Instr& in, bool uniform, bool values, uint8_t* out, uint32_t more, int64_t stride,
               const uint8_t* dense = nullptr) {
  const uint32_t a0 = in.addr[static_cast<size_t>(__builtin_ctz(in.active_mask))];
  uint8_t* o = out + 2;
  uint8_t* const kind = o + kUniform;
  o += put_fixed(in, uniform ? a0 : 0, uniform ? kLanesUniform : kLanesDeltas, more, stride, o);
  if (!uniform) {
    // A few words (kMaxWords): each once, then a byte per active lane naming its word.
    uint32_t words[kMaxWords], nw = 0;
    uint8_t which[trace::kLanes];
    uint32_t lanes = 0;
    for (uint32_t m = in.active_mask; m; m &= m - 1) {
      const uint32_t a = in.addr[static_cast<size_t>(__builtin_ctz(m))];
      uint32_t k = 0;
      while (k < nw && words[k] != a) ++k;
      if (k == nw) {
        if (nw == kMaxWords) break;
        words[nw++] = a;
      }
      which[lanes++] = static_cast<uint8_t>(k);
    }
    if (lanes == static_cast<uint32_t>(__builtin_popcount(in.active_mask))) {
      *kind = kLanesWords;
      *o++ = static_cast<uint8_t>(nw);
      __builtin_memcpy(o, words, 4 * nw);
      o += 4 * nw;
      __builtin_memcpy(o, which, lanes);
      o += lanes;
    }
  }
  if (!uniform && *kind == kLanesDeltas) {
    uint32_t prev = 0;
    for (uint32_t m = in.active_mask; m; m &= m - 1) {
      const int l = __builtin_ctz(m);
      const int64_t d = static_cast<int64_t>(in.addr[l]) - static_cast<int64_t>(prev);
      o = put(o, zigzag(d));
      prev = in.addr[l];
    }
  }
  if (values && dense) {  // the same bytes, in the same order
    const size_t nv = 4 * static_cast<size_t>(__builtin_popcount(in.active_mask));
    std::memcpy(o, dense, nv);
    o += nv;
  } else if (values) {
    for (uint32_t m = in.active_mask; m; m &= m - 1) {
      __builtin_memcpy(o, &in.value[static_cast<size_t>(__builtin_ctz(m))], 4);
      o += 4;
    }
  }
  const size_t n = static_cast<size_t>(o - out - 2);
  out[0] = static_cast<uint8_t>(n);
  out[1] = static_cast<uint8_t>(n >> 8);
  return n + 2;
}

}  // namespace

size_t pack(const trace::Instr& in, bool values, uint8_t* out, uint32_t more, int64_t stride) {
  return pack_as(in, one_address(in), values, out, more, stride);
}

size_t pack_full(const trace::Instr& in, const uint8_t* values, bool uniform, uint8_t* out) {
  return pack_as(in, uniform || one_address(in), true, out, 0, 0, values);
}


void unpack(const uint8_t* p, bool values, trace::Instr& out, uint32_t& more, int64_t& stride) {
  const uint8_t kind = p[2 + kUniform];
  uint32_t word;
  __builtin_memcpy(&word, p + 2 + kWord, 4);
  p = read_common(p, out, more, stride);
  out.seq = 0;  // not kept (the model reads neither)
  out.reduced_mask = 0;
  if (values) out.value.fill(0);  // inactive lanes read zero, as from the reader (a timing-only head's stay 0)
  if (kind == kLanesUniform) {
    fill_lanes(out.addr, word, out.active_mask);
  } else if (kind == kLanesWords) {
    out.addr.fill(0);
    uint32_t words[kMaxWords];
    const uint32_t nw = *p++;
    __builtin_memcpy(words, p, 4 * nw);
    p += 4 * nw;
    for (uint32_t m = out.active_mask; m; m &= m - 1) out.addr[static_cast<size_t>(__builtin_ctz(m))] = words[*p++];
  } else {
    out.addr.fill(0);
    int64_t prev = 0;
    for (uint32_t m = out.active_mask; m; m &= m - 1) {
      prev += unzigzag(get(p));
      out.addr[static_cast<size_t>(__builtin_ctz(m))] = static_cast<uint32_t>(prev);
    }
  }
  if (values) {
    for (uint32_t m = out.active_mask; m; m &= m - 1) {
      __builtin_memcpy(&out.value[static_cast<size_t>(__builtin_ctz(m))], p, 4);
      p += 4;
    }
  }
}

uint32_t word_runs(const uint8_t* p, uint32_t param, int64_t stride, uint32_t* words, uint32_t* counts) {
  if (p[2 + kUniform] != kLanesWords) return 0;
  uint32_t mask;
  __builtin_memcpy(&mask, p + 2 + kMask, 4);
  const uint8_t* q = p + 2 + kFixed + (p[2 + kMore] ? 8 : 0);
  const uint32_t nw = *q++;
  const int64_t shift = static_cast<int64_t>(param) * stride;
  for (uint32_t k = 0; k < nw; ++k, q += 4) {
    uint32_t a;
    __builtin_memcpy(&a, q, 4);
    words[k] = static_cast<uint32_t>(static_cast<int64_t>(a) + shift);  // as advance() moves a lane
    counts[k] = 0;
  }
  for (int l = __builtin_popcount(mask); l > 0; --l) ++counts[*q++];
  return nw;
}

void next_param(InstrBrief& in, int64_t stride) {
  ++in.param;
  in.gap = 0;
  in.flags &= ~trace::kFlagFirstOfWarp;
  if (in.uniform) in.addr = static_cast<uint32_t>(static_cast<int64_t>(in.addr) + stride);
}

void next_param(trace::Instr& in, int64_t stride) { advance(in, 1, stride); }

void advance(trace::Instr& in, uint32_t k, int64_t stride) {
  in.param = static_cast<uint8_t>(in.param + k);
  in.seq += k;
  in.gap = 0;
  in.flags &= ~trace::kFlagFirstOfWarp;
  const int64_t d = static_cast<int64_t>(k) * stride;
  for (uint32_t m = in.active_mask; m; m &= m - 1) {
    uint32_t& a = in.addr[static_cast<size_t>(__builtin_ctz(m))];
    a = static_cast<uint32_t>(static_cast<int64_t>(a) + d);
  }
}

}  // namespace arc::sim::packed
