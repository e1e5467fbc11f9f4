// arcsim verify: synthetic traces replay through the Verilated ARC top with 0 mismatches
// (the million-instruction one through the built binary), and each check catches what it
// should: a wrong GPU partial sum, a wrong FTZ mode, groups the RTL does not reduce, a
// changed or missing transaction.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "golden.h"
#include "trace.h"
#include "tracegen.h"
#include "verify.h"

namespace arc::verify {
namespace {

std::string tmp_path(const std::string& tag) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return (std::filesystem::temp_directory_path() / ("arcsim_" + std::string(info->name()) + "_" + tag)).string();
}

std::string gen(const std::string& tag, tracegen::GenConfig c) {
  const std::string path = tmp_path(tag);
  tracegen::generate(c, path);
  return path;
}

struct CmdResult {
  int code;
  std::string out, err;
};

CmdResult arcsim(const std::string& args) {
  const std::string out = tmp_path("stdout"), err = tmp_path("stderr");
  const int st = std::system((std::string(ARCSIM_BIN) + " " + args + " >" + out + " 2>" + err).c_str());
  auto slurp = [](const std::string& p) {
    std::ifstream f(p);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
  };
  return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, slurp(out), slurp(err)};
}

// The CI gate: a million-instruction synthetic SW-S trace (subnormals, infinities and NaNs
// included) generated now, verified by the built arcsim binary with 0 mismatches.
TEST(Verify, MillionInstructionTraceHasNoMismatches) {
  // 1,000,000 instructions; scripts/sanitize.sh runs fewer (ARCSIM_VERIFY_INSTRUCTIONS), as it
  // does for the other large random-vector tests.
  const char* env = std::getenv("ARCSIM_VERIFY_INSTRUCTIONS");
  const uint64_t n = env && *env ? std::strtoull(env, nullptr, 10) : 1000000u;
  const std::string path = tmp_path("1M.trc");
  const auto t0 = std::chrono::steady_clock::now();
  CmdResult g = arcsim("trace gen -q --out " + path + " -n " + std::to_string(n) +
                       " --seed 2026 --special-prob 0.0005 --ftz 0");
  ASSERT_EQ(g.code, 0) << g.err;
  const auto t1 = std::chrono::steady_clock::now();
  CmdResult v = arcsim("verify --json --trace " + path);
  const auto t2 = std::chrono::steady_clock::now();
  ASSERT_EQ(v.code, 0) << v.err << v.out;
  const auto j = nlohmann::json::parse(v.out);
  EXPECT_EQ(j["instructions"], n);
  EXPECT_EQ(j["rtl_vs_golden_mismatches"], 0);
  EXPECT_EQ(j["rtl_vs_gpu_mismatches"], 0);
  EXPECT_GT(j["gpu_sums_checked"].get<uint64_t>(), n);
  EXPECT_EQ(j["final_buffer"]["method_replay_vs_gpu"]["differ"], 0);
  EXPECT_EQ(j["final_buffer"]["golden_replay_vs_gpu"]["differ"], 0);
  const double gen_s = std::chrono::duration<double>(t1 - t0).count();
  const double ver_s = std::chrono::duration<double>(t2 - t1).count();
  std::printf("%llu-instruction trace: %llu lane updates, %llu RTL transactions, %llu GPU sums checked; "
              "rtl_vs_golden %llu, rtl_vs_gpu %llu mismatches; generate %.1f s, verify %.1f s (%.3g lane updates/s)\n",
              static_cast<unsigned long long>(n), j["lanes"].get<unsigned long long>(),
              j["transactions"].get<unsigned long long>(),
              j["gpu_sums_checked"].get<unsigned long long>(), j["rtl_vs_golden_mismatches"].get<unsigned long long>(),
              j["rtl_vs_gpu_mismatches"].get<unsigned long long>(), gen_s, ver_s,
              j["lanes"].get<double>() / ver_s);
  std::filesystem::remove(path);
}

