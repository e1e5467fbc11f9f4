// The first pass's building blocks, shared by trace_summary.cpp (summarize()) and the file
// source, which makes the same per-word part while it streams a trace with a warp table
// (trace_source.h). Internal to arc_sim.
#pragma once
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "error.h"
#include "read_ahead.h"
#include "trace_source.h"

namespace arc::sim::detail {

// (sm, warp) -> warp index. One flat table of SMs x warp ids (warp ids are small: hardware
// slots; one load per look-up, the worker thread does one per record), a hash map only for
// ids beyond kDense (a producer may number its warps any way it likes).
class WarpIndex {
 public:
  static constexpr uint32_t kDense = 1u << 12;
  static constexpr size_t kNone = SIZE_MAX;
  size_t find(uint32_t sm, uint32_t warp) const {
    if (warp < kDense) {
      if (sm >= sms_ || warp >= stride_) return kNone;
      const uint32_t v = flat_[static_cast<size_t>(sm) * stride_ + warp];
      return v ? v - 1 : kNone;
    }
    const auto it = sparse_.find((static_cast<uint64_t>(sm) << 32) | warp);
    return it == sparse_.end() ? kNone : it->second;
  }
  void insert(uint32_t sm, uint32_t warp, size_t idx) {
    if (warp < kDense) {
      if (sm >= sms_ || warp >= stride_) grow(std::max(sms_, sm + 1), std::max(stride_, warp + 1));
      flat_[static_cast<size_t>(sm) * stride_ + warp] = static_cast<uint32_t>(idx + 1);
    } else {
      sparse_.emplace((static_cast<uint64_t>(sm) << 32) | warp, idx);
    }
  }

