// ParkWheel: ids (SMs) parked until a known cycle, for the crossbar. park(at, id) in cycle
// `now` (at > now); release(now, f) calls f(id) for every id whose cycle has come (in no
// particular order: the crossbar puts them into a set); next() is the earliest cycle still
// parked. Cycles less than kWheel ahead sit in a timing wheel (one bucket per cycle and a
// bitmap of the non-empty ones: an append to park, a bitmap scan to release), the rest in a
// heap until they come near. release() must be called with non-decreasing `now`, and before
// any park() of that cycle.
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <queue>
#include <utility>
#include <vector>

#include "clock.h"

namespace arc::sim {

class ParkWheel {
 public:
  ParkWheel() : wheel_(kWheel), full_(kWheel / 64, 0) {}

  void park(Cycle at, uint32_t id) {
    ++count_;
    if (at - released_ < kWheel) {
      const size_t b = static_cast<size_t>(at % kWheel);
      wheel_[b].push_back(id);
      full_[b / 64] |= uint64_t{1} << (b % 64);
    } else {
      far_.emplace(at, id);
    }
  }

  template <class F>
  void release(Cycle now, F&& f) {
    if (count_ && now > released_) {
      if (now - released_ >= kWheel) {  // every wheel entry is due
        for (size_t w = 0; w < full_.size(); ++w)
          for (uint64_t m = full_[w]; m; m &= m - 1) drain(w * 64 + static_cast<size_t>(__builtin_ctzll(m)), f);
      } else {
        for (Cycle c = released_ + 1; c <= now;) {  // the buckets of cycles released_+1 .. now
          const size_t b = static_cast<size_t>(c % kWheel);
          uint64_t bits = full_[b / 64] >> (b % 64);
          const Cycle span = std::min<Cycle>(64 - b % 64, now - c + 1);  // bits of this word still in range
          if (span < 64) bits &= (uint64_t{1} << span) - 1;
          for (; bits; bits &= bits - 1) drain(b + static_cast<size_t>(__builtin_ctzll(bits)), f);
          c += span;
        }
      }
    }
    released_ = std::max(released_, now);
    // Far entries that are due, or now within the wheel's reach.
    while (!far_.empty() && far_.top().first < released_ + kWheel) {
      const auto [at, id] = far_.top();
      far_.pop();
      --count_;
      if (at <= released_) f(id);
      else park(at, id);
    }
  }

  Cycle next() const {  // the earliest parked cycle, or kNever
    if (!count_) return kNever;
    Cycle best = far_.empty() ? kNever : far_.top().first;
    for (Cycle d = 1; d < kWheel;) {
      const size_t b = static_cast<size_t>((released_ + d) % kWheel);
      const uint64_t bits = full_[b / 64] >> (b % 64);
      if (bits) return std::min(best, released_ + d + static_cast<Cycle>(__builtin_ctzll(bits)));
      d += 64 - b % 64;
    }
    return best;
  }

 private:
  static constexpr Cycle kWheel = 1024;  // a power of two, a multiple of 64
  template <class F>
  void drain(size_t b, F& f) {
    for (uint32_t id : wheel_[b]) f(id);
    count_ -= wheel_[b].size();
    wheel_[b].clear();
    full_[b / 64] &= ~(uint64_t{1} << (b % 64));
  }
  std::vector<std::vector<uint32_t>> wheel_;  // bucket at % kWheel: the ids parked until cycle at
  std::vector<uint64_t> full_;                // bit b: bucket b is non-empty
  using Far = std::pair<Cycle, uint32_t>;
  std::priority_queue<Far, std::vector<Far>, std::greater<Far>> far_;
  size_t count_ = 0;
  Cycle released_ = 0;  // release() has run up to this cycle: wheel entries lie in (released_, released_ + kWheel)
};

}  // namespace arc::sim
