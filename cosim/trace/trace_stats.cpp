#include "trace_stats.h"

#include <algorithm>

#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "error.h"

namespace arc::trace {

void WarpTableCheck::see(const Instr& in) {
  const auto [at, fresh] = at_.try_emplace(uint64_t{in.sm} << 32 | in.warp, warps_.size());
  if (fresh) warps_.push_back({in.sm, in.subcore, in.warp, 0, 0});
  ++warps_[at->second].instructions;
  warps_[at->second].gap_sum += in.gap;
}

void WarpTableCheck::check(const Reader& r, const std::string& path) const {
  const std::optional<WarpTable> t = r.warp_table();
  if (!t) return;  // before version 3: no table
  if (t->warps.size() != warps_.size())
    throw Error(path + ": the trace's warp table lists " + std::to_string(t->warps.size()) + " warps, the records hold " +
                std::to_string(warps_.size()) + " (corrupt file)");
  for (size_t i = 0; i < warps_.size(); ++i) {
    const WarpEntry& e = t->warps[i];
    const WarpEntry& w = warps_[i];
    if (!(e == w))
      throw Error(path + ": the trace's warp table entry " + std::to_string(i) + " (SM " + std::to_string(e.sm) +
                  ", sub-core " + std::to_string(e.subcore) + ", warp " + std::to_string(e.warp) + ", " +
                  std::to_string(e.instructions) + " instructions, gap sum " + std::to_string(e.gap_sum) +
                  ") does not match the records (SM " + std::to_string(w.sm) + ", sub-core " + std::to_string(w.subcore) +
                  ", warp " + std::to_string(w.warp) + ", " + std::to_string(w.instructions) + " instructions, gap sum " +
                  std::to_string(w.gap_sum) + ") (corrupt file)");
  }
}

TraceStats compute_stats(const std::string& path, const std::function<void(uint64_t, uint64_t)>& progress) {
  Reader r(path);
  TraceStats s;
  s.header = r.header();
  s.version = r.version();
  s.file_bytes = r.file_bytes();
  std::unordered_set<uint64_t> sms;
  WarpTableCheck table;
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
    table.see(in);
    sms.insert(in.sm);
    if (progress && (r.instructions() & 0xFFFF) == 0) progress(r.bytes_read(), r.file_bytes());
  }
  for (uint32_t w : r.final_buffer()) s.buffer_nonzero += w != 0;
  s.instructions = r.instructions();
  s.lanes = r.lanes();
  s.warps = table.warps();
  table.check(r, path);
  s.sms = sms.size();
  return s;
}

}  // namespace arc::trace
