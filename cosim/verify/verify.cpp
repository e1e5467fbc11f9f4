#include "verify.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <random>

#include "error.h"
#include "subcore_dut.h"
#include "trace.h"

namespace arc::verify {

namespace {

bool nonfinite(uint32_t x) { return (x & 0x7F800000u) == 0x7F800000u; }

double as_double(uint32_t x) {
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

golden::WarpInstr to_warp(const trace::Instr& in) {
  golden::WarpInstr w;
  w.active_mask = in.active_mask;
  w.addr = in.addr;
  w.value = in.value;
  return w;
}

std::string lane_list(uint32_t mask) {
  std::string s;
  for (uint32_t rem = mask; rem; rem &= rem - 1) s += (s.empty() ? "" : ",") + std::to_string(__builtin_ctz(rem));
  return s;
}

std::string where(uint64_t i, const trace::Instr& in) {
  return fmt::format("instruction {} (SM {} warp {} seq {})", i, in.sm, in.warp, in.seq);
}

// The config under which the RTL reduces exactly the groups the GPU reduced, or a superset.
golden::SchedConfig follow_gpu(const golden::WarpInstr& w, uint32_t reduced_mask, fp::FtzMode ftz, VerifyResult& res) {
  golden::SchedConfig c;
  c.adder_ftz = ftz;
  if (reduced_mask == 0) {
    c.mode = golden::SchedMode::Never;
    ++res.instrs_never;
    return c;
  }
  const auto groups = golden::match_addresses(w);
  uint32_t t = 33;
  for (const auto& g : groups)
    if (reduced_mask >> __builtin_ctz(g.lane_mask) & 1) t = std::min<uint32_t>(t, __builtin_popcount(g.lane_mask));
  bool exact = true;
  for (const auto& g : groups)
    exact &= (reduced_mask >> __builtin_ctz(g.lane_mask) & 1) || static_cast<uint32_t>(__builtin_popcount(g.lane_mask)) < t;
  c.mode = exact ? golden::SchedMode::Threshold : golden::SchedMode::Always;
  c.threshold = t;
  ++(exact ? res.instrs_threshold : res.instrs_always);
  return c;
}

}  // namespace

ImageCompare compare_images(const std::vector<uint32_t>& got, const std::vector<uint32_t>& want) {
  if (got.size() != want.size())
    throw Error(fmt::format("memory images differ in length ({} vs {} words)", got.size(), want.size()));
  ImageCompare c;
  c.words = got.size();
  for (size_t i = 0; i < got.size(); ++i) {
    const uint32_t a = got[i], b = want[i];
    if (a == b) {
      ++c.exact;
      continue;
    }
    ++c.differ;
    if (nonfinite(a) || nonfinite(b)) {
      ++c.nonfinite_differ;
      continue;
    }
    const uint64_t ulp = fp::ulp_distance(a, b);
    const double da = as_double(a), db = as_double(b);
    const double denom = std::max(std::fabs(da), std::fabs(db));
    const double rel = denom > 0 ? std::fabs(da - db) / denom : 0.0;
    if (ulp > c.max_ulp) {
      c.max_ulp = ulp;
      c.worst_word = static_cast<uint32_t>(i);
    }
    c.max_rel_error = std::max(c.max_rel_error, rel);
  }
  return c;
}

uint64_t compare_streams(const std::vector<golden::Transaction>& want, const std::vector<golden::Transaction>& got,
                         uint64_t instr, std::vector<std::string>& report, size_t max) {
  uint64_t n = 0;
  const size_t common = std::min(want.size(), got.size());
  for (size_t k = 0; k < common; ++k) {
    if (want[k] == got[k]) continue;
    ++n;
    if (report.size() < max)
      report.push_back(fmt::format("instruction {} transaction {}: RTL {} but golden {}", instr, k,
                                   golden::describe(got[k]), golden::describe(want[k])));
  }
  if (want.size() != got.size()) {
    ++n;
    if (report.size() < max)
      report.push_back(fmt::format("instruction {}: RTL emitted {} transactions, golden {}", instr, got.size(),
                                   want.size()));
  }
  return n;
}

VerifyResult verify_trace(const VerifyOptions& o) {
  const auto t0 = std::chrono::steady_clock::now();
  trace::Reader reader(o.trace_path);
  const trace::Header& h = reader.header();
  if (h.timing_only)
    throw Error(o.trace_path + ": a timing-only trace (no lane values or partial sums): 'arcsim sim' can time it, "
                "'arcsim verify' needs a trace with values");
  if (o.busy_prob < 0 || o.busy_prob > 1) throw Error("verify: busy probability must lie in [0, 1]");
  VerifyResult res;
  res.gpu_name = h.gpu_name;
  res.kernel_name = h.kernel_name;
  res.method = trace::method_name(h.method);
  res.trace_reduce_ftz = h.reduce_ftz;
  const trace::Method method = h.method;
  const bool follow = !o.mode.has_value();
  res.mode = follow ? "trace" : golden::to_string(*o.mode);
  res.sched.mode = o.mode.value_or(golden::SchedMode::Threshold);
  res.sched.threshold = o.threshold.value_or(h.balancing_threshold);
  res.sched.adder_ftz = o.ftz.value_or(h.reduce_ftz ? fp::FtzMode::Flush : fp::FtzMode::Keep);
  const bool dynamic = o.mode == golden::SchedMode::Dynamic;
  res.busy_prob = dynamic ? o.busy_prob : 0.0;

  dut::SubcoreOptions so;
  so.ftz = res.sched.adder_ftz;
  so.fst_path = o.fst_path;
  so.seed = o.seed;
  dut::SubcoreDut dut(so);
  std::mt19937_64 busy_rng(o.seed);
  golden::MemoryImage golden_image(h.buffer_words), method_image(h.buffer_words);

  constexpr size_t kBatch = 512;
  std::vector<trace::Instr> batch(kBatch);
  std::vector<golden::WarpInstr> warps(kBatch);
  std::vector<bool> busy(kBatch);
  std::vector<golden::SchedConfig> cfgs(kBatch);
  std::vector<golden::Transaction> got;
  bool more = true;
  while (more) {
    size_t n = 0;
    while (n < kBatch && (o.limit == 0 || res.instructions + n < o.limit) && reader.next(batch[n])) ++n;
    more = n == kBatch && (o.limit == 0 || res.instructions + n < o.limit);
    for (size_t i = 0; i < n; ++i) {
      warps[i] = to_warp(batch[i]);
      busy[i] = dynamic && static_cast<double>(busy_rng() >> 11) * 0x1.0p-53 < o.busy_prob;
      // A pair instruction's sums are of two adjacent lanes, not whole address groups: the RTL
      // sends its lanes as they are (its golden image is still the exact per-lane reference).
      const uint32_t gpu_reduced = (batch[i].flags & trace::kFlagPairSum) ? 0u : batch[i].reduced_mask;
      cfgs[i] = follow ? follow_gpu(warps[i], gpu_reduced, res.sched.adder_ftz, res) : res.sched;
      dut.push(warps[i], cfgs[i], busy[i]);
    }
    dut.run_until_idle();
    const auto timed = dut.take_transactions();
    size_t t = 0;
    for (size_t i = 0; i < n; ++i) {
      const uint64_t index = res.instructions + i;
      const trace::Instr& in = batch[i];
      got.clear();
      for (; t < timed.size() && timed[t].instr == index; ++t) got.push_back(timed[t].txn);
      const auto want = golden::process(warps[i], cfgs[i], busy[i]);
      res.rtl_vs_golden_mismatches += compare_streams(want, got, index, res.first_mismatches, o.max_reported);
      res.transactions += got.size();
      for (const auto& x : want) golden_image.apply(x);
      // The GPU's partial sums, group by group (by leader lane): serial sums against the RTL's
      // reduced sums; butterfly and group-tree sums against golden::butterfly_sum /
      // golden::group_tree_sum; library sums unchecked.
      uint32_t rtl_leaders = 0;
      uint32_t rtl_sum[trace::kLanes];
      for (const auto& x : got) {
        if (x.route != golden::Route::Reduced || x.lane_mask == 0) continue;
        ++res.reduced_transactions;
        const int lead = __builtin_ctz(x.lane_mask);
        rtl_leaders |= 1u << lead;
        rtl_sum[lead] = x.value;
        if (!(in.reduced_mask >> lead & 1)) ++res.rtl_groups_reduced_without_gpu_sum;
      }
      const trace::SumOrder order = trace::sum_order(method, in);
      uint32_t missing = 0;
      for (uint32_t rem = in.reduced_mask; rem; rem &= rem - 1) {
        const int lead = __builtin_ctz(rem);
        const uint32_t gpu = in.partial_sum[lead];
        if (order == trace::SumOrder::Opaque) {
          ++res.gpu_sums_unchecked;
        } else if (order == trace::SumOrder::Pair) {
          // Adaptive's pair send: lane lead took lane lead+1's value, one add (the group tree of
          // those two lanes).
          const uint32_t want_sum = golden::group_tree_sum(in.value, 3u << lead, res.sched.adder_ftz);
          ++res.gpu_tree_sums_checked;
          ++res.gpu_pair_sums_checked;
          if (want_sum != gpu) {
            ++res.gpu_vs_golden_tree_mismatches;
            if (res.first_mismatches.size() < o.max_reported)
              res.first_mismatches.push_back(fmt::format("{} lanes {} and {}: golden pair sum 0x{:08x}, GPU sum 0x{:08x}",
                                                         where(index, in), lead, lead + 1, want_sum, gpu));
          }
        } else if (order == trace::SumOrder::Tree || order == trace::SumOrder::GroupTree) {
          uint32_t group = 0;
          for (int l = lead; l < trace::kLanes; ++l)
            if ((in.active_mask >> l & 1) && in.addr[l] == in.addr[lead]) group |= 1u << l;
          const bool butterfly = order == trace::SumOrder::Tree;
          const uint32_t want_sum = butterfly ? golden::butterfly_sum(in.value, group, res.sched.adder_ftz)
                                              : golden::group_tree_sum(in.value, group, res.sched.adder_ftz);
          ++res.gpu_tree_sums_checked;
          if (!butterfly) ++res.gpu_group_tree_sums_checked;
          if (want_sum != gpu) {
            ++res.gpu_vs_golden_tree_mismatches;
            if (res.first_mismatches.size() < o.max_reported)
              res.first_mismatches.push_back(fmt::format("{} group of lane {}: golden {} sum 0x{:08x}, GPU tree "
                                                         "sum 0x{:08x}", where(index, in), lead,
                                                         butterfly ? "butterfly" : "group-tree", want_sum, gpu));
          }
        } else if (!(rtl_leaders >> lead & 1)) {
          missing |= 1u << lead;
        } else {
          ++res.gpu_sums_checked;
          if (rtl_sum[lead] != gpu) {
            ++res.rtl_vs_gpu_mismatches;
            if (res.first_mismatches.size() < o.max_reported)
              res.first_mismatches.push_back(fmt::format("{} group of lane {} (addr 0x{:08x}): RTL sum 0x{:08x}, GPU "
                                                         "partial sum 0x{:08x}",
                                                         where(index, in), lead, in.addr[lead], rtl_sum[lead], gpu));
          }
        }
      }
      if (missing) {
        res.gpu_groups_not_reduced_by_rtl += __builtin_popcount(missing);
        res.rtl_vs_gpu_mismatches += __builtin_popcount(missing);
        if (res.first_mismatches.size() < o.max_reported)
          res.first_mismatches.push_back(fmt::format("{}: the GPU reduced the group(s) led by lanes {} but the RTL "
                                                     "({} mode, threshold {}) did not",
                                                     where(index, in), lane_list(missing),
                                                     golden::to_string(cfgs[i].mode), cfgs[i].threshold));
      }
      // What the GPU's method itself sent: its partial sums for reduced groups, lanes otherwise
      // (a pair instruction: the pair sums, no lane that gave its value away).
      if (order == trace::SumOrder::Pair) {
        for (uint32_t rem = in.active_mask & ~(in.reduced_mask << 1); rem; rem &= rem - 1) {
          const int l = __builtin_ctz(rem);
          method_image.apply(in.addr[l], (in.reduced_mask >> l & 1) ? in.partial_sum[l] : in.value[l]);
        }
        continue;
      }
      for (const auto& g : golden::match_addresses(warps[i])) {
        const int lead = __builtin_ctz(g.lane_mask);
        if (in.reduced_mask >> lead & 1) {
          method_image.apply(g.addr, in.partial_sum[lead]);
        } else {
          for (uint32_t rem = g.lane_mask; rem; rem &= rem - 1) method_image.apply(g.addr, in.value[__builtin_ctz(rem)]);
        }
      }
    }
    if (t != timed.size()) throw Error("verify: the RTL emitted transactions for no pushed instruction");
    res.instructions += n;
    if (o.progress) o.progress(reader.bytes_read(), reader.file_bytes());
  }
  res.lanes = reader.lanes();
  res.rtl_cycles = dut.cycle();
  // The whole trace was replayed: no limit, the limit not reached, or reached on the last record
  // (nothing follows it).
  bool whole = o.limit == 0 || res.instructions < o.limit;
  if (!whole) {
    trace::Instr next;
    whole = !reader.next(next);
  }
  if (whole) {
    const auto& final_buffer = reader.final_buffer();
    res.golden_image = compare_images(golden_image.words().to_vector(), final_buffer);
    res.method_image = compare_images(method_image.words().to_vector(), final_buffer);
    res.image_checked = true;
  }
  res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return res;
}

}  // namespace arc::verify
