// RopHash: which L2 atomic (ROP) unit owns an address (config key addr_hash). The address is
// first cut into granules of rop_slice_bytes (default one 32-byte L2 sector); the granule
// number g is then mapped to a unit:
//   linear: g mod units
//   xor:    (g xor (g >> k) xor (g >> 2k)) mod units, k = ceil(log2 units)
//   ipoly:  g as a polynomial over GF(2), reduced modulo an irreducible polynomial of degree k
//           (the irreducible-polynomial indexing of GPGPU-Sim's "ipoly" L2 hash, Rau 1991),
//           then mod units.
#pragma once
#include <cstdint>
#include <string>

namespace arc::sim {

class RopHash {
 public:
  RopHash(const std::string& kind, uint32_t units, uint32_t slice_bytes);  // throws arc::Error
  uint32_t operator()(uint32_t word_addr) const;
  uint32_t units() const { return units_; }

 private:
  enum class Kind { Linear, Xor, Ipoly } kind_;
  uint32_t units_;
  uint32_t shift_;  // log2(slice_bytes / 4)
  uint32_t k_;      // ceil(log2 units), at least 1
  uint32_t poly_;   // irreducible polynomial of degree k_ (with the x^k term)
};

}  // namespace arc::sim
