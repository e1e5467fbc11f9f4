// BitSet: a fixed-size set of small integers (SM or ROP unit ids) as 64-bit words, for the
// timing model's per-cycle bookkeeping: insert, erase and membership in O(1), and visiting
// the members in ascending order from any start (wrapping) at the cost of a ctz per member.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace arc::sim {

class BitSet {
 public:
  explicit BitSet(size_t n = 0) : n_(n), w_((n + 63) / 64, 0), snap_(w_.size(), 0) {}
  void insert(size_t i) { w_[i / 64] |= uint64_t{1} << (i % 64); }
  void erase(size_t i) { w_[i / 64] &= ~(uint64_t{1} << (i % 64)); }
  bool contains(size_t i) const { return (w_[i / 64] >> (i % 64)) & 1; }
  bool empty() const {
    for (uint64_t w : w_)
      if (w) return false;
    return true;
  }
  // Calls f(i) for each member i, ascending from `start` to the end and then from 0 to
  // start - 1. Members that f inserts or erases are not seen (f visits a snapshot).
  // Not reentrant: one visit at a time per set.
  template <class F>
  void for_each_from(size_t start, F&& f) {
    std::copy(w_.begin(), w_.end(), snap_.begin());  // same size: no reallocation check
    visit(snap_, start, n_, f);
    visit(snap_, 0, start, f);
  }
  template <class F>
  void for_each(F&& f) {  // ascending, on a snapshot
    for_each_from(0, f);
  }
  // for_each() over the members that `mask` (a set of the same size) also holds.
  template <class F>
  void for_each_in(const BitSet& mask, F&& f) {
    for (size_t b = 0; b < w_.size(); ++b) snap_[b] = w_[b] & mask.w_[b];
    visit(snap_, 0, n_, f);
  }

 private:
  template <class F>
  static void visit(const std::vector<uint64_t>& words, size_t lo, size_t hi, F& f) {
    for (size_t b = lo / 64; b * 64 < hi; ++b) {
      uint64_t m = words[b];
      if (b == lo / 64) m &= ~uint64_t{0} << (lo % 64);
      if ((b + 1) * 64 > hi) m &= (hi % 64) ? (uint64_t{1} << (hi % 64)) - 1 : ~uint64_t{0};
      for (; m; m &= m - 1) f(b * 64 + static_cast<size_t>(__builtin_ctzll(m)));
    }
  }
  size_t n_;
  std::vector<uint64_t> w_;
  std::vector<uint64_t> snap_;  // the visit's snapshot (kept: no allocation per visit)
};

}  // namespace arc::sim