// The real-GPU fixture (3DGS backward pass, SW-S, H100, captured by sw/): every GPU partial
// sum equals the RTL's bit for bit; the final buffer is only compared (atomic order).
TEST(Verify, RealH100TraceMatchesTheRtl) {
  const std::string path = std::string(ARCSIM_TEST_DATA) + "/gs-sws-h100.arctrace";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "no fixture " << path;
  VerifyOptions o;
  o.trace_path = path;
  const VerifyResult r = verify_trace(o);
  std::printf("H100 trace: %llu instructions, %llu GPU partial sums checked, rtl_vs_golden %llu, rtl_vs_gpu %llu; "
              "final buffer %llu/%llu words exact, max %llu ULP\n",
              static_cast<unsigned long long>(r.instructions), static_cast<unsigned long long>(r.gpu_sums_checked),
              static_cast<unsigned long long>(r.rtl_vs_golden_mismatches),
              static_cast<unsigned long long>(r.rtl_vs_gpu_mismatches),
              static_cast<unsigned long long>(r.method_image.exact), static_cast<unsigned long long>(r.method_image.words),
              static_cast<unsigned long long>(r.method_image.max_ulp));
  EXPECT_GT(r.gpu_sums_checked, 1000u);
  EXPECT_EQ(r.rtl_vs_golden_mismatches, 0u);
  EXPECT_EQ(r.rtl_vs_gpu_mismatches, 0u);
  EXPECT_TRUE(r.image_checked);
}

TEST(Verify, EverySchedulerModeMatchesGolden) {
  tracegen::GenConfig c;
  c.instructions = 20000;
  c.activity = tracegen::Activity::Uniform;
  c.sharing = tracegen::Sharing::Pool;
  c.reduce_ftz = fp::FtzMode::Flush;
  const std::string path = gen("modes", c);
  using M = std::optional<golden::SchedMode>;
  for (M m : {M(), M(golden::SchedMode::Never), M(golden::SchedMode::Always), M(golden::SchedMode::Threshold),
              M(golden::SchedMode::Dynamic)}) {
    VerifyOptions o;
    o.trace_path = path;
    o.mode = m;
    const VerifyResult r = verify_trace(o);
    std::printf("mode %-9s: %llu transactions, %llu reduced, rtl_vs_golden %llu, rtl_vs_gpu %llu\n",
                r.mode.c_str(), static_cast<unsigned long long>(r.transactions),
                static_cast<unsigned long long>(r.reduced_transactions),
                static_cast<unsigned long long>(r.rtl_vs_golden_mismatches),
                static_cast<unsigned long long>(r.rtl_vs_gpu_mismatches));
    EXPECT_EQ(r.rtl_vs_golden_mismatches, 0u) << r.mode;
    EXPECT_EQ(r.instructions, 20000u);
    if (m == golden::SchedMode::Never) {
      // The RTL reduces nothing, so every GPU partial sum is unmatched: the check must say so.
      EXPECT_EQ(r.reduced_transactions, 0u);
      EXPECT_GT(r.gpu_groups_not_reduced_by_rtl, 1000u);
      EXPECT_EQ(r.rtl_vs_gpu_mismatches, r.gpu_groups_not_reduced_by_rtl);
    }
    if (!m || m == golden::SchedMode::Threshold) {  // the generator's own rule, or followed per instruction
      EXPECT_EQ(r.rtl_vs_gpu_mismatches, 0u);
      EXPECT_EQ(r.method_image.differ, 0u);
      EXPECT_EQ(r.golden_image.differ, 0u);
    }
  }
}

// A GPU that reduced a 2-lane group but not a 3-lane one (no threshold says that): "trace"
// mode drives Always for that instruction and still checks the sum; a fixed threshold cannot.
TEST(Verify, TraceModeFollowsIrregularGpuDecisions) {
  trace::Trace t;
  t.header.sm_count = 1;  // a header's SM count is 1..4096 (FORMAT.md)
  t.header.buffer_words = 8;
  t.header.method = trace::Method::SwS;
  t.header.balancing_threshold = 2;
  trace::Instr in;
  in.active_mask = 0b11111;
  in.addr = {1, 1, 4, 4, 4};
  in.value = {0x3F800000, 0x3F000000, 0x40000000, 0x40400000, 0x40800000};
  in.reduced_mask = 0b1;
  golden::WarpInstr w;
  w.active_mask = in.active_mask;
  w.addr = in.addr;
  w.value = in.value;
  in.partial_sum[0] = golden::serial_sum(w, 0b11, fp::FtzMode::Keep);
  t.instrs.push_back(in);
  golden::MemoryImage mem(8);
  mem.apply(1, in.partial_sum[0]);
  for (int l = 2; l < 5; ++l) mem.apply(4, in.value[l]);
  t.final_buffer = mem.words().to_vector();
  const std::string path = tmp_path("irregular.trc");
  trace::write_trace(path, t);
  VerifyOptions o;
  o.trace_path = path;
  VerifyResult r = verify_trace(o);
  EXPECT_EQ(r.instrs_always, 1u);
  EXPECT_EQ(r.gpu_sums_checked, 1u);
  EXPECT_EQ(r.rtl_vs_gpu_mismatches, 0u);
  EXPECT_EQ(r.rtl_groups_reduced_without_gpu_sum, 1u);
  EXPECT_EQ(r.method_image.differ, 0u);
  o.mode = golden::SchedMode::Threshold;
  o.threshold = 3;
  r = verify_trace(o);
  EXPECT_EQ(r.gpu_groups_not_reduced_by_rtl, 1u);
  EXPECT_EQ(r.rtl_vs_gpu_mismatches, 1u);
}

