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

size_t pack(const trace::Instr& in, bool values, uint8_t* out, uint32_t more, int64_t stride) {
  uint8_t* o = out + 2;
  __builtin_memcpy(o, &in.active_mask, 4);  // the wide fields raw, the small ones as varints
  __builtin_memcpy(o + 4, &in.gap, 4);
  o[8] = in.param;
  o[9] = in.nparams;
  o[10] = static_cast<uint8_t>(more);
  o += 11;
  if (more) o = put(o, zigzag(stride));
  o = put(o, in.subcore);
  o = put(o, in.seq);
  o = put(o, in.flags);
  o = put(o, in.reduced_mask);
  const uint32_t a0 = in.addr[static_cast<size_t>(__builtin_ctz(in.active_mask))];
  const bool uniform = one_address(in);
  *o++ = uniform ? 1 : 0;
  if (uniform) {
    o = put(o, a0);
  } else {
    uint32_t prev = 0;
    for (uint32_t m = in.active_mask; m; m &= m - 1) {
      const int l = __builtin_ctz(m);
      const int64_t d = static_cast<int64_t>(in.addr[l]) - static_cast<int64_t>(prev);
      o = put(o, zigzag(d));
      prev = in.addr[l];
    }
  }
  if (values) {
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

void unpack(const uint8_t* p, bool values, trace::Instr& out, uint32_t& more, int64_t& stride) {
  p += 2;
  __builtin_memcpy(&out.active_mask, p, 4);
  __builtin_memcpy(&out.gap, p + 4, 4);
  out.param = p[8];
  out.nparams = p[9];
  more = p[10];
  p += 11;
  stride = more ? unzigzag(get(p)) : 0;
  out.subcore = static_cast<uint32_t>(get(p));
  out.seq = get(p);
  out.flags = static_cast<uint32_t>(get(p));
  out.reduced_mask = static_cast<uint32_t>(get(p));
  if (values) out.value.fill(0);  // inactive lanes read zero, as from the reader (a timing-only head's stay 0)
  if (*p++) {
    fill_lanes(out.addr, static_cast<uint32_t>(get(p)), out.active_mask);
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

void unpack_brief(const uint8_t* p, InstrBrief& out, uint32_t& more, int64_t& stride) {
  p += 2;
  __builtin_memcpy(&out.active_mask, p, 4);
  __builtin_memcpy(&out.gap, p + 4, 4);
  out.param = p[8];
  out.nparams = p[9];
  more = p[10];
  p += 11;
  stride = more ? unzigzag(get(p)) : 0;
  get(p);  // subcore
  get(p);  // seq
  out.flags = static_cast<uint32_t>(get(p));
  get(p);  // reduced_mask
  out.uniform = *p++ != 0;
  out.addr = out.uniform ? static_cast<uint32_t>(get(p)) : 0;
}

void next_param(InstrBrief& in, int64_t stride) {
  ++in.param;
  in.gap = 0;
  in.flags &= ~trace::kFlagFirstOfWarp;
  if (in.uniform) in.addr = static_cast<uint32_t>(static_cast<int64_t>(in.addr) + stride);
}

void next_param(trace::Instr& in, int64_t stride) {
  ++in.param;
  ++in.seq;
  in.gap = 0;
  in.flags &= ~trace::kFlagFirstOfWarp;
  for (uint32_t m = in.active_mask; m; m &= m - 1) {
    uint32_t& a = in.addr[static_cast<size_t>(__builtin_ctz(m))];
    a = static_cast<uint32_t>(static_cast<int64_t>(a) + stride);
  }
}

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
