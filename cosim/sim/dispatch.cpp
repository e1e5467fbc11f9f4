#include "dispatch.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace arc::sim {

namespace {
constexpr uint64_t kBucketParts = Dispatch::kBucketCycles * Dispatch::kUnit;
}

uint32_t& Dispatch::at(uint64_t bucket) {
  if (bucket - base_ >= used_.size()) {
    size_t n = std::max<size_t>(used_.size(), 64);
    while (bucket - base_ >= n) n *= 2;
    std::vector<uint32_t> grown(n, 0);
    for (uint64_t b = base_; b < top_; ++b) grown[b & (n - 1)] = used_[b & (used_.size() - 1)];
    used_.swap(grown);
  }
  top_ = std::max(top_, bucket + 1);
  return used_[bucket & (used_.size() - 1)];
}

void Dispatch::retire(uint64_t bucket) {
  if (bucket <= base_) return;
  for (uint64_t b = base_; b < std::min(bucket, top_); ++b) used_[b & (used_.size() - 1)] = 0;
  base_ = bucket;
  top_ = std::max(top_, base_);
}

Cycle Dispatch::reserve(Cycle from, Cycle span, uint64_t parts) {
  if (parts == 0) return from + span;  // nothing to dispatch: the window alone
  span = std::max<Cycle>(span, 1);
  const Cycle end = from + span;
  if (from / kBucketCycles < base_)
    throw std::logic_error("Dispatch::reserve: a reservation from cycle " + std::to_string(from) +
                           ", before one already made (reservations must not go back in time)");
  retire(from / kBucketCycles);
  uint64_t carry = 0;    // parts that found no room yet
  uint64_t given = 0;    // the shares handed out so far: the running total rounded, so they sum to parts
  uint64_t last = 0;     // the last bucket that took parts, and its fill then
  uint64_t last_fill = 0;
  const uint64_t first = from / kBucketCycles, final = (end - 1) / kBucketCycles;
  for (uint64_t b = first; b <= final; ++b) {
    const Cycle hi = std::min<Cycle>(end, (b + 1) * kBucketCycles);
    // This bucket's share: parts x (the window's part up to hi) / span, less what went before.
    const uint64_t upto = static_cast<uint64_t>(static_cast<unsigned __int128>(parts) * (hi - from) / span);
    const uint64_t share = upto - given;
    given = upto;
    uint32_t& u = at(b);
    // The first bucket: only its cycles from `from` on (earlier reservations may hold the rest).
    const uint64_t cap = b == first ? std::min<uint64_t>(kBucketParts, u + ((b + 1) * kBucketCycles - from) * kUnit)
                                    : kBucketParts;
    const uint64_t want = share + carry, take = std::min<uint64_t>(want, cap > u ? cap - u : 0);
    u += static_cast<uint32_t>(take);
    carry = want - take;
    if (take) last = b, last_fill = u;
  }
  if (carry == 0) return end;
  late_parts_ += carry;
  for (uint64_t b = final + 1; carry; ++b) {
    uint32_t& u = at(b);
    const uint64_t take = std::min<uint64_t>(carry, kBucketParts - u);
    u += static_cast<uint32_t>(take);
    carry -= take;
    if (take) last = b, last_fill = u;
  }
  const Cycle done = std::max<Cycle>(end, last * kBucketCycles + (last_fill + kUnit - 1) / kUnit);
  late_cycles_ += done - end;
  return done;
}

}  // namespace arc::sim
