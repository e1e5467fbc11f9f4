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

namespace {

// The fixed part of a packed record, in the order pack() writes it; p ends on the address kind.
struct Fixed {
  uint32_t mask, gap, more, subcore, flags, reduced;
  uint8_t param, nparams;
  int64_t stride;
  uint64_t seq;
};
Fixed read_fixed(const uint8_t*& p) {
  Fixed f;
  p += 2;
  __builtin_memcpy(&f.mask, p, 4);
  __builtin_memcpy(&f.gap, p + 4, 4);
  f.param = p[8];
  f.nparams = p[9];
  f.more = p[10];
  p += 11;
  f.stride = f.more ? unzigzag(get(p)) : 0;
  f.subcore = static_cast<uint32_t>(get(p));
  f.seq = get(p);
  f.flags = static_cast<uint32_t>(get(p));
  f.reduced = static_cast<uint32_t>(get(p));
  return f;
}

// read_fixed(), with the fields an Instr and an InstrBrief share set in `out`.
template <class Out>
Fixed read_common(const uint8_t*& p, Out& out, uint32_t& more, int64_t& stride) {
  const Fixed f = read_fixed(p);
  out.active_mask = f.mask;
  out.gap = f.gap;
  out.param = f.param;
  out.nparams = f.nparams;
  out.flags = f.flags;
  more = f.more;
  stride = f.stride;
  return f;
}

}  // namespace

void unpack(const uint8_t* p, bool values, trace::Instr& out, uint32_t& more, int64_t& stride) {
  const Fixed f = read_common(p, out, more, stride);
  out.subcore = f.subcore;
  out.seq = f.seq;
  out.reduced_mask = f.reduced;
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

void unpack_brief(const uint8_t* p, InstrBrief& out) {
  uint32_t more;
  read_common(p, out, more, out.stride);
  out.more = static_cast<uint8_t>(more);
  out.uniform = *p++ != 0;
  out.addr = out.uniform ? static_cast<uint32_t>(get(p)) : 0;
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