 private:
  // Re-lays the table out for at least `sms` x `stride` (doubling, so building it is linear).
  void grow(uint32_t sms, uint32_t stride) {
    if (sms > sms_) sms = std::max(sms, 2 * sms_);
    if (stride > stride_) stride = std::min(kDense, std::max(stride, 2 * stride_));
    std::vector<uint32_t> f(static_cast<size_t>(sms) * stride, 0);
    for (uint32_t m = 0; m < sms_; ++m)
      std::copy_n(flat_.begin() + static_cast<ptrdiff_t>(m) * stride_, stride_, f.begin() + static_cast<ptrdiff_t>(m) * stride);
    flat_ = std::move(f);
    sms_ = sms;
    stride_ = stride;
  }
  uint32_t sms_ = 0, stride_ = 0;
  std::vector<uint32_t> flat_;  // [sm x stride_ + warp]: index + 1, 0 = none
  std::unordered_map<uint64_t, size_t> sparse_;
};

inline WarpIndex warp_index(const TraceSummary& s) {
  WarpIndex index;
  for (size_t i = 0; i < s.warps.size(); ++i) index.insert(s.warps[i].sm, s.warps[i].warp, i);
  return index;
}

inline double as_double(uint32_t bits) {
  float f;
  static_assert(sizeof f == sizeof bits);
  __builtin_memcpy(&f, &bits, sizeof f);
  return static_cast<double>(f);
}

class Summarizer {
 public:
  // dense: the trace is expected to touch most words (ZeroTable's huge-page hint).
  explicit Summarizer(const trace::Header& h, bool dense = false) {
    s_.header = h;
    s_.word_updates = ZeroTable<uint32_t>(h.buffer_words, dense);  // all zero, resident only where counted
    if (!h.timing_only) {
      s_.word_sum = ZeroTable<double>(h.buffer_words, dense);
      s_.word_abs_sum = ZeroTable<double>(h.buffer_words, dense);
    }
  }
  void add(const trace::Instr& in, uint64_t i) {
    const bool values = !s_.header.timing_only;
    const uint32_t a0 = in.active_mask ? in.addr[static_cast<size_t>(__builtin_ctz(in.active_mask))] : 0;
    // Timing only, one word: a count per word, one add.
    const bool uniform = !values && in.active_mask && a0 < s_.header.buffer_words && one_address(in);
    if (uniform) s_.word_updates[a0] += static_cast<uint32_t>(__builtin_popcount(in.active_mask));
    for (uint32_t m = uniform ? 0 : in.active_mask; m; m &= m - 1) {
      const int l = __builtin_ctz(m);
      const uint32_t a = word_of(in, l, i);
      ++s_.word_updates[a];
      if (values) {
        const double v = as_double(in.value[l]);
        s_.word_sum[a] += v;
        s_.word_abs_sum[a] += v < 0 ? -v : v;
      }
    }
    WarpSummary& w = warp(in);
    ++w.count;
    w.work += static_cast<uint64_t>(in.gap) + 1;
    ++s_.instructions;
    s_.lane_updates += static_cast<uint64_t>(__builtin_popcount(in.active_mask));
  }
  // add(in, i) of a full trace's instruction as the file source packed it (read_ahead.h,
  // values included; its addresses checked by the reader) for warp `key`, announced by
  // expect(). scratch: where a record whose lanes are on several words is unpacked.
  void add_record(const uint8_t* p, size_t key, uint64_t i, trace::Instr& scratch) {
    uint32_t mask, gap;
    __builtin_memcpy(&mask, p + 2 + packed::kMask, 4);
    __builtin_memcpy(&gap, p + 2 + packed::kGap, 4);
    const uint32_t lanes = static_cast<uint32_t>(__builtin_popcount(mask));
    const uint8_t* values = p + record_length(p) - 4 * lanes;  // last in the record
    if (p[2 + packed::kUniform] == packed::kLanesUniform) {
      uint32_t word;
      __builtin_memcpy(&word, p + 2 + packed::kWord, 4);
      add_uniform(word, values, lanes);
    } else {
      uint32_t more;
      int64_t stride;
      packed::unpack(p, false, scratch, more, stride);  // its addresses
      add_lanes(scratch, values, i);
    }
    add_instr(s_.warps[slot_of_key_[key]], gap, lanes);
  }
  // Announces `in` (warp `key`), which add_record() will add a few records later (the file
  // source's lag, in which the lines it touches arrive: the per-word arrays are spread over the
  // buffer): its warp gets its slot now, in order of first appearance, with in's ids (sm,
  // sub-core, warp), and those lines start loading.
  void expect(const trace::Instr& in, size_t key) {
    load_hint(&warp_by_key(in, key));
    const uint32_t word = in.addr[static_cast<size_t>(__builtin_ctz(in.active_mask))];
    if (word >= s_.word_updates.size()) return;
    // (Through const views: a hint marks no page touched, ZeroTable.)
    load_hint(&std::as_const(s_.word_updates)[word]);
    if (!s_.word_sum.empty()) {
      load_hint(&std::as_const(s_.word_sum)[word]);
      load_hint(&std::as_const(s_.word_abs_sum)[word]);
    }
  }
  // A timing-only trace, a whole call at once (Reader::next_call): param p is in0 at
  // address + p x stride with gap 0; the reader has checked every param's addresses.
  // uniform: known warp-uniform (the reader said so); else its lanes tell.
  // key: the caller's own dense id of in0's warp (FileSource: its index in the warp table),
  // one per (sm, warp) and below keys(): its slot is then found by that id, not looked up
  // again (kNoKey: looked up).
  static constexpr size_t kNoKey = SIZE_MAX;
  void keys(size_t n) { slot_of_key_.assign(n, kNoSlot); }
  void add_call(const trace::Instr& in0, uint32_t n, int64_t stride, bool uniform = false, size_t key = kNoKey) {
    const uint32_t lanes = static_cast<uint32_t>(__builtin_popcount(in0.active_mask));
    if (uniform || one_address(in0)) {
      const uint32_t a0 = in0.addr[static_cast<size_t>(__builtin_ctz(in0.active_mask))];
      for (uint32_t p = 0; p < n; ++p) s_.word_updates[static_cast<size_t>(a0 + static_cast<int64_t>(p) * stride)] += lanes;
    } else {
      for (uint32_t m = in0.active_mask; m; m &= m - 1) {
        const int64_t a = in0.addr[static_cast<size_t>(__builtin_ctz(m))];
        for (uint32_t p = 0; p < n; ++p) ++s_.word_updates[static_cast<size_t>(a + static_cast<int64_t>(p) * stride)];
      }
    }
    WarpSummary& w = key == kNoKey ? warp(in0) : warp_by_key(in0, key);
    w.count += n;
    w.work += static_cast<uint64_t>(in0.gap) + n;  // the call's params: one issue cycle each, gap before the first
    s_.instructions += n;
    s_.lane_updates += static_cast<uint64_t>(n) * lanes;
  }
  TraceSummary take() { return std::move(s_); }

