// Timing-model correctness: the memory image the ROP units build equals, bit for bit, a golden
// replay of the atomics in the order the model committed them; it is within the recursive-
// summation error bound of a replay in trace order; the same inputs give byte-identical JSON.
// Every run is a child process (arc::sim::run_isolated): SystemC elaborates once per process.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <systemc>

#include "golden.h"
#include "report.h"
#include "run.h"
#include "sim_fixture.h"

namespace arc::sim {
namespace {

using testing::hot;
using testing::small_gpu;
using testing::as_double;
using testing::synthetic;

std::vector<RunSpec> all_modes() {
  std::vector<RunSpec> out;
  RunSpec s = small_gpu();
  s.record_commits = true;
  for (Mode m : {Mode::Baseline, Mode::SwS, Mode::SwB}) {
    s.mode = m;
    out.push_back(s);
  }
  s.mode = Mode::ArcHw;
  for (auto sm : {golden::SchedMode::Never, golden::SchedMode::Always, golden::SchedMode::Threshold,
                  golden::SchedMode::Dynamic}) {
    s.sched = sm;
    out.push_back(s);
  }
  return out;
}

// The ROP variants: out-of-order look-ahead, same-address interval, two ops per cycle.
std::vector<RunSpec> rop_variants() {
  std::vector<RunSpec> out;
  RunSpec s = small_gpu();
  s.record_commits = true;
  s.knobs.rop_window = 16;
  s.knobs.rop_same_addr_interval = 3.5;  // fractional, as h100.toml's
  s.gpu.rop_ops_per_cycle = 2;
  s.mode = Mode::Baseline;
  out.push_back(s);
  s.mode = Mode::ArcHw;
  s.sched = golden::SchedMode::Dynamic;
  out.push_back(s);
  // Coalesced requests (128-byte granules), with and without the out-of-order ROP.
  s.gpu.coalesce_bytes = 128;
  for (Mode m : {Mode::Baseline, Mode::SwS}) {
    s.mode = m;
    out.push_back(s);
  }
  s.knobs = ModelKnobs{};
  s.gpu.rop_ops_per_cycle = 1;
  s.mode = Mode::Baseline;
  out.push_back(s);
  return out;
}

TEST(SimCorrectness, ImageEqualsGoldenReplayOfCommitOrderAndBoundOfTraceOrder) {
  const trace::Trace t = synthetic("correct", hot(3000, 11));
  // Trace-order replay (the order the trace lists the lanes) and the error bound per word:
  // two summation orders of the same n terms differ by at most 2 (n-1) u sum|v| (u = 2^-24),
  // plus what flushing subnormal partial sums can move (n * 2^-126).
  golden::MemoryImage trace_order(t.header.buffer_words);
  std::vector<double> abs_sum(t.header.buffer_words, 0.0);
  std::vector<uint32_t> count(t.header.buffer_words, 0);
  for (const auto& in : t.instrs)
    for (uint32_t m = in.active_mask; m; m &= m - 1) {
      const int l = __builtin_ctz(m);
      trace_order.apply(in.addr[l], in.value[l]);
      abs_sum[in.addr[l]] += std::fabs(as_double(in.value[l]));
      ++count[in.addr[l]];
    }
  int runs = 0, passed = 0;
  std::vector<RunSpec> specs = all_modes();
  for (const RunSpec& v : rop_variants()) specs.push_back(v);
  for (const RunSpec& spec : specs) {
    const RunResult r = run_isolated(spec, t);
    ++runs;
    SCOPED_TRACE(r.label);
    golden::MemoryImage replay(t.header.buffer_words);
    for (const auto& [a, v] : r.commits) replay.apply(a, v);
    const bool exact = replay.words() == r.image;
    EXPECT_TRUE(exact) << "ROP image differs from golden replay of the commit order";
    EXPECT_EQ(r.commits.size(), r.stats.rop_ops);
    EXPECT_EQ(r.stats.requests_to_l2, r.stats.rop_requests);
    if (spec.gpu.coalesce_bytes == 0) EXPECT_EQ(r.stats.requests_to_l2, r.stats.rop_ops);
    else EXPECT_LT(r.stats.requests_to_l2, r.stats.rop_ops);
    EXPECT_EQ(r.stats.lane_updates, r.stats.rop_ops + r.stats.lane_adds_in_core) << "every lane update accounted";
    EXPECT_EQ(r.stats.instructions, t.instrs.size());
    uint64_t max_ulp = 0, outside = 0;
    for (size_t w = 0; w < r.image.size(); ++w) {
      max_ulp = std::max(max_ulp, fp::ulp_distance(r.image[w], trace_order.at(static_cast<uint32_t>(w))));
      const double diff = std::fabs(as_double(r.image[w]) - as_double(trace_order.at(static_cast<uint32_t>(w))));
      const double bound = 2.0 * count[w] * std::ldexp(abs_sum[w], -24) + count[w] * std::ldexp(1.0, -126);
      if (!(diff <= bound)) ++outside;
    }
    EXPECT_EQ(outside, 0u) << "words outside the summation-order bound";
    std::printf("  %-22s %-9s cycles %8llu  rop ops %6llu  max ulp vs trace order %llu  exact replay %s\n",
                r.label.c_str(), spec.knobs.rop_window > 1 ? (spec.gpu.coalesce_bytes ? "ooo+line" : "rop-ooo") : (spec.gpu.coalesce_bytes ? "line" : ""), static_cast<unsigned long long>(r.stats.total_cycles),
                static_cast<unsigned long long>(r.stats.rop_ops), static_cast<unsigned long long>(max_ulp),
                exact ? "yes" : "NO");
    if (exact && outside == 0) ++passed;
  }
  std::printf("sim correctness: %d passed, %d failed\n", passed, runs - passed);
}

// The child process sends the image back to the parent in one of three forms (run.cpp encode):
// dense, sparse ((index, word) pairs when fewer than half the words are non-zero: a small trace
// on a large buffer) and all-zero (a timing-only trace). Each arrives whole: equal to the golden
// replay of the commit order, which travels separately.
TEST(SimCorrectness, ImageCrossesTheProcessBoundaryInEveryForm) {
  struct Case {
    const char* name;
    uint32_t buffer_words;
    bool timing_only;
  };
  for (const Case& c : {Case{"dense", 64, false}, Case{"sparse", 1u << 20, false}, Case{"zero", 4096, true}}) {
    SCOPED_TRACE(c.name);
    tracegen::GenConfig g = hot(2000, 29);
    g.buffer_words = c.buffer_words;
    g.timing_only = c.timing_only;
    const trace::Trace t = synthetic(std::string("form-") + c.name, g);
    RunSpec spec = small_gpu();
    spec.record_commits = true;
    spec.mode = Mode::Baseline;
    const RunResult r = run_isolated(spec, t);
    ASSERT_EQ(r.image.size(), c.buffer_words);
    const size_t nonzero = static_cast<size_t>(std::count_if(r.image.begin(), r.image.end(), [](uint32_t w) { return w != 0; }));
    if (c.timing_only) {
      EXPECT_EQ(nonzero, 0u);
    } else {
      EXPECT_GT(nonzero, 0u);
      if (c.buffer_words == 64) EXPECT_GE(nonzero, r.image.size() / 2) << "meant to send the dense form";
      else EXPECT_LT(nonzero, r.image.size() / 2) << "meant to send the sparse form";
    }
    golden::MemoryImage replay(c.buffer_words);
    for (const auto& [a, v] : r.commits) replay.apply(a, v);
    EXPECT_TRUE(replay.words() == r.image) << "image differs from the golden replay of the commit order";
  }
}

TEST(SimCorrectness, SameInputsGiveByteIdenticalJson) {
  const trace::Trace t = synthetic("determinism", hot(2000, 5));
  std::vector<RunSpec> specs = all_modes();
  ReportInput in;
  in.gpu_name = specs[0].gpu.name;
  in.sms = 4;
  in.rop_units = 8;
  in.rop_ops_per_cycle = 1;
  std::string first;
  for (int rep = 0; rep < 2; ++rep) {
    std::vector<RunResult> runs;
    for (const auto& s : specs) runs.push_back(run_isolated(s, t));
    const std::string js = report_json(in, specs, runs).dump(2);
    if (rep == 0) first = js;
    else EXPECT_EQ(first, js);
  }
  std::printf("sim determinism: %s\n", first.empty() ? "no output" : "2 runs x 7 modes byte-identical JSON checked");
}

TEST(SimBehaviour, SchedulerModesAndBackPressureDoWhatTheySay) {
  const trace::Trace t = synthetic("behaviour", hot(3000, 21));
  RunSpec s = small_gpu();
  s.mode = Mode::Baseline;
  const RunResult base = run_isolated(s, t);
  s.mode = Mode::ArcHw;
  s.sched = golden::SchedMode::Never;
  const RunResult never = run_isolated(s, t);
  s.sched = golden::SchedMode::Always;
  const RunResult always = run_isolated(s, t);
  s.sched = golden::SchedMode::Dynamic;
  const RunResult dyn = run_isolated(s, t);
  // never: everything per lane, as the baseline; always: one request per address group.
  EXPECT_EQ(never.stats.requests_to_l2, base.stats.requests_to_l2);
  EXPECT_EQ(never.stats.groups_reduced_in_core, 0u);
  EXPECT_LT(always.stats.requests_to_l2, base.stats.requests_to_l2 / 2);
  // A ROP-bound trace: the baseline stalls on atomics and fills the LSU queue; reducing helps.
  EXPECT_GT(base.stats.atomic_stall_cycles, 0u);
  EXPECT_EQ(base.stats.lsu_occupancy_max, static_cast<uint64_t>(s.gpu.lsu_queue_depth));
  EXPECT_LT(always.stats.total_cycles, base.stats.total_cycles);
  // dynamic reduces only while busy, so it lies between never and always in requests.
  EXPECT_GT(dyn.stats.instrs_seen_busy, 0u);
  EXPECT_GE(dyn.stats.requests_to_l2, always.stats.requests_to_l2);
  EXPECT_LE(dyn.stats.requests_to_l2, never.stats.requests_to_l2);
  EXPECT_LT(dyn.stats.total_cycles, base.stats.total_cycles);
  std::printf("sim behaviour: baseline %llu, never %llu, always %llu, dynamic %llu cycles\n",
              static_cast<unsigned long long>(base.stats.total_cycles),
              static_cast<unsigned long long>(never.stats.total_cycles),
              static_cast<unsigned long long>(always.stats.total_cycles),
              static_cast<unsigned long long>(dyn.stats.total_cycles));
}

TEST(SimBehaviour, ArcHwPassThroughLanesCoalesceAsTheBaselinesDo) {
  // 128-byte line requests: `never` passes every lane through; gathered into one packet per
  // instruction they coalesce exactly as Baseline's lanes do (the paper's design: the LSU's
  // coalescer). arc_pass_coalesce = 0 sends each lane on its own: one request per lane update.
  auto g = hot(2000, 23);
  g.sharing = tracegen::Sharing::Line;  // 8 words of one 128-byte line per warp
  g.k = 8;
  const trace::Trace t = synthetic("pass-coalesce", g);
  RunSpec s = small_gpu();
  s.gpu.coalesce_bytes = 128;
  s.mode = Mode::Baseline;
  const RunResult base = run_isolated(s, t);
  s.mode = Mode::ArcHw;
  s.sched = golden::SchedMode::Never;
  const RunResult gathered = run_isolated(s, t);
  s.knobs.arc_pass_coalesce = 0;
  const RunResult single = run_isolated(s, t);
  EXPECT_LT(base.stats.requests_to_l2, base.stats.lane_updates);  // the trace does coalesce
  EXPECT_EQ(gathered.stats.requests_to_l2, base.stats.requests_to_l2);
  EXPECT_EQ(gathered.stats.rop_ops, base.stats.rop_ops);
  EXPECT_EQ(single.stats.requests_to_l2, single.stats.lane_updates);
  EXPECT_EQ(single.stats.rop_ops, base.stats.rop_ops);  // (the images differ in the last bits: another commit order)
  EXPECT_LT(gathered.stats.total_cycles, single.stats.total_cycles);
  std::printf("sim pass-through: baseline %llu requests, arc-hw/never gathered %llu, one per lane %llu; cycles %llu vs %llu\n",
              static_cast<unsigned long long>(base.stats.requests_to_l2),
              static_cast<unsigned long long>(gathered.stats.requests_to_l2),
              static_cast<unsigned long long>(single.stats.requests_to_l2),
              static_cast<unsigned long long>(gathered.stats.total_cycles),
              static_cast<unsigned long long>(single.stats.total_cycles));
}

// Requests to L2 that ARC-SW sends for a trace, counted from the golden groups alone:
// SW-S reduces every group of >= T (> 1) lanes; SW-B only a warp whose active lanes all share
// one address (reduce.cuh), otherwise it sends one atomic per lane.
uint64_t expected_sw_requests(const trace::Trace& t, Mode mode, uint32_t threshold) {
  uint64_t n = 0;
  for (const auto& in : t.instrs) {
    golden::WarpInstr wi;
    wi.active_mask = in.active_mask;
    wi.addr = in.addr;
    const auto groups = golden::match_addresses(wi);
    for (const auto& g : groups) {
      const uint32_t lanes = static_cast<uint32_t>(__builtin_popcount(g.lane_mask));
      const bool reduce = (mode == Mode::SwS || groups.size() == 1) && lanes >= threshold && lanes > 1;
      n += reduce ? 1 : lanes;
    }
  }
  return n;
}

TEST(SimBehaviour, SwBReducesOnlyUniformWarpsSwSEveryGroup) {
  const trace::Trace t = synthetic("swb-uniform", hot(1500, 41));  // mixed: some warps use k addresses
  RunSpec s = small_gpu();
  s.mode = Mode::SwS;
  const RunResult sws = run_isolated(s, t);
  s.mode = Mode::SwB;
  const RunResult swb = run_isolated(s, t);
  const uint64_t want_sws = expected_sw_requests(t, Mode::SwS, s.threshold);
  const uint64_t want_swb = expected_sw_requests(t, Mode::SwB, s.threshold);
  EXPECT_EQ(sws.stats.requests_to_l2, want_sws);
  EXPECT_EQ(swb.stats.requests_to_l2, want_swb);
  EXPECT_GT(want_swb, want_sws) << "the mixed trace must hold warps SW-B cannot reduce";
  std::printf("sim sw-b vs sw-s: %llu vs %llu requests to L2\n", static_cast<unsigned long long>(want_swb),
              static_cast<unsigned long long>(want_sws));
}

TEST(SimBehaviour, SwOverheadIsChargedAsIssueCycles) {
  auto g = hot(1500, 31);
  g.sharing = tracegen::Sharing::Same;  // uniform warps: SW-B and SW-S reduce the same groups
  const trace::Trace t = synthetic("swcost", g);
  RunSpec s = small_gpu();
  s.gpu.sw_overhead = 40;
  s.mode = Mode::SwB;
  const RunResult swb = run_isolated(s, t);
  EXPECT_EQ(swb.stats.sw_overhead_cycles, 40u * t.instrs.size());
  s.mode = Mode::SwS;
  const RunResult sws_flat = run_isolated(s, t);
  EXPECT_EQ(sws_flat.stats.total_cycles, swb.stats.total_cycles) << "same cost, same requests";
  s.knobs.sws_cycles_per_key = 8;
  s.knobs.sws_cycles_per_lane = 2;
  const RunResult sws = run_isolated(s, t);
  EXPECT_GT(sws.stats.sw_overhead_cycles, swb.stats.sw_overhead_cycles + 8u * t.instrs.size());
  EXPECT_GT(sws.stats.total_cycles, swb.stats.total_cycles);
  std::printf("sim sw cost: sw-b %llu, sw-s flat %llu, sw-s per key/lane %llu cycles\n",
              static_cast<unsigned long long>(swb.stats.total_cycles),
              static_cast<unsigned long long>(sws_flat.stats.total_cycles),
              static_cast<unsigned long long>(sws.stats.total_cycles));
}

TEST(SimBehaviour, IdleTimeIsSkippedNotTicked) {
  // Long compute gaps: simulated cycles grow with the gap, wall time must not.
  auto g = hot(400, 3);
  g.gap_mean = 1'000'000;
  const trace::Trace t = synthetic("idle", g);
  RunSpec s = small_gpu();
  s.mode = Mode::Baseline;
  const RunResult r = run_isolated(s, t);
  EXPECT_GT(r.stats.total_cycles, 10'000'000u);
  EXPECT_LT(r.cpu_seconds, 5.0) << "idle cycles must cost nothing";
  std::printf("sim idle skip: %llu cycles in %.3f s\n", static_cast<unsigned long long>(r.stats.total_cycles),
              r.cpu_seconds);
}

}  // namespace
}  // namespace arc::sim

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