// SW-B: the GPU's butterfly sums are checked against golden::butterfly_sum (the RTL sums
// serially); a wrong one fails; a library-order (CUB) sum is counted as unchecked.
TEST(Verify, TreeSumsCheckedAgainstGoldenButterfly) {
  tracegen::GenConfig c;
  c.instructions = 4000;
  c.method = trace::Method::SwB;
  c.value_sigma = 3e-38;
  c.reduce_ftz = fp::FtzMode::Keep;
  trace::Trace t = trace::read_trace(gen("swb", c));
  VerifyOptions o;
  o.trace_path = tmp_path("swb2.trc");
  trace::write_trace(o.trace_path, t);
  VerifyResult r = verify_trace(o);
  EXPECT_GT(r.gpu_tree_sums_checked, 3000u);
  EXPECT_EQ(r.gpu_vs_golden_tree_mismatches, 0u);
  EXPECT_EQ(r.rtl_vs_golden_mismatches, 0u);
  EXPECT_EQ(r.rtl_vs_gpu_mismatches, 0u);
  EXPECT_EQ(r.gpu_sums_checked, 0u);
  EXPECT_EQ(r.method_image.differ, 0u);
  size_t a = 0;
  while (t.instrs[a].reduced_mask == 0) ++a;
  size_t b = a + 1;
  while (t.instrs[b].reduced_mask == 0) ++b;
  t.instrs[a].partial_sum[__builtin_ctz(t.instrs[a].reduced_mask)] ^= 4;
  t.instrs[b].flags |= trace::kFlagOpaqueSum;
  trace::write_trace(o.trace_path, t);
  r = verify_trace(o);
  EXPECT_EQ(r.gpu_vs_golden_tree_mismatches, 1u);
  EXPECT_EQ(r.gpu_sums_unchecked, 1u);
  const CmdResult v = arcsim("verify --trace " + o.trace_path);
  EXPECT_EQ(v.code, 1) << v.out;
}

// Adaptive rule v4: groups summed by the group tree (kFlagGroupTreeSum) are checked against
// golden::group_tree_sum, not the RTL's serial sums. An SW-S capture's groups re-summed in the
// tree order pass; one ULP off fails; the same sums read as serial (flag cleared) disagree with
// the RTL wherever the two orders round differently.
TEST(Verify, GroupTreeSumsCheckedAgainstGolden) {
  tracegen::GenConfig c;
  c.instructions = 4000;
  c.method = trace::Method::SwS;
  c.reduce_ftz = fp::FtzMode::Keep;
  trace::Trace t = trace::read_trace(gen("gtree", c));
  t.header.method = trace::Method::Adaptive;
  uint64_t groups = 0;
  for (trace::Instr& in : t.instrs) {
    if (in.reduced_mask == 0) continue;
    in.flags |= trace::kFlagGroupTreeSum;
    for (uint32_t rem = in.reduced_mask; rem; rem &= rem - 1) {
      const int lead = __builtin_ctz(rem);
      uint32_t group = 0;
      for (int l = lead; l < trace::kLanes; ++l)
        if ((in.active_mask >> l & 1) && in.addr[l] == in.addr[lead]) group |= 1u << l;
      in.partial_sum[lead] = golden::group_tree_sum(in.value, group, fp::FtzMode::Keep);
      ++groups;
    }
  }
  VerifyOptions o;
  o.trace_path = tmp_path("gtree.trc");
  trace::write_trace(o.trace_path, t);
  VerifyResult r = verify_trace(o);
  EXPECT_EQ(r.gpu_tree_sums_checked, groups);
  EXPECT_EQ(r.gpu_group_tree_sums_checked, groups);
  EXPECT_GT(groups, 1000u);
  EXPECT_EQ(r.gpu_vs_golden_tree_mismatches, 0u);
  EXPECT_EQ(r.rtl_vs_golden_mismatches, 0u);
  EXPECT_EQ(r.rtl_vs_gpu_mismatches, 0u);
  EXPECT_EQ(r.gpu_sums_checked, 0u);
  size_t a = 0;
  while (t.instrs[a].reduced_mask == 0) ++a;
  trace::Trace bad = t;
  bad.instrs[a].partial_sum[__builtin_ctz(bad.instrs[a].reduced_mask)] ^= 1;
  trace::write_trace(o.trace_path, bad);
  r = verify_trace(o);
  EXPECT_EQ(r.gpu_vs_golden_tree_mismatches, 1u);
  EXPECT_NE(r.first_mismatches.at(0).find("group-tree"), std::string::npos) << r.first_mismatches.at(0);
  for (trace::Instr& in : t.instrs) in.flags &= ~trace::kFlagGroupTreeSum;
  trace::write_trace(o.trace_path, t);
  r = verify_trace(o);
  EXPECT_GT(r.rtl_vs_gpu_mismatches, 0u) << "serial and tree orders round alike on every group";
}

