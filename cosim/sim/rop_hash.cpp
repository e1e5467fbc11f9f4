#include "rop_hash.h"

#include <fmt/format.h>

#include "error.h"

namespace arc::sim {

namespace {
// One irreducible polynomial over GF(2) per degree 1..20 (x^k term included), from the
// standard tables of primitive polynomials (e.g. x^5 + x^2 + 1 = 0x25).
constexpr uint32_t kIrreducible[21] = {0,       0x3,     0x7,     0xB,     0x13,    0x25,    0x43,
                                       0x83,    0x11D,   0x211,   0x409,   0x805,   0x1053,  0x201B,
                                       0x4443,  0x8003,  0x1002D, 0x20009, 0x40027, 0x80027, 0x100009};
}  // namespace

RopHash::RopHash(const std::string& kind, uint32_t units, uint32_t slice_bytes) : units_(units) {
  if (kind == "linear") kind_ = Kind::Linear;
  else if (kind == "xor") kind_ = Kind::Xor;
  else if (kind == "ipoly") kind_ = Kind::Ipoly;
  else if (kind == "h100") kind_ = Kind::H100;
  else throw Error(fmt::format("addr_hash: unknown hash '{}' (linear, xor, ipoly, h100)", kind));
  if (units == 0) throw Error("rop_units must be at least 1");
  if (slice_bytes < 4 || (slice_bytes & (slice_bytes - 1))) throw Error("rop_slice_bytes must be a power of two >= 4");
  shift_ = static_cast<uint32_t>(__builtin_ctz(slice_bytes / 4));
  k_ = 1;
  while ((1u << k_) < units && k_ < 20) ++k_;
  poly_ = kIrreducible[k_];
}

}  // namespace arc::sim
