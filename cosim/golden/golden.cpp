#include "golden.h"

#include <fmt/format.h>

#include "error.h"
#include "lane_mask.h"

namespace arc::golden {

namespace {
int popcount(uint32_t m) { return __builtin_popcount(m); }
}  // namespace

namespace {

// The groups of `in` into g[0..n), leaders ascending; returns n (<= 32).
size_t match_into(const WarpInstr& in, Group* g) {
  size_t n = 0;
  uint32_t rem = in.active_mask;
  while (rem != 0) {
    const int leader = __builtin_ctz(rem);
    const uint32_t a = in.addr[leader];
    const uint32_t mask = lanes_equal(in.addr, a) & rem;  // all 32 lanes compared at once
    g[n++] = {a, mask};
    rem &= ~mask;
  }
  return n;
}

}  // namespace

std::vector<Group> match_addresses(const WarpInstr& in) {
  Group g[kLanes];
  return std::vector<Group>(g, g + match_into(in, g));
}

namespace {
// True when every lane of `mask` holds +0.0 (a timing-only trace): any sum of them is +0.0.
bool all_zero(const std::array<uint32_t, kLanes>& values, uint32_t mask) { return (lanes_nonzero(values) & mask) == 0; }
}  // namespace

uint32_t serial_sum(const WarpInstr& in, uint32_t lane_mask, fp::FtzMode ftz, fp::Arith arith) {
  if (lane_mask == 0 || all_zero(in.value, lane_mask)) return 0;
  int l = __builtin_ctz(lane_mask);
  uint32_t acc = in.value[l];
  for (uint32_t rem = lane_mask & (lane_mask - 1); rem != 0; rem &= rem - 1)
    acc = fp::add(acc, in.value[__builtin_ctz(rem)], ftz, arith);
  return acc;
}

uint32_t butterfly_sum(const std::array<uint32_t, kLanes>& values, uint32_t active_mask, fp::FtzMode ftz,
                       fp::Arith arith) {
  if (all_zero(values, active_mask)) return 0;
  std::array<uint32_t, kLanes> v{};
  for (int l = 0; l < kLanes; ++l) v[l] = ((active_mask >> l) & 1u) ? values[l] : 0u;
  // __shfl_down_sync(v, off): lane l reads lane l+off; lanes with l+off >= 32 read their own
  // value. Only lanes < off feed lane 0 at each step, so only those are computed.
  for (int off = 16; off >= 1; off /= 2)
    for (int l = 0; l < off; ++l) v[l] = fp::add(v[l], v[l + off], ftz, arith);
  return v[0];
}

uint32_t group_tree_sum(const std::array<uint32_t, kLanes>& values, uint32_t group_mask, fp::FtzMode ftz,
                        fp::Arith arith) {
  if (group_mask == 0 || all_zero(values, group_mask)) return 0;
  std::array<uint32_t, kLanes> v{};  // by rank
  int n = 0;
  for (uint32_t rem = group_mask; rem; rem &= rem - 1) v[static_cast<size_t>(n++)] = values[__builtin_ctz(rem)];
  for (int s = 1; s < n; s *= 2)
    for (int r = 0; r + s < n; r += 2 * s) v[static_cast<size_t>(r)] = fp::add(v[r], v[r + s], ftz, arith);
  return v[0];
}

Route route_group(const Group& g, const SchedConfig& cfg, bool busy) {
  switch (cfg.mode) {
    case SchedMode::Never: return Route::Lsu;
    case SchedMode::Always: return Route::Reduced;
    case SchedMode::Threshold:
      return static_cast<uint32_t>(popcount(g.lane_mask)) >= cfg.threshold ? Route::Reduced : Route::Lsu;
    case SchedMode::Dynamic: return busy ? Route::Reduced : Route::Lsu;
  }
  throw Error("golden: unknown scheduler mode");
}

std::vector<Transaction> process(const WarpInstr& in, const SchedConfig& cfg, bool busy) {
  std::vector<Transaction> out;
  process(in, cfg, busy, out);
  return out;
}

void process(const WarpInstr& in, const SchedConfig& cfg, bool busy, std::vector<Transaction>& out) {
  out.clear();
  Group groups[kLanes];
  const size_t n = match_into(in, groups);
  for (size_t k = 0; k < n; ++k) {
    const Group& g = groups[k];
    if (route_group(g, cfg, busy) == Route::Reduced) {
      out.push_back({Route::Reduced, g.addr, serial_sum(in, g.lane_mask, cfg.adder_ftz, cfg.arith), g.lane_mask});
    } else {
      for (uint32_t rem = g.lane_mask; rem != 0; rem &= rem - 1) {
        const int l = __builtin_ctz(rem);
        out.push_back({Route::Lsu, g.addr, in.value[l], 1u << l});
      }
    }
  }
}

void process_uniform_zero(uint32_t active_mask, uint32_t addr, const SchedConfig& cfg, bool busy,
                          std::vector<Transaction>& out) {
  out.clear();
  const Group g{addr, active_mask};
  if (route_group(g, cfg, busy) == Route::Reduced) {
    out.push_back({Route::Reduced, addr, 0u, active_mask});  // serial_sum() of +0 lanes
  } else {
    for (uint32_t rem = active_mask; rem != 0; rem &= rem - 1) out.push_back({Route::Lsu, addr, 0u, rem & (~rem + 1)});
  }
}

const char* to_string(SchedMode m) {
  switch (m) {
    case SchedMode::Never: return "never";
    case SchedMode::Always: return "always";
    case SchedMode::Threshold: return "threshold";
    case SchedMode::Dynamic: return "dynamic";
  }
  return "?";
}

const char* to_string(Route r) { return r == Route::Reduced ? "reduced" : "lsu"; }

std::string describe(const Transaction& t) {
  return fmt::format("{} addr=0x{:08x} value=0x{:08x} mask=0x{:08x}", to_string(t.route), t.addr, t.value,
                     t.lane_mask);
}

void MemoryImage::apply(uint32_t addr, uint32_t value) {
  if (addr >= words_.size())
    throw Error(fmt::format("memory image: atomic to word {} outside the {}-word buffer", addr, words_.size()));
  words_[addr] = fp::add(words_[addr], value, fp::FtzMode::Flush, arith_);
}

uint32_t MemoryImage::at(uint32_t addr) const {
  if (addr >= words_.size())
    throw Error(fmt::format("memory image: word {} outside the {}-word buffer", addr, words_.size()));
  return words_[addr];
}

}  // namespace arc::golden
