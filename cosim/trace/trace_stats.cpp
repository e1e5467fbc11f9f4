#include "trace_stats.h"

#include <algorithm>

#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "error.h"

namespace arc::trace {

TraceStats compute_stats(const std::string& path, const std::function<void(uint64_t, uint64_t)>& progress) {
  Reader r(path);
  TraceStats s;
  s.header = r.header();
  s.version = r.version();
  s.file_bytes = r.file_bytes();
  std::unordered_set<uint64_t> sms;
  std::unordered_set<uint64_t> warps;  // sm << 32 | warp
  Instr in;
  while (r.next(in)) {
    const uint32_t m = in.active_mask;
    s.calls += in.param == 0;
    if (in.param == 0) {
      s.gap_sum += in.gap;
      s.gap_max = std::max<uint64_t>(s.gap_max, in.gap);
      ++s.gap_hist[static_cast<size_t>(in.gap ? 32 - __builtin_clz(in.gap) : 0)];
    }
    ++s.active_hist[__builtin_popcount(m)];
    unsigned distinct = 0;
    for (uint32_t rem = m; rem;) {  // peel off one address group at a time
      const uint32_t a = in.addr[__builtin_ctz(rem)];
      uint32_t group = 0;
      for (uint32_t t = rem; t; t &= t - 1)
        if (in.addr[__builtin_ctz(t)] == a) group |= 1u << __builtin_ctz(t);
      if ((in.reduced_mask & group) && !(in.flags & kFlagPairSum)) s.reduced_lanes += __builtin_popcount(group);
      rem &= ~group;
      ++distinct;
    }
    ++s.distinct_hist[distinct];
    s.all_same += distinct == 1;
    s.reduced_groups += __builtin_popcount(in.reduced_mask);
    if (in.flags & kFlagPairSum) s.reduced_lanes += 2 * static_cast<uint64_t>(__builtin_popcount(in.reduced_mask));
    s.pair_sends += (in.flags & kFlagPairSum) != 0;
    s.pair_plain += (in.flags & kFlagPairCall) != 0;
    warps.insert(uint64_t{in.sm} << 32 | in.warp);
    sms.insert(in.sm);
    if (progress && (r.instructions() & 0xFFFF) == 0) progress(r.bytes_read(), r.file_bytes());
  }
  for (uint32_t w : r.final_buffer()) s.buffer_nonzero += w != 0;
  s.instructions = r.instructions();
  s.lanes = r.lanes();
  s.warps = warps.size();
  s.sms = sms.size();
  return s;
}

}  // namespace arc::trace