// Adaptive rule v5's pair send (kFlagPairSum): a reduced lane l sent value l + value l+1 (the
// group tree of those two lanes) and lane l+1 nothing. Each such sum is checked against golden;
// the GPU-method replay applies the pair sums and skips the lanes that gave theirs away; one
// flipped bit is reported, naming the lanes.
TEST(Verify, PairSumsCheckedAgainstGolden) {
  tracegen::GenConfig c;
  c.instructions = 4000;
  c.reduce_ftz = fp::FtzMode::Keep;
  trace::Trace t = trace::read_trace(gen("pair", c));
  t.header.method = trace::Method::Adaptive;
  uint64_t pairs = 0;
  for (trace::Instr& in : t.instrs) {
    in.flags |= trace::kFlagPairSum;
    in.reduced_mask = 0;
    for (int l = 0; l + 1 < trace::kLanes; ++l) {
      const bool next = (in.active_mask >> l & 1) && (in.active_mask >> (l + 1) & 1) && in.addr[l] == in.addr[l + 1];
      if (!next || (l > 0 && (in.reduced_mask >> (l - 1) & 1))) continue;
      in.reduced_mask |= 1u << l;
      in.partial_sum[l] = golden::group_tree_sum(in.value, 3u << l, fp::FtzMode::Keep);
      ++pairs;
    }
  }
  VerifyOptions o;
  o.trace_path = tmp_path("pair.trc");
  trace::write_trace(o.trace_path, t);
  VerifyResult r = verify_trace(o);
  EXPECT_GT(pairs, 1000u);
  EXPECT_EQ(r.gpu_pair_sums_checked, pairs);
  EXPECT_EQ(r.gpu_tree_sums_checked, pairs);
  EXPECT_EQ(r.gpu_vs_golden_tree_mismatches, 0u);
  EXPECT_EQ(r.rtl_vs_golden_mismatches, 0u);
  EXPECT_EQ(r.rtl_vs_gpu_mismatches, 0u);
  EXPECT_EQ(r.instrs_never, t.instrs.size()) << "the RTL sends a pair instruction's lanes as they are";
  ASSERT_TRUE(r.image_checked);  // the pair sums replace their two lanes: the GPU buffer to rounding
  EXPECT_LT(r.method_image.max_rel_error, 1e-3);  // a lane counted twice or lost: O(1)
  EXPECT_EQ(r.method_image.nonfinite_differ, 0u);
  size_t a = 0;
  while (t.instrs[a].reduced_mask == 0) ++a;
  trace::Trace bad = t;
  bad.instrs[a].partial_sum[__builtin_ctz(bad.instrs[a].reduced_mask)] ^= 1;
  trace::write_trace(o.trace_path, bad);
  r = verify_trace(o);
  EXPECT_EQ(r.gpu_vs_golden_tree_mismatches, 1u);
  EXPECT_NE(r.first_mismatches.at(0).find("pair sum"), std::string::npos) << r.first_mismatches.at(0);
  const CmdResult v = arcsim("verify --trace " + o.trace_path);
  EXPECT_EQ(v.code, 1) << v.out;
}

TEST(Verify, WrongGpuPartialSumIsReported) {
  tracegen::GenConfig c;
  c.instructions = 3000;
  trace::Trace t = trace::read_trace(gen("src", c));
  size_t victim = 0;
  while (t.instrs[victim].reduced_mask == 0) ++victim;
  trace::Instr& in = t.instrs[victim];
  in.partial_sum[__builtin_ctz(in.reduced_mask)] ^= 1;  // one ULP off
  const std::string path = tmp_path("bad.trc");
  trace::write_trace(path, t);
  VerifyOptions o;
  o.trace_path = path;
  const VerifyResult r = verify_trace(o);
  EXPECT_EQ(r.rtl_vs_golden_mismatches, 0u);
  EXPECT_EQ(r.rtl_vs_gpu_mismatches, 1u);
  ASSERT_EQ(r.first_mismatches.size(), 1u);
  EXPECT_NE(r.first_mismatches[0].find("instruction " + std::to_string(victim)), std::string::npos)
      << r.first_mismatches[0];
  const CmdResult v = arcsim("verify --trace " + path);  // the CLI's verdict
  EXPECT_EQ(v.code, 1) << v.out << v.err;
  EXPECT_NE(v.out.find("FAILED"), std::string::npos);
}

