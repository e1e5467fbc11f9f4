// RopHash: which L2 atomic (ROP) unit owns an address (config key addr_hash). The address is
// first cut into granules of rop_slice_bytes (default one 32-byte L2 sector); the granule
// number g is then mapped to a unit:
//   linear: g mod units
//   xor:    (g xor (g >> k) xor (g >> 2k)) mod units, k = ceil(log2 units)
//   ipoly:  g as a polynomial over GF(2), reduced modulo an irreducible polynomial of degree k
//           (the irreducible-polynomial indexing of GPGPU-Sim's "ipoly" L2 hash, Rau 1991),
//           then mod units.
//   h100:   what the H100's L2 was measured to do (results/h100/validation/full/slices): the
//           granule is a 128-byte line, and lines whose numbers differ only in bits 0 and 2
//           (address bits 7 and 9) share a unit; the other line bits are spread over the
//           units by a fixed multiplicative hash (the H100's own function of them, which
//           also takes physical page bits, is not identified). rop_slice_bytes is unused.
#pragma once
#include <cstdint>
#include <string>

namespace arc::sim {

class RopHash {
 public:
  RopHash(const std::string& kind, uint32_t units, uint32_t slice_bytes);  // throws arc::Error
  uint32_t operator()(uint32_t word_addr) const;  // inline (below): once per request, in the LSU's step
  uint32_t units() const { return units_; }

 private:
  enum class Kind { Linear, Xor, Ipoly, H100 } kind_;
  uint32_t units_;
  uint32_t shift_;  // log2(slice_bytes / 4)
  uint32_t k_;      // ceil(log2 units), at least 1
  uint32_t poly_;   // irreducible polynomial of degree k_ (with the x^k term)
};

// Inline: the LSU routes every request it forwards.
inline uint32_t RopHash::operator()(uint32_t word_addr) const {
  const uint32_t g = word_addr >> shift_;
  switch (kind_) {
    case Kind::Linear: return g % units_;
    case Kind::Xor: return (g ^ (g >> k_) ^ (g >> (2 * k_))) % units_;
    case Kind::H100: {
      const uint32_t line = word_addr >> 5;
      const uint64_t key = (line >> 3) << 1 | (line >> 1 & 1);  // without line bits 0 and 2
      return static_cast<uint32_t>(((key * 0x9E3779B97F4A7C15ull) >> 32) % units_);
    }
    case Kind::Ipoly: {
      uint64_t r = g;
      for (int bit = 31; bit >= static_cast<int>(k_); --bit)
        if (r >> bit & 1) r ^= static_cast<uint64_t>(poly_) << (bit - static_cast<int>(k_));
      return static_cast<uint32_t>(r) % units_;
    }
  }
  return 0;
}

}  // namespace arc::sim