 private:
  WarpSummary& warp(const trace::Instr& in) {  // in's warp, added in order of first appearance
    size_t at = index_.find(in.sm, in.warp);
    if (at == WarpIndex::kNone) {
      at = s_.warps.size();
      index_.insert(in.sm, in.warp, at);
      s_.warps.emplace_back();
      s_.warps.back().sm = in.sm;
      s_.warps.back().subcore = in.subcore;
      s_.warps.back().warp = in.warp;
    }
    return s_.warps[at];
  }
  // warp(in) for a warp whose key is `key` (the same slot: one key per (sm, warp)).
  WarpSummary& warp_by_key(const trace::Instr& in, size_t key) {
    uint32_t& slot = slot_of_key_[key];
    if (slot == kNoSlot) {
      slot = static_cast<uint32_t>(s_.warps.size());
      s_.warps.emplace_back();
      s_.warps.back().sm = in.sm;
      s_.warps.back().subcore = in.subcore;
      s_.warps.back().warp = in.warp;
    }
    return s_.warps[slot];
  }
  // One word's share of lanes updates: their values' sums, kept in registers, even and odd
  // lanes in two sums each (two chains of dependent double adds, not one: these sums only bound
  // the end-of-run check, check_values, for which any fixed order serves).
  void add_uniform(uint32_t a, const uint8_t* values, uint32_t lanes) {
    s_.word_updates[a] += lanes;
    auto value = [values](uint32_t k) {
      uint32_t bits;
      __builtin_memcpy(&bits, values + 4 * k, 4);
      return as_double(bits);
    };
    double sum0 = 0, sum1 = 0, abs0 = 0, abs1 = 0;
    uint32_t k = 0;
    for (; k + 1 < lanes; k += 2) {
      const double v0 = value(k), v1 = value(k + 1);
      sum0 += v0;
      sum1 += v1;
      abs0 += std::fabs(v0);
      abs1 += std::fabs(v1);
    }
    if (k < lanes) {
      const double v = value(k);
      sum0 += v;
      abs0 += std::fabs(v);
    }
    s_.word_sum[a] = std::as_const(s_.word_sum)[a] + (sum0 + sum1);
    s_.word_abs_sum[a] = std::as_const(s_.word_abs_sum)[a] + (abs0 + abs1);
  }
  // Lane l's word of record i, checked against the gradient buffer.
  uint32_t word_of(const trace::Instr& in, int l, uint64_t i) const {
    const uint32_t a = in.addr[static_cast<size_t>(l)];
    if (a >= s_.header.buffer_words)
      throw Error(fmt::format("trace record {}: lane {} address {} is outside the {}-word gradient buffer", i, l, a,
                              s_.header.buffer_words));
    return a;
  }
  // in's lanes with values `values` (in lane order), each on its own address.
  void add_lanes(const trace::Instr& in, const uint8_t* values, uint64_t i) {
    for (uint32_t m = in.active_mask; m; m &= m - 1, values += 4) {
      const int l = __builtin_ctz(m);
      const uint32_t a = word_of(in, l, i);
      ++s_.word_updates[a];
      uint32_t bits;
      __builtin_memcpy(&bits, values, 4);
      const double v = as_double(bits);
      s_.word_sum[a] += v;
      s_.word_abs_sum[a] += v < 0 ? -v : v;
    }
  }
  void add_instr(WarpSummary& w, uint32_t gap, uint32_t lanes) {
    ++w.count;
    w.work += static_cast<uint64_t>(gap) + 1;
    ++s_.instructions;
    s_.lane_updates += lanes;
  }
  static constexpr uint32_t kNoSlot = UINT32_MAX;
  TraceSummary s_;
  WarpIndex index_;
  std::vector<uint32_t> slot_of_key_;  // keys(): per key, its warp's slot in s_.warps (kNoSlot: not yet seen)
};

}  // namespace arc::sim::detail