// Partial sums made without -ftz (FTZ=0) differ from an FTZ=1 adder where subnormals occur.
TEST(Verify, FtzModeMustMatchTheTrace) {
  tracegen::GenConfig c;
  c.instructions = 3000;
  c.value_sigma = 3e-38;  // partial sums pass through the subnormal range
  c.reduce_ftz = fp::FtzMode::Keep;
  const std::string path = gen("ftz", c);
  VerifyOptions o;
  o.trace_path = path;
  EXPECT_EQ(verify_trace(o).rtl_vs_gpu_mismatches, 0u);
  o.ftz = fp::FtzMode::Flush;
  const VerifyResult r = verify_trace(o);
  EXPECT_EQ(r.rtl_vs_golden_mismatches, 0u);  // golden runs in the same (wrong) mode
  EXPECT_GT(r.rtl_vs_gpu_mismatches, 100u);
}

TEST(Verify, CompareStreamsCatchesEveryDifference) {
  using golden::Route;
  const std::vector<golden::Transaction> want = {{Route::Reduced, 5, 0x3F800000, 0x3}, {Route::Lsu, 9, 1, 0x4}};
  std::vector<std::string> report;
  EXPECT_EQ(compare_streams(want, want, 0, report, 10), 0u);
  auto got = want;
  got[0].value ^= 1;
  EXPECT_EQ(compare_streams(want, got, 7, report, 10), 1u);
  got = want;
  got[1].route = Route::Reduced;
  EXPECT_EQ(compare_streams(want, got, 7, report, 10), 1u);
  got = want;
  got.pop_back();
  EXPECT_EQ(compare_streams(want, got, 7, report, 10), 1u);
  got = want;
  got.push_back(want[0]);
  EXPECT_EQ(compare_streams(want, got, 7, report, 10), 1u);
  EXPECT_EQ(report.size(), 4u);
  EXPECT_NE(report[0].find("instruction 7 transaction 0"), std::string::npos) << report[0];
}

TEST(Verify, CompareImages) {
  const ImageCompare c = compare_images({0x3F800000, 0x3F800001, 0x7FFFFFFF, 0}, {0x3F800000, 0x3F800003, 0, 0});
  EXPECT_EQ(c.exact, 2u);
  EXPECT_EQ(c.differ, 2u);
  EXPECT_EQ(c.nonfinite_differ, 1u);
  EXPECT_EQ(c.max_ulp, 2u);
  EXPECT_EQ(c.worst_word, 1u);
  EXPECT_NEAR(c.max_rel_error, 2 * 0x1.0p-23 / (1 + 3 * 0x1.0p-23), 1e-12);
}

TEST(Verify, WaveformAndLimit) {
  tracegen::GenConfig c;
  c.instructions = 500;
  const std::string path = gen("wave", c), fst = tmp_path("wave.fst");
  const CmdResult v = arcsim("verify --json --limit 40 --wave " + fst + " --trace " + path);
  ASSERT_EQ(v.code, 0) << v.err;
  const auto j = nlohmann::json::parse(v.out);
  EXPECT_EQ(j["instructions"], 40);
  EXPECT_FALSE(j.contains("final_buffer"));
  EXPECT_GT(std::filesystem::file_size(fst), 1000u);
}

TEST(Verify, BadInputIsOneLine) {
  const CmdResult v = arcsim("verify --trace /nonexistent.trc");
  EXPECT_EQ(v.code, 2);
  EXPECT_EQ(v.err.rfind("arcsim: error: cannot open trace", 0), 0u) << v.err;
}

TEST(Verify, RefusesATimingOnlyTrace) {
  tracegen::GenConfig c;
  c.instructions = 50;
  trace::Trace t = trace::read_trace(gen("full", c));
  t.header.timing_only = true;
  t.final_buffer.clear();
  const std::string path = tmp_path("timing.arctrace");
  trace::write_trace(path, t);
  const CmdResult v = arcsim("verify --trace " + path);
  EXPECT_EQ(v.code, 2);
  EXPECT_EQ(v.err.rfind("arcsim: error: " + path + ": a timing-only trace", 0), 0u) << v.err;
  EXPECT_EQ(std::count(v.err.begin(), v.err.end(), '\n'), 1) << v.err;
}

}  // namespace
}  // namespace arc::verify
